import type { ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "#server/platform/db/embedded.js";
import {
  type AppProcess,
  AUTH_LIMITS_OFF,
  backupFileIn,
  ORDER_LIMITS_OFF,
  runCommand,
  sleep,
  startApp,
} from "./helpers/app-process.js";
import {
  expectLedgerKept,
  expectNoServerErrors,
  prepareShoppers,
  startCheckoutLoad,
  timeUntilHealthy,
} from "./helpers/checkout-load.js";
import {
  attachToShopCluster,
  cleanUpShopDataDir,
  createFreshDatabase,
  externalPostgres,
  makeTempDir,
  withClient,
} from "./helpers/postgres.js";
import { startValidator } from "./helpers/shop.js";

/**
 * SIGKILL during a backup (issue 38's fault suite): the shop and the backup it was making are
 * killed together, as a power cut or the OOM killer would. No half-written file ever carries a
 * backup's name, the shop started again serves at once with every order and payment it answered,
 * and the next backup is whole: it restores with every order confirmed before it began.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const backupFiles = async (dir: string) => (await fs.readdir(dir)).filter((name) => name.startsWith("shop-"));

async function waitForPartial(dir: string, backup: ChildProcess): Promise<boolean> {
  while (backup.exitCode === null) {
    if ((await backupFiles(dir)).some((name) => name.endsWith(".partial"))) return true;
    await sleep(5);
  }
  return false;
}

describe("SIGKILL of the shop during a backup", () => {
  it("leaves no half backup under a backup's name, the shop serves again at once, and the next backup is whole", async () => {
    const server = await externalPostgres();
    expect(server, "the fault suite needs the PostgreSQL at 127.0.0.1:5432").not.toBeNull();
    const dataDir = await makeTempDir("shop-rel-bkill-");
    cleanups.push(() => cleanUpShopDataDir(dataDir));
    const backupDir = path.join(dataDir, "backups");
    await fs.mkdir(backupDir, { mode: 0o700 });
    const validator = await startValidator();
    cleanups.push(validator.close);
    const env = {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      BACKUP_EVERY_HOURS: "0",
      PAYFAST_VALIDATE_URL: validator.url,
      ...AUTH_LIMITS_OFF,
      ...ORDER_LIMITS_OFF,
    };
    let app: AppProcess = await startApp({ env });
    cleanups.push(() => app.kill());
    // A shop with some history, so a backup takes long enough to be caught half-way.
    const seeded = runCommand("seed-orders", ["--orders", "15000"], { DATA_DIR: dataDir });
    expect((await seeded.done).code, "seed:orders").toBe(0);

    const customers = await prepareShoppers(app.url, 6, "bkill");
    const load = await startCheckoutLoad({ urls: () => [app.url], customers, shoppers: 12, prefix: "bkill" });
    let recoveredMs = Number.POSITIVE_INFINITY;
    let confirmedBeforeBackup: string[] = [];
    let whole = "";
    try {
      await load.moreOrders(5, 15_000);
      const backup = runCommand("backup", ["--dir", backupDir], { DATA_DIR: dataDir });
      expect(await waitForPartial(backupDir, backup.child), "the backup was caught while writing").toBe(true);
      backup.child.kill("SIGKILL");
      const killedAt = Date.now();
      await app.kill();
      await backup.done;
      expect((await backupFiles(backupDir)).filter((name) => name.endsWith(".backup.gz"))).toEqual([]);

      app = await startApp({ env, port: app.port });
      recoveredMs = await timeUntilHealthy(app.url, killedAt, 60_000);
      await load.moreOrders(5, 20_000);

      confirmedBeforeBackup = [...load.confirmed];
      const again = runCommand("backup", ["--dir", backupDir], { DATA_DIR: dataDir });
      const result = await again.done;
      expect(result.code, result.output).toBe(0);
      whole = backupFileIn(result.output);
    } finally {
      await load.stop();
    }
    console.info(
      `backup-kill: the shop serving again ${recoveredMs} ms after it was killed mid-backup; ${load.summary()}`,
    );
    expect(recoveredMs).toBeLessThan(30_000);
    expectNoServerErrors(load);
    const cluster = await attachToShopCluster(dataDir);
    await expectLedgerKept(cluster.url("shop"), load);

    // The backup made after the kill restores, holding every order confirmed before it began.
    expect(whole).toMatch(/shop-.*\.backup\.gz$/);
    const target = await createFreshDatabase(server as string);
    cleanups.push(target.drop);
    const restored = runCommand("restore", [whole, "--database-url", target.url], { DATA_DIR: dataDir });
    const restore = await restored.done;
    expect(restore.code, restore.output).toBe(0);
    await withClient(target.url, async (db) => {
      const { rows } = await db.query("select count(*)::int as n from orders where id = any($1::uuid[])", [
        confirmedBeforeBackup,
      ]);
      expect(rows[0]?.n, "orders confirmed before the backup, in it").toBe(confirmedBeforeBackup.length);
    });
    expect(await app.stop()).toEqual({ code: 0, signal: null });
  });
});
