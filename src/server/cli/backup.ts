/**
 * npm run backup [-- --dir <folder>]
 *
 * Writes a consistent snapshot of the shop's data to one compressed file in BACKUP_DIR (default
 * DATA_DIR/backups) and prints its name (docs/backups.md). Works beside a running shop: its
 * embedded PostgreSQL is connected to and left running; with no shop running it is started for
 * the backup and stopped after. With DATABASE_URL set, that database is backed up.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { backupAndRecord } from "../platform/backup/daily.js";
import { shopDatabase } from "../platform/backup/target.js";
import { ConfigError, loadConfig, loadEnvFile } from "../platform/config.js";
import { NoClusterError } from "../platform/db/embedded.js";
import { errWithoutValues } from "../platform/log-errors.js";
import { isEntryPoint } from "./entry-point.js";

const USAGE = `Usage: npm run backup [-- --dir <folder>]
  Writes the shop's data to <folder> (default BACKUP_DIR, or DATA_DIR/backups) as
  shop-<time>.backup.gz. Restore it with: npm run restore -- <file>`;

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { dir: { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  loadEnvFile();
  const config = loadConfig();
  const dir = values.dir ? path.resolve(values.dir) : config.backup.dir;
  const database = await shopDatabase(config, (line) => console.error(`[db] ${line}`));
  const client = new pg.Client({ connectionString: database.databaseUrl });
  try {
    await client.connect();
    const result = await backupAndRecord(client, {
      databaseUrl: database.databaseUrl,
      dir,
      trigger: "command",
      offsite: config.backup.s3,
    });
    const seconds = ((result.finishedAt.getTime() - result.startedAt.getTime()) / 1000).toFixed(1);
    console.log(
      `Backed up ${result.rows} rows of ${result.tables} tables in ${seconds} s (${(result.bytes / 1024).toFixed(0)} KB):\n${result.file}`,
    );
    if (result.copy?.error) {
      console.error(`The copy to the bucket (BACKUP_S3_URL) failed: ${result.copy.error}`);
      process.exitCode = 1;
    } else if (result.copy) console.log(`Copied to the bucket as ${result.copy.key}`);
  } finally {
    await client.end().catch(() => {});
    await database.close();
  }
}

if (isEntryPoint(import.meta.url)) {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof NoClusterError) console.error(error.message);
    else console.error("The backup failed:", error instanceof Error ? errWithoutValues(error).message : error);
    process.exit(1);
  });
}
