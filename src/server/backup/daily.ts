import fs from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { errWithoutValues } from "../log-errors.js";
import { BACKUP_SUFFIX, type BackupResult, createBackup } from "./create.js";

/** The pg-boss queue of the daily backup (jobs/engine.ts). */
export const BACKUP_JOB = "backup";

export interface BackupRun {
  startedAt: Date;
  finishedAt: Date;
  trigger: "daily" | "command";
  file: string | null;
  bytes: number | null;
  rows: number | null;
  error: string | null;
}

type Queryable = Pick<pg.Pool, "query"> | Pick<pg.ClientBase, "query">;

/** Writes a backup's outcome to backup_runs: what the dashboard, the metrics and the alerts read. */
export async function recordBackupRun(db: Queryable, run: BackupRun): Promise<void> {
  await db.query(
    `insert into backup_runs (started_at, finished_at, trigger, file, bytes, rows, error)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [run.startedAt, run.finishedAt, run.trigger, run.file, run.bytes, run.rows, run.error],
  );
}

/** The latest backup (and the latest one that succeeded), for the dashboard, metrics and alerts. */
export async function latestBackups(db: Queryable): Promise<{ last: BackupRun | null; lastGood: BackupRun | null }> {
  const select = `select started_at as "startedAt", finished_at as "finishedAt", trigger, file,
      bytes::float8 as bytes, rows::float8 as rows, error from backup_runs`;
  // One after the other: `db` may be a single client, which answers one query at a time.
  const last = await db.query<BackupRun>(`${select} order by finished_at desc, id desc limit 1`);
  const good = await db.query<BackupRun>(`${select} where error is null order by finished_at desc, id desc limit 1`);
  return { last: last.rows[0] ?? null, lastGood: good.rows[0] ?? null };
}

/** Why a backup failed, in words fit for the admin and an e-mail (never a query's values). */
export function backupError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const plain = errWithoutValues(error) as { message?: unknown };
  return String(plain.message ?? error.message).slice(0, 500);
}

/** Backs up and records the outcome, whatever it is; answers the result or throws the failure. */
export async function backupAndRecord(
  db: Queryable,
  options: { databaseUrl: string; dir: string; trigger: BackupRun["trigger"] },
): Promise<BackupResult> {
  const startedAt = new Date();
  try {
    const result = await createBackup(options);
    await recordBackupRun(db, {
      startedAt: result.startedAt,
      finishedAt: result.finishedAt,
      trigger: options.trigger,
      file: result.file,
      bytes: result.bytes,
      rows: result.rows,
      error: null,
    });
    return result;
  } catch (error) {
    await recordBackupRun(db, {
      startedAt,
      finishedAt: new Date(),
      trigger: options.trigger,
      file: null,
      bytes: null,
      rows: null,
      error: backupError(error),
    }).catch(() => {});
    throw error;
  }
}

export interface DailyBackupOptions {
  pool: Pick<pg.Pool, "query">;
  databaseUrl: string;
  dir: string;
  everyHours: number;
  keepDays: number;
  now?: Date;
}

/**
 * The backup job's run (checked every quarter hour): a backup when the last good one is older than
 * BACKUP_EVERY_HOURS and no attempt failed in the last hour, then the files older than
 * BACKUP_KEEP_DAYS removed (never the newest). Answers the new backup, or null when none was due.
 */
export async function runScheduledBackup(options: DailyBackupOptions): Promise<BackupResult | null> {
  const now = options.now ?? new Date();
  const { last, lastGood } = await latestBackups(options.pool);
  const due = !lastGood || now.getTime() - lastGood.finishedAt.getTime() >= options.everyHours * 3_600_000;
  const failedRecently = last?.error != null && now.getTime() - last.finishedAt.getTime() < 3_600_000;
  if (!due || failedRecently) return null;
  const result = await backupAndRecord(options.pool, {
    databaseUrl: options.databaseUrl,
    dir: options.dir,
    trigger: "daily",
  });
  await pruneBackups(options.dir, options.keepDays, now);
  return result;
}

/** Deletes the shop's backup files older than `keepDays` days (the newest is always kept) and stale partial ones. */
export async function pruneBackups(dir: string, keepDays: number, now = new Date()): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const files = [];
  for (const name of names) {
    if (!name.startsWith("shop-")) continue;
    const partial = name.endsWith(`${BACKUP_SUFFIX}.partial`);
    if (!partial && !name.endsWith(BACKUP_SUFFIX)) continue;
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat) files.push({ name, partial, modified: stat.mtime.getTime() });
  }
  const newest = files.filter((file) => !file.partial).sort((a, b) => b.modified - a.modified)[0]?.name;
  const removed: string[] = [];
  for (const file of files) {
    const age = now.getTime() - file.modified;
    const old = file.partial ? age > 86_400_000 : age > keepDays * 86_400_000;
    if (!old || file.name === newest) continue;
    await fs.rm(path.join(dir, file.name), { force: true });
    removed.push(file.name);
  }
  return removed;
}
