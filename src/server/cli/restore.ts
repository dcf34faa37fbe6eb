/**
 * npm run restore -- <file> [--force] [--database-url <url>]
 * npm run restore -- --from-s3 <key> [--force] [--database-url <url>]
 *
 * Restores a backup made by `npm run backup` (or the daily job) into an empty database: the one
 * at --database-url, DATABASE_URL, or the embedded PostgreSQL in DATA_DIR. Refuses a database
 * that holds data unless --force, and refuses the embedded one while a shop runs on it
 * (docs/backups.md).
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { BackupFormatError } from "../platform/backup/format.js";
import { downloadOffsiteBackup } from "../platform/backup/offsite.js";
import { RestoreRefusedError, restoreBackup } from "../platform/backup/restore.js";
import { shopDatabase } from "../platform/backup/target.js";
import { ConfigError, loadConfig } from "../platform/config.js";
import { errWithoutValues } from "../platform/log-errors.js";
import { S3Error } from "../platform/s3-bucket.js";
import { isEntryPoint } from "./entry-point.js";

const USAGE = `Usage: npm run restore -- <file> [--force] [--database-url <url>]
       npm run restore -- --from-s3 <key> [--force] [--database-url <url>]
  Restores a backup into an empty database (--database-url, else DATABASE_URL, else the embedded
  PostgreSQL in DATA_DIR). --force first writes a backup of the shop's data in that database
  into BACKUP_DIR, then drops it. --from-s3 first downloads the copy named <key> (or its file
  name) from the bucket in BACKUP_S3_URL.`;

async function main() {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: {
      force: { type: "boolean" },
      "database-url": { type: "string" },
      "from-s3": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: true,
  });
  const fromS3 = values["from-s3"];
  if (values.help || positionals.length !== (fromS3 === undefined ? 1 : 0)) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 1;
    return;
  }
  const config = loadConfig(
    values["database-url"] ? { ...process.env, DATABASE_URL: values["database-url"] } : process.env,
  );
  const log = (line: string) => console.error(`[restore] ${line}`);
  if (fromS3 === undefined) return restore(path.resolve(positionals[0] as string), config, values, log);
  if (!config.backup.s3)
    throw new ConfigError("--from-s3 needs BACKUP_S3_URL (or BACKUP_S3_URL_FILE): the bucket to fetch from.");
  // A folder only this user may open (mkdtemp makes it 0700): the file holds customers' data.
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "shop-restore-"));
  try {
    log(`downloading ${fromS3} from the bucket`);
    const file = await downloadOffsiteBackup(config.backup.s3, fromS3, folder);
    await restore(file, config, values, log);
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

async function restore(
  file: string,
  config: ReturnType<typeof loadConfig>,
  values: { force?: boolean | undefined },
  log: (line: string) => void,
) {
  const database = await shopDatabase(config, log, { createCluster: true });
  try {
    if (database.shared) {
      throw new RestoreRefusedError(
        "A shop is running on the embedded PostgreSQL in DATA_DIR: stop it before restoring into its database.",
      );
    }
    const result = await restoreBackup({
      file,
      databaseUrl: database.databaseUrl,
      force: values.force ?? false,
      replacedBackupDir: config.backup.dir,
      log,
    });
    console.log(
      `Restored ${result.rows} rows of ${result.tables} tables${result.laterMigrations > 0 ? `, then applied ${result.laterMigrations} later migrations` : ""}.`,
    );
  } finally {
    await database.close();
  }
}

if (isEntryPoint(import.meta.url)) {
  main().catch((error: unknown) => {
    if (
      error instanceof RestoreRefusedError ||
      error instanceof BackupFormatError ||
      error instanceof ConfigError ||
      error instanceof S3Error
    ) {
      console.error(error.message);
    } else {
      console.error("The restore failed:", error instanceof Error ? errWithoutValues(error).message : error);
    }
    process.exit(1);
  });
}
