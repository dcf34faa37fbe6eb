import fs from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import type { S3Settings } from "../config.js";
import { errWithoutValues } from "../log-errors.js";
import { BACKUP_SUFFIX, type BackupResult, createBackup } from "./create.js";
import { type CopyOptions, copyBackupOffsite, offsiteKey, pruneOffsiteBackups } from "./offsite.js";

/** The pg-boss queue of the scheduled backup (platform/jobs/engine.ts). */
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

/** Writes a backup's outcome to backup_runs: what the dashboard, the metrics and the alerts read. Answers its id. */
export async function recordBackupRun(db: Queryable, run: BackupRun): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into backup_runs (started_at, finished_at, trigger, file, bytes, rows, error)
     values ($1, $2, $3, $4, $5, $6, $7) returning id::float8 as id`,
    [run.startedAt, run.finishedAt, run.trigger, run.file, run.bytes, run.rows, run.error],
  );
  return rows[0]?.id as number;
}

/** The off-site copy's outcome (BACKUP_S3_URL): the key, when it ended, and why it failed (null when it did not). */
export interface BackupCopy {
  key: string;
  finishedAt: Date;
  error: string | null;
}

async function recordCopy(db: Queryable, runId: number, copy: BackupCopy): Promise<void> {
  await db.query("update backup_runs set copy_key = $2, copy_finished_at = $3, copy_error = $4 where id = $1", [
    runId,
    copy.key,
    copy.finishedAt,
    copy.error,
  ]);
}

/** The latest copy tried, when the latest good one ended, and how many have failed: the dashboard, metrics and alerts. */
export async function latestCopies(
  db: Queryable,
): Promise<{ last: BackupCopy | null; lastGoodAt: Date | null; failures: number }> {
  // One after the other: `db` may be a single client, which answers one query at a time.
  const last = await db.query<BackupCopy>(
    `select copy_key as key, copy_finished_at as "finishedAt", copy_error as error from backup_runs
     where copy_finished_at is not null order by copy_finished_at desc, id desc limit 1`,
  );
  const totals = await db.query<{ lastGoodAt: Date | null; failures: number }>(
    `select max(copy_finished_at) filter (where copy_error is null) as "lastGoodAt",
            (count(*) filter (where copy_error is not null))::int as failures
     from backup_runs where copy_finished_at is not null`,
  );
  return { last: last.rows[0] ?? null, ...(totals.rows[0] ?? { lastGoodAt: null, failures: 0 }) };
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

export interface BackupOptions {
  databaseUrl: string;
  dir: string;
  trigger: BackupRun["trigger"];
  /** BACKUP_S3_URL: the new file is copied there too, and the copy's outcome recorded beside it. */
  offsite?: S3Settings | undefined;
  /** The copy's tries (tests shorten the wait between them). */
  copyOptions?: CopyOptions | undefined;
}

/**
 * Backs up and records the outcome, whatever it is; answers the result or throws the failure.
 * With a bucket, the new file is then copied off the machine: a failed copy is recorded (and
 * answered in `copy`), never thrown, since the backup itself is good.
 */
export async function backupAndRecord(
  db: Queryable,
  options: BackupOptions,
): Promise<BackupResult & { copy: BackupCopy | null }> {
  const startedAt = new Date();
  let result: BackupResult;
  try {
    result = await createBackup(options);
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
  const runId = await recordBackupRun(db, {
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    trigger: options.trigger,
    file: result.file,
    bytes: result.bytes,
    rows: result.rows,
    error: null,
  });
  if (!options.offsite) return { ...result, copy: null };
  const file = result.file;
  const copy = await copyBackupOffsite(options.offsite, file, options.copyOptions).then(
    ({ key }): BackupCopy => ({ key, finishedAt: new Date(), error: null }),
    (error: unknown): BackupCopy => ({ key: offsiteKey(file), finishedAt: new Date(), error: backupError(error) }),
  );
  await recordCopy(db, runId, copy);
  return { ...result, copy };
}

export interface ScheduledBackupOptions {
  pool: Pick<pg.Pool, "query">;
  databaseUrl: string;
  dir: string;
  everyHours: number;
  /** BACKUP_MINUTE: the minute past the hour each backup is made at. */
  minute: number;
  keepDays: number;
  s3?: S3Settings | undefined;
  copyOptions?: CopyOptions | undefined;
  now?: Date;
  /** Where a failed pruning of the bucket is told (the backup and its copy stand). */
  warn?: (detail: object, message: string) => void;
}

/**
 * The latest time a backup was due at, at or before `now`: every `everyHours` hours counted
 * from the Unix epoch (so from midnight UTC when it divides 24), at `minute` past the hour.
 * The times are fixed: they never drift with how long each backup took.
 */
export function latestBackupSlot(now: Date, everyHours: number, minute: number): Date {
  const period = everyHours * 3_600_000;
  const offset = minute * 60_000;
  return new Date(Math.floor((now.getTime() - offset) / period) * period + offset);
}

/**
 * Whether a backup is due now: none has finished since the latest slot (one that "finished in
 * the future", by a clock set wrong, proves nothing). A failed attempt is tried again at the
 * next slot or an hour later, whichever comes first.
 */
export function backupDue(
  now: Date,
  { last, lastGood }: { last: BackupRun | null; lastGood: BackupRun | null },
  schedule: { everyHours: number; minute: number },
): boolean {
  const slot = latestBackupSlot(now, schedule.everyHours, schedule.minute).getTime();
  const believable = (run: BackupRun) => run.finishedAt.getTime() <= now.getTime() + 60_000;
  if (lastGood && believable(lastGood) && lastGood.finishedAt.getTime() >= slot) return false;
  const failedThisSlot =
    last?.error != null &&
    believable(last) &&
    last.finishedAt.getTime() >= slot &&
    now.getTime() - last.finishedAt.getTime() < 3_600_000;
  return !failedThisSlot;
}

/**
 * The backup job's run (checked every minute; one instance at a time, under the job's lock): a
 * backup when one is due (backupDue), copied to the bucket with BACKUP_S3_URL, then the files and
 * copies older than BACKUP_KEEP_DAYS removed (never the newest). Answers the new backup, or null.
 */
export async function runScheduledBackup(options: ScheduledBackupOptions) {
  const now = options.now ?? new Date();
  if (!backupDue(now, await latestBackups(options.pool), options)) return null;
  const result = await backupAndRecord(options.pool, {
    databaseUrl: options.databaseUrl,
    dir: options.dir,
    trigger: "daily",
    offsite: options.s3,
    copyOptions: options.copyOptions,
  });
  await pruneBackups(options.dir, options.keepDays, now);
  if (options.s3) {
    await pruneOffsiteBackups(options.s3, options.keepDays, now).catch((error: unknown) =>
      options.warn?.({ reason: backupError(error) }, "could not delete old backup copies from the bucket"),
    );
  }
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
