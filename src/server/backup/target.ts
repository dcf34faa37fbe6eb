import type { Config } from "../config.js";
import { startEmbeddedPostgres } from "../db/embedded.js";
import { ensureDatabase, SHOP_DATABASE } from "../db/open.js";

export interface ShopDatabase {
  databaseUrl: string;
  /** True when a running shop's embedded PostgreSQL was connected to (and is left running). */
  shared: boolean;
  /** Stops the embedded PostgreSQL when this command started it; never a running shop's. */
  close: () => Promise<void>;
}

/**
 * The database the backup and restore commands work on: DATABASE_URL when set, otherwise the
 * embedded PostgreSQL in DATA_DIR. A running shop's embedded server is connected to and left
 * running; when no shop runs it is started for the command and stopped after it.
 */
export async function shopDatabase(config: Config, log: (line: string) => void): Promise<ShopDatabase> {
  if (config.databaseUrl) return { databaseUrl: config.databaseUrl, shared: false, close: async () => {} };
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, preferredPort: config.embeddedPgPort, log });
  try {
    await ensureDatabase(embedded.url("postgres"), SHOP_DATABASE);
  } catch (error) {
    if (!embedded.reused) await embedded.stop();
    throw error;
  }
  return {
    databaseUrl: embedded.url(SHOP_DATABASE),
    shared: embedded.reused,
    close: async () => {
      if (!embedded.reused) await embedded.stop();
    },
  };
}
