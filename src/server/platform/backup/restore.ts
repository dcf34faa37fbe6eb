import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { from as copyFrom } from "pg-copy-streams";
import { migrationsFolder } from "../db/migrate.js";
import { prepareDatabase } from "../db/setup.js";
import { createBackup } from "./create.js";
import {
  BackupFormatError,
  type BackupHeader,
  type BackupManifest,
  BackupReader,
  FORMAT_VERSION,
  MAGIC,
} from "./format.js";
import { type JournalEntry, readJournal } from "./journal.js";
import { clearRestoreMark, markRestoreStarted, restoreMark } from "./restore-mark.js";
import { columnsOf, connectForCopy, migrationLevel, quoteIdent, SHOP_SCHEMA, tablesInLoadOrder } from "./session.js";

/** A restore that would overwrite data, or cannot go into this database: said as is, nothing changed. */
export class RestoreRefusedError extends Error {
  override name = "RestoreRefusedError";
}

export interface RestoreResult {
  tables: number;
  rows: number;
  /** The backup's migration level and how many later migrations were applied after loading it. */
  backupMigrations: number;
  laterMigrations: number;
  targetServer: string;
  /** With --force over data: the backup of what the restore replaced. */
  replacedBackup: string | null;
}

/** One chunk length line at most this long: a damaged file fails fast instead of reading on. */
const MAX_CHUNK = 64 * 1024 * 1024;

/**
 * Restores a backup into a database that holds none of the shop's data (`force`: whose data may be
 * dropped), on any PostgreSQL version the shop runs on: the migrations are run up to the backup's
 * level, every table is loaded with COPY in one transaction (parents first, the shop's own
 * triggers off so the counters' change log is not written twice), each table's checksum and row
 * count checked against the manifest, the sequences set, and then the migrations the backup
 * predates are applied. A damaged file rolls back every row it loaded.
 *
 * Before it changes anything the database is marked "restore in progress" (restore-mark.ts), and
 * the mark goes only once everything committed: a shop refuses to start on a marked database. Over
 * data (`force`), a backup of what is replaced is written into `replacedBackupDir` first.
 */
export async function restoreBackup({
  file,
  databaseUrl,
  force = false,
  replacedBackupDir,
  log = () => {},
}: {
  file: string;
  databaseUrl: string;
  force?: boolean;
  /** Where the backup of the data `force` replaces is written (the shop's BACKUP_DIR). */
  replacedBackupDir?: string;
  log?: (line: string) => void;
}): Promise<RestoreResult> {
  const { reader, header } = await openBackup(file);
  const journal = await readJournal();
  const level = header.migrations.count;
  refuseNewerBackup(header, journal);

  const client = await connectForCopy(databaseUrl, "shop-restore");
  try {
    const targetServer = (await client.query<{ version: string }>("select version()")).rows[0]?.version ?? "";
    const { holdsData, replacedBackup } = await backUpWhatIsReplaced(client, {
      databaseUrl,
      force,
      replacedBackupDir,
      log,
    });
    await markRestoreStarted(client, file);
    await makeRoom(client, level, holdsData, log);
    await migrateTo(databaseUrl, journal.slice(0, level));
    await checkTablesMatch(client, header);
    const rows = await loadTables(client, reader, header);
    await client.query("analyze");
    const before = (await migrationLevel(client)).count;
    await prepareDatabase(databaseUrl, { restoring: true });
    const after = (await migrationLevel(client)).count;
    await clearRestoreMark(client);
    log(`Restored ${rows} rows in ${header.tables.length} tables from a backup of ${header.createdAt}.`);
    return {
      tables: header.tables.length,
      rows,
      backupMigrations: level,
      laterMigrations: after - before,
      targetServer,
      replacedBackup,
    };
  } finally {
    await client.end().catch(() => {});
  }
}

type CopyClient = Awaited<ReturnType<typeof connectForCopy>>;
type BackupTable = BackupHeader["tables"][number];

/** A table's name inside the shop's schema, quoted. */
const qualified = (name: string) => `${quoteIdent(SHOP_SCHEMA)}.${quoteIdent(name)}`;

