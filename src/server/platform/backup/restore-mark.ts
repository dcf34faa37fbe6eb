import type pg from "pg";

/**
 * "Restore in progress", written into the database before a restore changes anything and removed
 * only once all of it committed (docs/backups.md). It lives in a schema of its own, so neither the
 * restore's drop of the shop's schema nor a backup (the shop's schema only) touches it. A shop
 * refuses to start on a marked database: a restore that failed half-way leaves a migrated, empty
 * or partial database, which would otherwise be seeded and opened as a new shop, its invoice
 * numbers starting again at 1.
 */
const MARK = "shop_restore.in_progress";

export interface RestoreMark {
  file: string;
  startedAt: Date;
}

/** A shop or command met a database whose restore did not finish. */
export class RestoreInProgressError extends Error {
  override name = "RestoreInProgressError";
  constructor(mark: RestoreMark) {
    super(
      `A restore of ${mark.file} into this database began at ${mark.startedAt.toISOString()} and did not finish: ` +
        "the shop will not open on what it left. Run the restore again (`npm run restore -- <file>` in a clone, " +
        "`node dist/server/cli/restore.js <file>` in a release), with --force if the database holds data; " +
        "the mark is removed once a restore has committed everything.",
    );
  }
}

export async function restoreMark(client: pg.ClientBase): Promise<RestoreMark | null> {
  const { rows: exists } = await client.query<{ found: string | null }>("select to_regclass($1)::text as found", [
    MARK,
  ]);
  if (!exists[0]?.found) return null;
  const { rows } = await client.query<{ file: string; started_at: Date }>(
    `select file, started_at from ${MARK} order by started_at desc limit 1`,
  );
  const row = rows[0];
  return row ? { file: row.file, startedAt: row.started_at } : null;
}

/** Refuses to go on when a restore of this database did not finish. */
export async function refuseUnfinishedRestore(client: pg.ClientBase): Promise<void> {
  const mark = await restoreMark(client);
  if (mark) throw new RestoreInProgressError(mark);
}

/** Marks the database before the restore changes anything; committed at once (outside its transaction). */
export async function markRestoreStarted(client: pg.ClientBase, file: string): Promise<void> {
  await client.query(
    `create schema if not exists shop_restore;
     create table if not exists ${MARK} (file text not null, started_at timestamptz not null default now())`,
  );
  await client.query(`delete from ${MARK}`);
  await client.query(`insert into ${MARK} (file) values ($1)`, [file]);
}

/** Removes the mark, once every row, sequence and later migration has committed. */
export async function clearRestoreMark(client: pg.ClientBase): Promise<void> {
  await client.query("drop schema if exists shop_restore cascade");
}
