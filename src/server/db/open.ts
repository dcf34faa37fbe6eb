import type pg from "pg";
import type { Config } from "../config.js";
import { createDatabase, type Database } from "./client.js";
import { startEmbeddedPostgres } from "./embedded.js";
import { prepareDatabase } from "./setup.js";

export const SHOP_DATABASE = "shop";

export interface OpenDatabaseOptions {
  log?: (line: string) => void;
  /** Seed the catalogue into an empty database (the shop does; a one-off command need not). */
  seed?: boolean;
  /**
   * Whether close() also stops an embedded PostgreSQL that was already running when we opened it.
   * The shop adopts one left behind by a crash; a one-off command must not stop the shop's database.
   */
  adoptRunningServer?: boolean;
}

export interface OpenDatabase {
  databaseUrl: string;
  db: Database;
  pool: pg.Pool;
  /** Ends the pool, and stops the embedded PostgreSQL when this process owns it. */
  close: () => Promise<void>;
}

/**
 * The shop's database: DATABASE_URL when set, otherwise the embedded PostgreSQL in the data
 * directory (started, or reused when already running). Migrated before it is handed out.
 */
export async function openDatabase(config: Config, options: OpenDatabaseOptions = {}): Promise<OpenDatabase> {
  const log = options.log ?? (() => {});
  let stopEmbedded: (() => Promise<void>) | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      preferredPort: config.embeddedPgPort,
      log,
    });
    if (!embedded.reused || options.adoptRunningServer) stopEmbedded = embedded.stop;
    try {
      await ensureDatabase(embedded.url("postgres"), SHOP_DATABASE);
    } catch (error) {
      if (stopEmbedded) await stopEmbedded();
      throw error;
    }
    databaseUrl = embedded.url(SHOP_DATABASE);
  }

  try {
    const { seeded } = await prepareDatabase(databaseUrl, { seed: options.seed ?? false });
    if (seeded) log("Seeded the catalogue");
  } catch (error) {
    if (stopEmbedded) await stopEmbedded();
    throw error;
  }

  const { db, pool } = createDatabase(databaseUrl, config.dbPoolSize);
  return {
    databaseUrl,
    db,
    pool,
    close: async () => {
      await pool.end();
      if (stopEmbedded) await stopEmbedded();
    },
  };
}

/** Creates the shop's database on the embedded server the first time. */
export async function ensureDatabase(adminUrl: string, name: string) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}
