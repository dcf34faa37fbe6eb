import { buildApp } from "./app.js";
import { readLaunchChecklist } from "./launch-checklist/content.js";
import { RestoreInProgressError } from "./platform/backup/restore-mark.js";
import { ConfigError, describeMode, loadConfig, loadEnvFile } from "./platform/config.js";
import { DataDirInUseError } from "./platform/db/data-dir-lock.js";
import { openDatabase } from "./platform/db/open.js";
import { errWithoutValues } from "./platform/log-errors.js";
import { readPolicies } from "./policies/content.js";
import { seedCatalog } from "./seed/seed.js";

async function main() {
  // .env in the working directory, when there is one, fills what the real environment leaves unset.
  loadEnvFile();
  // The configuration is checked before anything starts: an unsafe one never opens the database.
  const config = loadConfig();
  const policies = readPolicies(config);
  const launchChecklist = readLaunchChecklist(config);
  console.log(`  ${describeMode(config)}`);
  const log = (line: string) => console.log(`[db] ${line}`);

  // The embedded database is this shop's alone: refused while another shop runs on DATA_DIR; a
  // server a crashed shop left running is adopted, and this process stops it on shutdown.
  // A database it cannot bring back ends the process, non-zero: systemd or Docker restarts the unit.
  let fatal = (line: string) => console.error(line);
  const onEmbeddedLost = (reason: string) => {
    fatal(`${reason}; exiting for the supervisor to restart the shop`);
    process.exit(1);
  };
  const database = await openDatabase(config, { log, seed: seedCatalog, shop: true, onEmbeddedLost });
  const { db, pool, databaseUrl } = database;
  const app = await buildApp({
    config,
    db,
    pool,
    databaseUrl,
    policies,
    launchChecklist,
    embeddedState: database.embeddedState,
  });
  fatal = (line) => app.log.fatal(line);
  // A promise nobody awaited that failed (a query during a database outage) must not end the shop
  // and every request in flight with it: it is logged, and the owner alerted when the database answers.
  process.on("unhandledRejection", (reason) => {
    app.log.error({ err: reason }, "unhandled rejection: logged, the shop goes on");
    const detail = reason instanceof Error ? errWithoutValues(reason).message : String(reason);
    void app.alerts
      .raise("unhandled-rejection", {
        title: "The shop met an error nothing was waiting for",
        detail: `It kept running. The first line of the error: ${detail.split("\n")[0]}. The shop's log has the rest; please pass it on to whoever looks after the shop's code.`,
      })
      .catch(() => {});
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    const force = setTimeout(() => {
      app.log.error("shutdown took too long; exiting");
      process.exit(1);
    }, 25_000);
    force.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    app.log.error({ err: error }, "could not listen");
    await database.close();
    process.exit(1);
  }
  const shown = ["0.0.0.0", "::", "127.0.0.1"].includes(config.host) ? "localhost" : config.host;
  console.log(`\n  ${config.shop.name} is open at http://${shown}:${config.port}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof RestoreInProgressError) {
    console.error(error.message);
  } else {
    // Never the values a failed query was sent (a password hash, personal details).
    console.error("The shop could not start:", error instanceof Error ? errWithoutValues(error) : error);
  }
  process.exit(1);
});
