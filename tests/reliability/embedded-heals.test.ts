import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "#server/platform/db/embedded.js";
import { AUTH_LIMITS_OFF, ORDER_LIMITS_OFF, sleep, startApp } from "./helpers/app-process.js";
import { expectLedgerKept, expectNoServerErrors, prepareShoppers, startCheckoutLoad } from "./helpers/checkout-load.js";
import { call } from "./helpers/http.js";
import {
  attachToShopCluster,
  cleanUpShopDataDir,
  clusterDir,
  makeTempDir,
  postmasterRunning,
} from "./helpers/postgres.js";
import { startValidator } from "./helpers/shop.js";

/**
 * The embedded database heals (issue 38): the postmaster killed outright, as the OOM killer does,
 * is started again by the shop within 30 s, with every order and payment that was answered 200
 * still there; and when it cannot be started again, the shop says so on /api/health/live and
 * exits non-zero for its supervisor.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

async function killPostmaster(dataDir: string): Promise<number> {
  const pidFile = await fs.readFile(path.join(clusterDir(dataDir), "postmaster.pid"), "utf8");
  const pid = Number(pidFile.split("\n")[0]);
  process.kill(pid, "SIGKILL");
  return pid;
}

const SHOPPERS = 40;

describe("the embedded PostgreSQL heals", () => {
  it("is started again within 30 s of its postmaster being killed under checkout load, losing no order or payment", async () => {
    const dataDir = await makeTempDir("shop-rel-heal-");
    cleanups.push(() => cleanUpShopDataDir(dataDir));
    const validator = await startValidator();
    cleanups.push(validator.close);
    const app = await startApp({
      env: {
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
        ...AUTH_LIMITS_OFF,
        PAYFAST_VALIDATE_URL: validator.url,
        ...ORDER_LIMITS_OFF,
      },
    });
    cleanups.push(() => app.kill());
    const customers = await prepareShoppers(app.url, 8, "heal");
    const load = await startCheckoutLoad({ urls: () => [app.url], customers, shoppers: SHOPPERS, prefix: "heal" });

    let recoveredMs = Number.POSITIVE_INFINITY;
    let liveDuringOutage: number[] = [];
    try {
      await load.moreOrders(1, 10_000);
      const killedAt = Date.now();
      await killPostmaster(dataDir);
      const liveChecks: number[] = [];
      while (Date.now() - killedAt < 30_000) {
        liveChecks.push((await call(app.url, "GET", "/api/health/live").catch(() => ({ status: 0 }))).status);
        const ready = await call(app.url, "GET", "/api/health").catch(() => ({ status: 0 }));
        if (ready.status === 200 && (await postmasterRunning(dataDir))) {
          recoveredMs = Date.now() - killedAt;
          break;
        }
        await sleep(200);
      }
      liveDuringOutage = liveChecks;
      // Shoppers go on after the recovery, and their orders count too.
      await load.moreOrders(1, 15_000);
    } finally {
      await load.stop();
    }

    console.info(
      `embedded-heals: answering again ${recoveredMs} ms after the postmaster was killed; ${load.summary()}`,
    );
    expect(recoveredMs, "ms from the kill until the shop answers again").toBeLessThan(30_000);
    // The process lived on and stayed "alive" for its supervisor: the restart succeeded first time.
    expect(app.child.exitCode).toBeNull();
    expect(liveDuringOutage.every((status) => status === 200)).toBe(true);
    expectNoServerErrors(load);
    const cluster = await attachToShopCluster(dataDir);
    await expectLedgerKept(cluster.url("shop"), load);
    expect(await app.stop()).toEqual({ code: 0, signal: null });
  });

  it("fails /live and exits non-zero when its PostgreSQL cannot be started again within 30 s", async () => {
    const dataDir = await makeTempDir("shop-rel-lost-");
    cleanups.push(() => cleanUpShopDataDir(dataDir));
    const pgPort = await freePort();
    const app = await startApp({ env: { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) } });
    cleanups.push(() => app.kill());

    // The port is taken the moment the postmaster is gone, so no restart can listen on it.
    const pid = await killPostmaster(dataDir);
    // It takes connections (the shop's pool tries the port) and drops them at once.
    const squatter = net.createServer((socket) => socket.destroy());
    let bound = false;
    const killedAt = Date.now();
    while (!bound && Date.now() - killedAt < 5_000) {
      bound = await new Promise<boolean>((resolve) => {
        squatter.once("error", () => resolve(false));
        squatter.listen(pgPort, "127.0.0.1", () => resolve(true));
      });
      if (!bound) await sleep(10);
    }
    cleanups.push(() => new Promise((resolve) => squatter.close(resolve)));
    expect(bound, `port ${pgPort} taken after postmaster ${pid} died`).toBe(true);

    let liveFailed = false;
    while (app.child.exitCode === null && Date.now() - killedAt < 45_000) {
      const live = await call(app.url, "GET", "/api/health/live").catch(() => ({ status: 0, json: null }));
      if (live.status === 503) {
        liveFailed = true;
        expect(live.json).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: expect.any(String) });
      }
      await sleep(250);
    }
    const exit = await app.exited;
    const exitedMs = Date.now() - killedAt;
    console.info(`embedded-heals: gave up and exited ${exitedMs} ms after the postmaster was killed`);
    expect(liveFailed, "/api/health/live answered 503 before the exit").toBe(true);
    expect(exit.code).toBe(1);
    expect(exitedMs).toBeGreaterThanOrEqual(30_000);
    expect(exitedMs).toBeLessThan(45_000);
    expect(app.output()).toContain("could not be started again within 30 s");
  });
});
