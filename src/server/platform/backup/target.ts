import type { Config } from "../config.js";
import { describeHolder, lockDataDir } from "../db/data-dir-lock.js";
import { requireCluster, startEmbeddedPostgres } from "../db/embedded.js";
import { describeDatabase, ensureDatabase, SHOP_DATABASE } from "../db/open.js";

export interface ShopDatabase {
  databaseUrl: string;
  /** True when a running shop's embedded PostgreSQL was connected to (and is left running). */
  shared: boolean;
  /** Stops the embedded PostgreSQL when this command started it; never a running shop's. */
  close: () => Promise<void>;
}

/**
 * The database the backup and restore commands work on: DATABASE_URL when set, otherwise the
 * embedded PostgreSQL in DATA_DIR. Says which, with its port, before anything is done there. A running shop's embedded server is connected to and left
 * running; when no shop runs it is started for the command and stopped after it.
 */
export async function shopDatabase(
  config: Config,
  log: (line: string) => void,
  /** Only `restore` may create DATA_DIR's cluster; a backup of a folder that has none refuses (platform/db/embedded.ts). */
  { createCluster = false }: { createCluster?: boolean } = {},
): Promise<ShopDatabase> {
  if (config.databaseUrl) {
    log(`Database: ${describeDatabase(config.databaseUrl)}`);
    return { databaseUrl: config.databaseUrl, shared: false, close: async () => {} };
  }
  if (!createCluster) await requireCluster(config.dataDir);
  // DATA_DIR's lock (platform/db/data-dir-lock.ts): beside a running shop this is its guest and never stops
  // its server; otherwise it owns the directory for its run, so a shop started meanwhile is
  // refused rather than left on a server this command is about to stop.
  const lock = await lockDataDir(config.dataDir, { shop: false, log });
  if (lock.role === "guest")
    log(`Connecting to the database of the shop running beside: ${describeHolder(lock.holder)}`);
  const owner = lock.role === "owner" ? lock : null;
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      preferredPort: config.embeddedPgPort,
      log,
      reuseOnly: lock.role === "guest",
      createCluster,
    });
  } catch (error) {
    await owner?.release();
    throw error;
  }
  const close = async () => {
    if (!owner) return;
    try {
      await embedded.stop();
    } finally {
      await owner.release();
    }
  };
  log(`Database: ${describeDatabase(embedded.url(SHOP_DATABASE), config.dataDir)}`);
  try {
    await ensureDatabase(embedded.url("postgres"), SHOP_DATABASE);
  } catch (error) {
    await close();
    throw error;
  }
  return { databaseUrl: embedded.url(SHOP_DATABASE), shared: !owner, close };
}
