import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { to as copyTo } from "pg-copy-streams";
import { BackupFolderError, backupFolderProblem } from "./folder.js";
import { type BackupHeader, type BackupManifest, FORMAT_VERSION, MAGIC, put } from "./format.js";
import { readJournal } from "./journal.js";
import { columnsOf, connectForCopy, migrationLevel, quoteIdent, SHOP_SCHEMA, tablesInLoadOrder } from "./session.js";

export interface BackupResult {
  file: string;
  bytes: number;
  rows: number;
  tables: number;
  startedAt: Date;
  finishedAt: Date;
}

/** shop-2026-11-26T10-07-27-123Z.backup.gz: sorts by time, safe in every file system. */
export const BACKUP_SUFFIX = ".backup.gz";
export const backupFileName = (at: Date) =>
  `shop-${at.toISOString().replaceAll(":", "-").replace(".", "-")}${BACKUP_SUFFIX}`;

/**
 * Writes a consistent snapshot of the shop's data to one compressed file in `dir`: every table of
 * the shop's schema as COPY text, read in one REPEATABLE READ transaction (what every row says is
 * as of one instant, however long the copy takes, and the shop keeps serving meanwhile), with the
 * migration level, the sequences and a manifest of row counts and checksums. The file appears
 * under its final name only once complete and flushed to disk.
 */
export async function createBackup({ databaseUrl, dir }: { databaseUrl: string; dir: string }): Promise<BackupResult> {
  const startedAt = new Date();
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // Checked at every backup, not only at start: a folder can be loosened while the shop runs.
  const problem = backupFolderProblem(dir);
  if (problem) throw new BackupFolderError(problem);
  const file = path.join(dir, backupFileName(startedAt));
  const partial = `${file}.partial`;
  const client = await connectForCopy(databaseUrl, "shop-backup");
  let rows = 0;
  let tableCount = 0;
  try {
    await client.query("begin isolation level repeatable read, read only");
    const tables = await tablesInLoadOrder(client);
    // As pg_dump does: no migration may change a table while it is being read.
    if (tables.length > 0) {
      await client.query(
        `lock table ${tables.map((name) => `${quoteIdent(SHOP_SCHEMA)}.${quoteIdent(name)}`).join(", ")} in access share mode`,
      );
    }
    const level = await migrationLevel(client);
    const journal = await readJournal();
    const header: BackupHeader = {
      format: FORMAT_VERSION,
      createdAt: startedAt.toISOString(),
      sourceServer: (await client.query<{ version: string }>("select version()")).rows[0]?.version ?? "",
      migrations: {
        ...level,
        lastTag: journal.find((entry) => entry.when === level.lastCreatedAt)?.tag ?? null,
      },
      tables: [],
    };
    for (const name of tables) header.tables.push({ name, columns: await columnsOf(client, name) });

    const gzip = createGzip({ level: 6 });
    const written = pipeline(gzip, createWriteStream(partial, { flags: "wx", mode: 0o600 }));
    const manifest: BackupManifest = { tables: [], sequences: [] };
    try {
      await put(gzip, `${MAGIC} ${FORMAT_VERSION}\n${JSON.stringify(header)}\n`);
      for (const table of header.tables) {
        await put(gzip, `TABLE ${table.name}\n`);
        const hash = createHash("sha256");
        let bytes = 0;
        const columns = table.columns.map(quoteIdent).join(", ");
        const stream = client.query(
          copyTo(`copy ${quoteIdent(SHOP_SCHEMA)}.${quoteIdent(table.name)} (${columns}) to stdout`),
        );
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          hash.update(chunk);
          bytes += chunk.length;
          await put(gzip, `${chunk.length}\n`);
          await put(gzip, chunk);
        }
        await put(gzip, "0\n");
        const count = Number(stream.rowCount ?? 0);
        manifest.tables.push({ name: table.name, rows: count, bytes, sha256: hash.digest("hex") });
        rows += count;
        tableCount++;
      }
      const { rows: sequences } = await client.query<{ name: string; last_value: string | null; is_called: boolean }>(
        `select c.relname as name, s.last_value::text as last_value, s.last_value is not null as is_called
         from pg_sequences s join pg_class c on c.relname = s.sequencename
         join pg_namespace n on n.oid = c.relnamespace and n.nspname = s.schemaname
         where s.schemaname = $1 order by c.relname`,
        [SHOP_SCHEMA],
      );
      manifest.sequences = sequences.map((row) => ({
        name: row.name,
        lastValue: row.last_value,
        isCalled: row.is_called,
      }));
      await put(gzip, `MANIFEST\n${JSON.stringify(manifest)}\n`);
      gzip.end();
      await written;
    } catch (error) {
      gzip.destroy();
      await written.catch(() => {});
      throw error;
    }
    await client.query("commit");
    const handle = await fs.open(partial, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(partial, file);
  } catch (error) {
    await client.query("rollback").catch(() => {});
    await fs.rm(partial, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
  const { size } = await fs.stat(file);
  return { file, bytes: size, rows, tables: tableCount, startedAt, finishedAt: new Date() };
}
