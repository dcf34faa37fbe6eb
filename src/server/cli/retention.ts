/**
 * npm run retention
 *
 * Runs the retention job by hand, once, on the shop's database (DATABASE_URL, or the embedded
 * PostgreSQL in DATA_DIR, as `npm start`): the delivery details of orders past RETENTION_YEARS are
 * anonymised (src/server/privacy/retention.ts), in the log and the audit trail as the daily run is.
 * Safe while the shop runs: an order is done once, whoever gets to it first.
 */
import pino from "pino";
import { ConfigError, loadConfig, loadEnvFile } from "../platform/config.js";
import { NoClusterError } from "../platform/db/embedded.js";
import { openDatabase } from "../platform/db/open.js";
import { errWithoutValues } from "../platform/log-errors.js";
import { anonymiseExpiredOrders } from "../privacy/retention.js";
import { isEntryPoint } from "./entry-point.js";

async function main() {
  loadEnvFile();
  const config = loadConfig();
  const database = await openDatabase(config, { log: (line) => console.error(`[db] ${line}`) });
  try {
    const log = pino({ level: config.logLevel === "silent" ? "silent" : "warn" });
    const run = await anonymiseExpiredOrders(database.db, {
      years: config.retentionYears,
      log,
      source: "npm run retention",
    });
    console.log(
      `Retention (${config.retentionYears} years after the tax year): ${run.anonymised} order(s) placed before ${run.cutoff.toISOString()} anonymised.`,
    );
  } finally {
    await database.close();
  }
}

if (isEntryPoint(import.meta.url)) {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof NoClusterError) console.error(error.message);
    else console.error("Could not run the retention job:", error instanceof Error ? errWithoutValues(error) : error);
    process.exit(1);
  });
}
