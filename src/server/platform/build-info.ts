import { readFileSync } from "node:fs";

export interface BuildInfo {
  /** package.json's version. */
  version: string;
  /** The commit the build was made from (scripts/release-files.mjs), or "unknown" (a run from the sources). */
  revision: string;
}

function readJson(relative: string): Record<string, unknown> | null {
  try {
    return JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
}

let known: BuildInfo | null = null;

/**
 * Which release runs: package.json three folders up (the repository's from src/server/platform/, the
 * release's from dist/server/platform/), and the revision the build wrote beside dist/server/.
 */
export function buildInfo(): BuildInfo {
  if (known) return known;
  const version = readJson("../../../package.json")?.version;
  const revision = readJson("../../build-info.json")?.revision;
  known = {
    version: typeof version === "string" ? version : "unknown",
    revision: typeof revision === "string" && revision ? revision : "unknown",
  };
  return known;
}
