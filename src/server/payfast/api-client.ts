import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import { parseRandToCents } from "../../domain/money.js";
import type { Config } from "../config.js";
import { phpUrlencode } from "./signature.js";

/**
 * PayFast's API (docs/payfast.md §7, "PayFast's API"): every call carries the headers merchant-id,
 * version and timestamp, and a signature over those headers, the query and body values and the
 * passphrase, sorted alphabetically by key. In local mode the base URL is the emulator's.
 */

export const API_VERSION = "v1";

/** MD5 over `key=urlencode(value)` of every field plus the passphrase, keys sorted alphabetically. */
export function apiSignature(fields: Readonly<Record<string, string>>, passphrase: string): string {
  const all: Record<string, string> = { ...fields, passphrase };
  delete all.signature;
  delete all.testing;
  const paramString = Object.keys(all)
    .sort()
    .map((key) => `${key}=${phpUrlencode(all[key] ?? "")}`)
    .join("&");
  return createHash("md5").update(paramString, "utf8").digest("hex");
}

/** ISO-8601 in South African time with its offset ("2026-01-05T12:00:01+02:00"), as PayFast's examples show. */
export function payfastTimestamp(now: Date): string {
  const sast = new Date(now.getTime() + 2 * 3_600_000);
  return `${sast.toISOString().slice(0, 19)}+02:00`;
}

/** A day in South African time (YYYY-MM-DD), as the history's from/to take it. */
export function sastDate(when: Date): string {
  return payfastTimestamp(when).slice(0, 10);
}

/** One row of PayFast's transaction history, as reconciliation needs it. */
export interface HistoryRow {
  type: string;
  sign: string;
  mPaymentId: string;
  pfPaymentId: string;
  /** Gross in cents; null when the cell is not an amount. */
  grossCents: number | null;
  gross: string;
}

export class PayfastApiError extends Error {
  override name = "PayfastApiError";
}

/**
 * Reads the history's CSV. PayFast answers the CSV itself or wrapped as `{"response": "<csv>"}`
 * (seen in integrations); anything else throws, so "PayFast did not answer properly" is never
 * read as "no payment".
 */
export function parseHistory(body: string): HistoryRow[] {
  let csv = body;
  const trimmed = body.trim();
  if (trimmed.startsWith("{")) {
    const json = JSON.parse(trimmed) as { response?: unknown; data?: { response?: unknown } };
    const inner = typeof json.response === "string" ? json.response : json.data?.response;
    if (typeof inner !== "string") throw new PayfastApiError("transaction history: JSON without a CSV");
    csv = inner;
  }
  const records = parse(csv, {
    columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
  }) as Record<string, string>[];
  if (records.length > 0 && !("m payment id" in (records[0] ?? {}))) {
    throw new PayfastApiError("transaction history: not the transaction CSV");
  }
  if (records.length === 0 && !/m payment id/i.test(csv)) {
    throw new PayfastApiError("transaction history: not the transaction CSV");
  }
  return records.map((record) => {
    const gross = (record.gross ?? "").replaceAll(",", "");
    const negative = gross.startsWith("-");
    const cents = parseRandToCents(negative ? gross.slice(1) : gross);
    return {
      type: (record.type ?? "").toUpperCase(),
      sign: (record.sign ?? "").toUpperCase(),
      mPaymentId: record["m payment id"] ?? "",
      pfPaymentId: record["pf payment id"] ?? "",
      grossCents: cents === null ? null : negative ? -cents : cents,
      gross: record.gross ?? "",
    };
  });
}

export interface PayfastApi {
  /** Every transaction between two South African dates (inclusive). */
  transactionHistory(from: string, to: string): Promise<HistoryRow[]>;
}

const PAGE = 1000;
const TIMEOUT_MS = 15_000;

export function payfastApiClient(config: Config, options: { fetch?: typeof fetch; now?: () => Date } = {}): PayfastApi {
  const send = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const { merchantId, passphrase, apiUrl, apiTesting } = config.payfast;

  async function get(path: string, query: Record<string, string>): Promise<string> {
    const headers: Record<string, string> = {
      "merchant-id": merchantId,
      version: API_VERSION,
      timestamp: payfastTimestamp(now()),
    };
    headers.signature = apiSignature({ ...headers, ...query }, passphrase ?? "");
    const url = new URL(`${apiUrl.replace(/\/+$/, "")}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    if (apiTesting) url.searchParams.set("testing", "true");
    const response = await send(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await response.text();
    if (!response.ok) {
      throw new PayfastApiError(`GET ${path} answered ${response.status}: ${text.slice(0, 200)}`);
    }
    return text;
  }

  return {
    async transactionHistory(from, to) {
      const rows: HistoryRow[] = [];
      for (let offset = 0; ; offset += PAGE) {
        const page = parseHistory(
          await get("/transactions/history", { from, to, offset: String(offset), limit: String(PAGE) }),
        );
        rows.push(...page);
        if (page.length < PAGE) return rows;
      }
    },
  };
}
