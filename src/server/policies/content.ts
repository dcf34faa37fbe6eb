import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { formatRand } from "#domain/money.js";
import { POLICY_KINDS, type PolicyKind } from "#domain/policies.js";
import { DELIVERY_FEE_CENTS, DISPATCH_PROMISE, FREE_DELIVERY_THRESHOLD_CENTS } from "#domain/pricing.js";
import { LAST_RETURN_DUE_MONTHS } from "#domain/retention.js";
import { legalEntityName } from "#domain/seller.js";
import { vatWording } from "#domain/vat-wording.js";
import { type Config, ConfigError } from "../platform/config.js";

/** A policy file as it will be published: its front matter read, its placeholders filled in. */
export interface PolicyFile {
  kind: PolicyKind;
  title: string;
  /** YYYY-MM-DD, from the front matter's `date`. */
  effectiveDate: string;
  /** The Markdown after the front matter, placeholders filled in. */
  body: string;
  /** SHA-256 of the whole filled-in file: a new hash publishes a new version. */
  contentHash: string;
}

/** The folder under CONTENT_DIR that holds the policies. */
export const POLICIES_FOLDER = "policies";

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/g;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * The values the policies' {{placeholders}} take: the owner's facts come from the configuration,
 * never typed into the Markdown, so the texts follow a change of address or Information Officer.
 * The owner's own settings go into the Markdown as they are (raw HTML is shown as text anyway).
 */
export function policyPlaceholders(
  config: Pick<Config, "shop" | "seller" | "publicUrl" | "retentionYears" | "session">,
): Record<string, string> {
  const { shop, seller } = config;
  return {
    shopName: shop.name,
    shopEmail: shop.email,
    shopPhone: shop.phone,
    shopAddress: shop.address,
    shopHours: shop.hours,
    shopUrl: config.publicUrl,
    legalName: seller.legalName,
    legalStatus: seller.legalStatus,
    seller: legalEntityName(seller.legalName, seller.legalStatus),
    registrationNumber: seller.registrationNumber ?? "not applicable (not a company)",
    directors: seller.directors.join(", ") || "not applicable",
    placeOfRegistration: seller.placeOfRegistration ?? "not applicable",
    serviceAddress: seller.serviceAddress,
    informationOfficerName: seller.informationOfficer.name,
    informationOfficerEmail: seller.informationOfficer.email,
    // The shop's rules, from src/domain, so a text never states a fee the checkout does not charge.
    deliveryFee: formatRand(DELIVERY_FEE_CENTS),
    freeDeliveryFrom: formatRand(FREE_DELIVERY_THRESHOLD_CENTS),
    dispatchPromise: DISPATCH_PROMISE,
    // Whether prices include VAT: only when the shop is VAT-registered (CPA s41).
    vatOnPrices: vatWording(shop.vatNumber !== null).fullPrice,
    // How long things are kept, from the settings that decide it (RETENTION_YEARS, SESSION_*_DAYS).
    retentionYears: String(config.retentionYears),
    lastReturnDueMonths: String(LAST_RETURN_DUE_MONTHS),
    sessionIdleDays: String(config.session.idleMs / DAY_MS),
    sessionAbsoluteDays: String(config.session.absoluteMs / DAY_MS),
  };
}

/**
 * Reads content/policies/{kind}.md for every policy. A missing file, a bad front matter or an
 * unknown placeholder stops the start with a message naming the file, as a bad setting does.
 */
export function readPolicies(
  config: Pick<Config, "shop" | "seller" | "publicUrl" | "contentDir" | "retentionYears" | "session">,
): PolicyFile[] {
  const folder = path.join(config.contentDir, POLICIES_FOLDER);
  const values = policyPlaceholders(config);
  const problems: string[] = [];
  const files: PolicyFile[] = [];
  for (const kind of POLICY_KINDS) {
    const file = path.join(folder, `${kind}.md`);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      problems.push(`${file}: missing (CONTENT_DIR is ${config.contentDir}; every policy needs its file).`);
      continue;
    }
    const parsed = parsePolicy(text, values);
    if (typeof parsed === "string") problems.push(`${file}: ${parsed}`);
    else files.push({ kind, ...parsed });
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid policy content:\n${problems.map((line) => `  ${line}`).join("\n")}`);
  }
  return files;
}

/** The file's title, date and filled-in body, or what is wrong with it. */
export function parsePolicy(text: string, values: Record<string, string>): Omit<PolicyFile, "kind"> | string {
  const source = text.replace(/^\uFEFF/, "");
  const front = FRONT_MATTER.exec(source);
  if (!front) return "starts with no front matter (a --- line, then `title:` and `date: YYYY-MM-DD`, then ---).";
  const fields = new Map<string, string>();
  for (const line of (front[1] ?? "").split(/\r?\n/)) {
    if (!line.trim() || line.trim().startsWith("#")) continue;
    const match = /^([A-Za-z]+):\s*(.*)$/.exec(line.trim());
    if (!match) return `front matter line "${line.trim()}" is not \`key: value\`.`;
    fields.set((match[1] ?? "").toLowerCase(), unquote(match[2] ?? ""));
  }
  const title = fields.get("title") ?? "";
  const date = fields.get("date") ?? "";
  if (!title) return "its front matter has no `title:`.";
  if (!isCalendarDate(date)) return `its front matter's \`date:\` must be a date as YYYY-MM-DD (got "${date}").`;

  const unknown = new Set<string>();
  const fill = (part: string) =>
    part.replace(PLACEHOLDER, (whole, name: string) => {
      const value = values[name];
      if (value === undefined) unknown.add(name);
      return value ?? whole;
    });
  const filledTitle = fill(title);
  const body = fill(source.slice(front[0].length)).trim();
  if (unknown.size > 0) {
    return `unknown placeholder${unknown.size > 1 ? "s" : ""} ${[...unknown].map((name) => `{{${name}}}`).join(", ")} (known: ${Object.keys(
      values,
    )
      .map((name) => `{{${name}}}`)
      .join(", ")}).`;
  }
  if (!body) return "has no text after its front matter.";
  const published = `title: ${filledTitle}\ndate: ${date}\n\n${body}\n`;
  return {
    title: filledTitle,
    effectiveDate: date,
    body,
    contentHash: createHash("sha256").update(published).digest("hex"),
  };
}

function unquote(value: string): string {
  const trimmed = value.trim();
  const quoted = /^(["'])(.*)\1$/.exec(trimmed);
  return quoted ? (quoted[2] ?? "") : trimmed;
}

function isCalendarDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}
