import path from "node:path";
import type pg from "pg";
import type { Config } from "../config.js";
import { createDatabase, type Database } from "./client.js";
import { describeHolder, lockDataDir } from "./data-dir-lock.js";
import { requireCluster, startEmbeddedPostgres } from "./embedded.js";
import { type EmbeddedState, watchEmbeddedPostgres } from "./embedded-watch.js";
import { prepareDatabase, type Seeder } from "./setup.js";

export const SHOP_DATABASE = "shop";

export interface OpenDatabaseOptions {
  log?: (line: string) => void;
  /** Seed the catalogue into an empty database (the shop does; a one-off command need not). */
  seed?: Seeder | undefined;
  /**
   * The shop: it owns DATA_DIR's embedded PostgreSQL (adopting one a crash left running) and
   * refuses to start while another process owns it. Otherwise a one-off command: beside a running
   * shop it connects to the shop's database and never stops it (src/server/platform/db/data-dir-lock.ts).
   */
  shop?: boolean;
  /**
   * The shop, owning the embedded PostgreSQL: called when the server died and could not be started
   * again within 30 s (src/server/platform/db/embedded-watch.ts); main.ts exits for the supervisor to act.
   */
  onEmbeddedLost?: (reason: string) => void;
  /**
   * Create the embedded cluster when DATA_DIR has none. The shop does (its first start); a one-off
   * command refuses instead (platform/db/embedded.ts, NoClusterError). Default: only the shop.
   */
  createCluster?: boolean;
}

export interface OpenDatabase {
  databaseUrl: string;
  db: Database;
  pool: pg.Pool;
  /** The embedded PostgreSQL this process owns and watches; "up" for any other database. */
  embeddedState: () => EmbeddedState;
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
  let embeddedState = (): EmbeddedState => "up";
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const createCluster = options.createCluster ?? options.shop ?? false;
    if (!createCluster) await requireCluster(config.dataDir);
    const lock = await lockDataDir(config.dataDir, { shop: options.shop ?? false, log });
    if (lock.role === "guest")
      log(`Connecting to the database of the shop running beside: ${describeHolder(lock.holder)}`);
    try {
      const embedded = await startEmbeddedPostgres({
        dataDir: config.dataDir,
        preferredPort: config.embeddedPgPort,
        log,
        reuseOnly: lock.role === "guest",
        createCluster,
      });
      // The owner stops it, a server a crash left running included; then the lock goes. The shop
      // also watches it, and starts it again when it dies (not a one-off command: it just fails).
      if (lock.role === "owner") {
        const onLost = options.onEmbeddedLost;
        const watch = onLost ? watchEmbeddedPostgres(embedded, { log, onLost }) : null;
        if (watch) embeddedState = watch.state;
        stopEmbedded = async () => {
          try {
            await watch?.stop();
            await embedded.stop();
          } finally {
            await lock.release();
          }
        };
      }
      databaseUrl = embedded.url(SHOP_DATABASE);
      log(`Database: ${describeDatabase(databaseUrl, config.dataDir)}`);
      await ensureDatabase(embedded.url("postgres"), SHOP_DATABASE);
    } catch (error) {
      if (stopEmbedded) await stopEmbedded();
      else if (lock.role === "owner") await lock.release();
      throw error;
    }
  } else log(`Database: ${describeDatabase(databaseUrl)}`);
  try {
    const { seeded } = await prepareDatabase(databaseUrl, { seed: options.seed });
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
    embeddedState: () => embeddedState(),
    close: async () => {
      await pool.end();
      if (stopEmbedded) await stopEmbedded();
    },
  };
}

/**
 * What a command acts on, for its first line: the embedded PostgreSQL's data directory, or the
 * external server's host and database; the port either way. Never the user or the password.
 */
export function describeDatabase(databaseUrl: string, embeddedDataDir?: string): string {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return "a database whose URL cannot be read";
  }
  const name = decodeURIComponent(url.pathname.replace(/^\//, "")) || "(the user's default)";
  const port = url.port || "5432";
  if (embeddedDataDir !== undefined) {
    return `the embedded PostgreSQL in DATA_DIR=${path.resolve(embeddedDataDir)}, database ${name}, port ${port}`;
  }
  return `PostgreSQL at ${url.hostname || "localhost"}, database ${name}, port ${port} (DATABASE_URL)`;
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
