import { readFileSync } from "node:fs";
import path from "node:path";
import { LAUNCH_ITEM_ID_MAX } from "#domain/limits.js";
import { LAUNCH_ITEM_ID } from "#domain/schemas/launch-checklist.js";
import { type Config, ConfigError } from "../platform/config.js";
import { parsePolicy, policyPlaceholders } from "../policies/content.js";
import { renderPolicyMarkdown } from "../policies/render.js";

/** The owner's file of duties outside the software, under CONTENT_DIR. */
export const LAUNCH_CHECKLIST_FILE = "launch-checklist.md";

export interface LaunchDuty {
  id: string;
  title: string;
  source: string;
  html: string;
}

export interface LaunchChecklistContent {
  title: string;
  introHtml: string;
  items: readonly LaunchDuty[];
}

const HEADING = /^## (.*)$/;
const HEADING_WITH_ID = /^## (.+?)\s*\{#([^}]*)\}\s*$/;
const SOURCE = /^Source:\s*(.+)$/;

/**
 * Reads content/launch-checklist.md: front matter and placeholders as the policies have them
 * (policies/content.ts), then an introduction and one `## Title {#id}` section per duty whose
 * first line is `Source: ...`. A missing file or a malformed section stops the start and names it.
 */
export function readLaunchChecklist(
  config: Pick<Config, "shop" | "seller" | "publicUrl" | "contentDir" | "retentionYears" | "session">,
): LaunchChecklistContent {
  const file = path.join(config.contentDir, LAUNCH_CHECKLIST_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new ConfigError(
      `Invalid launch checklist:\n  ${file}: missing (CONTENT_DIR is ${config.contentDir}; the admin's "Before you open" reads it).`,
    );
  }
  const parsed = parseLaunchChecklist(text, policyPlaceholders(config));
  if (typeof parsed === "string") throw new ConfigError(`Invalid launch checklist:\n  ${file}: ${parsed}`);
  return parsed;
}

/** The checklist's title, introduction and duties, or what is wrong with the file. */
export function parseLaunchChecklist(text: string, values: Record<string, string>): LaunchChecklistContent | string {
  const policy = parsePolicy(text, values);
  if (typeof policy === "string") return policy;
  const intro: string[] = [];
  const sections: { heading: string; lines: string[] }[] = [];
  for (const line of policy.body.split(/\r?\n/)) {
    if (HEADING.test(line)) sections.push({ heading: line, lines: [] });
    else (sections.at(-1)?.lines ?? intro).push(line);
  }
  if (sections.length === 0) return "has no duties: write each as a `## Title {#id}` heading, then `Source: ...`.";
  const items: LaunchDuty[] = [];
  const seen = new Set<string>();
  for (const { heading, lines } of sections) {
    const match = HEADING_WITH_ID.exec(heading);
    if (!match) return `the heading "${heading}" has no id: end it with {#an-id}.`;
    const [, title = "", id = ""] = match;
    if (!LAUNCH_ITEM_ID.test(id) || id.length > LAUNCH_ITEM_ID_MAX) {
      return `the id {#${id}} of "${title}" must be lower-case letters, digits and single hyphens, at most ${LAUNCH_ITEM_ID_MAX} characters.`;
    }
    if (seen.has(id)) return `the id {#${id}} is used twice: each duty needs its own (its tick is stored under it).`;
    seen.add(id);
    const first = lines.findIndex((line) => line.trim() !== "");
    const source = SOURCE.exec(lines[first]?.trim() ?? "");
    if (!source) return `"${title}" must start with a line "Source: ..." (the law or body the duty comes from).`;
    const explanation = lines
      .slice(first + 1)
      .join("\n")
      .trim();
    if (!explanation) return `"${title}" has no explanation after its Source line.`;
    items.push({ id, title, source: (source[1] ?? "").trim(), html: renderPolicyMarkdown(explanation) });
  }
  return { title: policy.title, introHtml: renderPolicyMarkdown(intro.join("\n").trim()), items };
}
