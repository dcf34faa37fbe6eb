import fs from "node:fs/promises";
import path from "node:path";
import { migrationsFolder } from "../db/migrate.js";

export interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
  breakpoints: boolean;
}

/** The committed migrations as Drizzle lists them (meta/_journal.json). */
export async function readJournal(folder = migrationsFolder()): Promise<JournalEntry[]> {
  const journal = JSON.parse(await fs.readFile(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}