/** The backup's reader past its header, or a refusal naming why the file is not one this shop reads. */
async function openBackup(file: string): Promise<{ reader: BackupReader; header: BackupHeader }> {
  await fs.access(file).catch(() => {
    throw new RestoreRefusedError(`No backup file at ${file}.`);
  });
  const reader = new BackupReader(createReadStream(file).pipe(createGunzip()));
  try {
    const version = Number(await reader.expect(`${MAGIC} `));
    if (version !== FORMAT_VERSION) {
      throw new RestoreRefusedError(
        `${file} is a backup of format ${version}; this shop reads format ${FORMAT_VERSION}.`,
      );
    }
    return { reader, header: await reader.json<BackupHeader>("header") };
  } catch (error) {
    if (error instanceof RestoreRefusedError || error instanceof BackupFormatError) throw error;
    throw new RestoreRefusedError(`${file} is not a shop backup (${(error as Error).message}).`);
  }
}

/** A backup whose migration level this shop's journal does not know was made by a newer version. */
function refuseNewerBackup(header: BackupHeader, journal: readonly JournalEntry[]): void {
  const level = header.migrations.count;
  const known = journal[level - 1];
  if (level > journal.length || (level > 0 && known?.when !== header.migrations.lastCreatedAt)) {
    throw new RestoreRefusedError(
      `This backup was made by a newer version of the shop (migration ${header.migrations.lastTag ?? level}); restore it with that version or a later one.`,
    );
  }
}

/**
 * Data in the database is replaced only with `force`, and only after a backup of it is written
 * (`replacedBackup`); `holdsData`: there is something to drop, that data or an unfinished restore's.
 */
async function backUpWhatIsReplaced(
  client: CopyClient,
  {
    databaseUrl,
    force,
    replacedBackupDir,
    log,
  }: { databaseUrl: string; force: boolean; replacedBackupDir?: string; log: (line: string) => void },
): Promise<{ holdsData: boolean; replacedBackup: string | null }> {
  // What a restore that did not finish left is no shop's data: it is replaced without --force.
  const unfinished = await restoreMark(client);
  if (unfinished) log(`Replacing what the unfinished restore of ${unfinished.file} left`);
  const withRows = unfinished ? [] : await tablesWithRows(client);
  if (withRows.length > 0 && !force) {
    throw new RestoreRefusedError(
      `The database already holds data (${withRows.join(", ")}); nothing was changed. Restore into an empty database, or add --force to drop its data first (a backup of it is written first).`,
    );
  }
  let replacedBackup: string | null = null;
  if (withRows.length > 0) {
    if (!replacedBackupDir) {
      throw new RestoreRefusedError(
        "No folder to keep a backup of the data --force would replace; nothing was changed.",
      );
    }
    replacedBackup = (await createBackup({ databaseUrl, dir: replacedBackupDir })).file;
    log(`Wrote a backup of the data this restore replaces: ${replacedBackup}`);
  }
  return { holdsData: withRows.length > 0 || unfinished !== null, replacedBackup };
}

/** After the migrations, the database's tables and columns must be the backup's, or nothing is loaded. */
async function checkTablesMatch(client: CopyClient, header: BackupHeader): Promise<void> {
  const tables = await tablesInLoadOrder(client);
  const expected = header.tables.map((table) => table.name);
  if (tables.join() !== expected.join()) {
    throw new RestoreRefusedError(
      `The database's tables after the migrations (${tables.join(", ")}) are not the backup's (${expected.join(", ")}).`,
    );
  }
  for (const table of header.tables) {
    const columns = await columnsOf(client, table.name);
    if (columns.join() !== table.columns.join()) {
      throw new RestoreRefusedError(`The columns of ${table.name} differ from the backup's; nothing was restored.`);
    }
  }
}

/**
 * Loads every table in one transaction (the shop's own triggers off, so the counters' change log is
 * not written twice), checks it against the manifest and sets the sequences; returns the rows
 * loaded. Anything wrong rolls back every row.
 */
async function loadTables(client: CopyClient, reader: BackupReader, header: BackupHeader): Promise<number> {
  let rows = 0;
  await client.query("begin");
  try {
    for (const table of header.tables) await client.query(`alter table ${qualified(table.name)} disable trigger user`);
    // Rows the migrations themselves wrote (reference data such as the VAT rates) are in the
    // backup as well: the backup's copy replaces them.
    await client.query(`truncate ${header.tables.map((table) => qualified(table.name)).join(", ")}`);
    const loaded = new Map<string, LoadedTable>();
    for (const table of header.tables) {
      const got = await copyTable(client, reader, table);
      loaded.set(table.name, got);
      rows += got.rows;
    }
    const manifest = await readManifest(reader, header, loaded);
    for (const sequence of manifest.sequences) {
      if (sequence.lastValue === null) continue;
      await client.query("select setval($1::regclass, $2::bigint, $3)", [
        qualified(sequence.name),
        sequence.lastValue,
        sequence.isCalled,
      ]);
    }
    for (const table of header.tables) await client.query(`alter table ${qualified(table.name)} enable trigger user`);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  }
  return rows;
}

