import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { inject } from "vitest";
import { connectForCopy, quoteIdent, tablesInLoadOrder } from "#server/platform/backup/session.js";
import { withDatabase } from "../setup/global-db.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
const run = promisify(execFile);

/** `npm run backup` / `npm run restore` as the owner runs them, with only DATA_DIR (and what is given) set. */
export function backupCommand(name: "backup" | "restore", args: string[], env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !["DATABASE_URL", "BACKUP_DIR", "DATA_DIR"].includes(key)),
  );
  return run(TSX, [path.join(ROOT, "src/server/cli", `${name}.ts`), ...args], {
    cwd: ROOT,
    env: { ...clean, LOG_LEVEL: "silent", ...env },
    timeout: 90_000,
  });
}

/** An empty database (no migrations, no seed) on the test server, dropped with the run's others. */
export async function createEmptyDatabase(adminUrl = inject("pgAdminUrl")): Promise<string> {
  const name = `shop_test_${process.env.SHOP_TEST_RUN_ID ?? "x"}_${randomBytes(5).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, name);
}

/** Every table of the shop's schema as its row count and a digest of its sorted rows, and every sequence's position. */
export async function contentsOf(databaseUrl: string) {
  const client = await connectForCopy(databaseUrl, "test-compare");
  try {
    const tables: Record<string, { rows: number; digest: string }> = {};
    for (const name of await tablesInLoadOrder(client)) {
      const { rows } = await client.query<{ rows: number; digest: string }>(
        `select count(*)::int as rows, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as digest
         from public.${quoteIdent(name)} t`,
      );
      tables[name] = rows[0] as { rows: number; digest: string };
    }
    const { rows: sequences } = await client.query<{ name: string; last_value: string | null }>(
      "select sequencename as name, last_value::text from pg_sequences where schemaname = 'public' order by 1",
    );
    const { rows: version } = await client.query<{ v: number }>(
      "select current_setting('server_version_num')::int as v",
    );
    return { tables, sequences, serverVersion: version[0]?.v ?? 0 };
  } finally {
    await client.end();
  }
}