interface LoadedTable {
  rows: number;
  bytes: number;
  sha256: string;
}

/** COPYs one table's chunks from the backup into the database, counting and hashing them as they pass. */
async function copyTable(client: CopyClient, reader: BackupReader, table: BackupTable): Promise<LoadedTable> {
  const name = await reader.expect("TABLE ");
  if (name !== table.name)
    throw new BackupFormatError(`The backup file is damaged: found ${name} where ${table.name} belongs.`);
  const hash = createHash("sha256");
  let bytes = 0;
  async function* chunks(): AsyncGenerator<Buffer> {
    for (;;) {
      const length = Number(await reader.line(32));
      if (!Number.isInteger(length) || length < 0 || length > MAX_CHUNK) {
        throw new BackupFormatError("The backup file is damaged: a chunk length is not readable.");
      }
      if (length === 0) return;
      for await (const piece of reader.bytes(length)) {
        hash.update(piece);
        bytes += piece.length;
        yield piece;
      }
    }
  }
  const columns = table.columns.map(quoteIdent).join(", ");
  const ingest = client.query(copyFrom(`copy ${qualified(table.name)} (${columns}) from stdin`));
  await pipeline(Readable.from(chunks()), ingest);
  return { rows: Number(ingest.rowCount ?? 0), bytes, sha256: hash.digest("hex") };
}

/** The manifest closing the file, once every table's checksum, size and row count match it. */
async function readManifest(
  reader: BackupReader,
  header: BackupHeader,
  loaded: ReadonlyMap<string, LoadedTable>,
): Promise<BackupManifest> {
  await reader.expect("MANIFEST");
  const manifest = await reader.json<BackupManifest>("manifest");
  for (const entry of manifest.tables) {
    const got = loaded.get(entry.name);
    if (!got || got.sha256 !== entry.sha256 || got.bytes !== entry.bytes) {
      throw new BackupFormatError(`The backup file is damaged: ${entry.name}'s data does not match its checksum.`);
    }
    if (got.rows !== entry.rows) {
      throw new BackupFormatError(`${entry.name}: ${got.rows} rows loaded, the backup lists ${entry.rows}.`);
    }
  }
  if (manifest.tables.length !== header.tables.length) {
    throw new BackupFormatError("The backup file is damaged: its manifest does not list every table.");
  }
  return manifest;
}

/** The shop's tables that hold a row. */
async function tablesWithRows(client: CopyClient): Promise<string[]> {
  const withRows: string[] = [];
  for (const name of await tablesInLoadOrder(client)) {
    const { rows } = await client.query<{ any: boolean }>(
      `select exists (select 1 from ${quoteIdent(SHOP_SCHEMA)}.${quoteIdent(name)}) as any`,
    );
    if (rows[0]?.any) withRows.push(name);
  }
  return withRows;
}

/**
 * Leaves the database with none of the shop's tables holding rows, at or below the backup's
 * migration level: its data dropped (`holdsData`, with --force, after its backup), or an empty
 * schema a later version made (it holds nothing).
 */
async function makeRoom(
  client: CopyClient,
  level: number,
  holdsData: boolean,
  log: (line: string) => void,
): Promise<void> {
  const current = (await migrationLevel(client)).count;
  if (holdsData || current > level) {
    log(holdsData ? "Dropping the database's data" : "Dropping an empty schema of a later version");
    await client.query(
      `drop schema if exists drizzle cascade; drop schema if exists ${quoteIdent(SHOP_SCHEMA)} cascade; create schema ${quoteIdent(SHOP_SCHEMA)}`,
    );
  }
}

/** Runs the migrations up to `entries`' last one: a copy of the folder whose journal stops there. */
async function migrateTo(databaseUrl: string, entries: readonly JournalEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const source = migrationsFolder();
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "shop-restore-"));
  try {
    await fs.mkdir(path.join(folder, "meta"));
    const journal = JSON.parse(await fs.readFile(path.join(source, "meta", "_journal.json"), "utf8")) as {
      entries: JournalEntry[];
    };
    await fs.writeFile(path.join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
    for (const entry of entries)
      await fs.copyFile(path.join(source, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const db = drizzle(client);
      await client.query("select pg_advisory_lock(hashtext('shop:migrate'))");
      try {
        await migrate(db, { migrationsFolder: folder });
      } finally {
        await client.query("select pg_advisory_unlock(hashtext('shop:migrate'))");
      }
    } finally {
      await client.end();
    }
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}
