import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { AUTH_LIMITS_OFF, ORDER_LIMITS_OFF, sleep, startApp } from "./helpers/app-process.js";
import {
  expectLedgerKept,
  expectNoServerErrors,
  prepareShoppers,
  startCheckoutLoad,
  timeUntilHealthy,
  unavailableAnswers,
} from "./helpers/checkout-load.js";
import { adminQuery, clusterDir, startTestCluster } from "./helpers/postgres.js";
import { startValidator } from "./helpers/shop.js";

/**
 * An external PostgreSQL stopped, and frozen, under checkout load (issue 38's fault suite): the
 * shop answers 503 (never 500) while it is away, comes back by itself when it returns, and every
 * order and payment it answered 200 is kept.
 */

const run = promisify(execFile);
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const SHOPPERS = 24;

async function shopOnItsOwnCluster() {
  const cluster = await startTestCluster();
  cleanups.push(() => cluster.dispose());
  await adminQuery(cluster.adminUrl, "create database shop");
  const validator = await startValidator();
  cleanups.push(validator.close);
  const app = await startApp({
    env: {
      DATABASE_URL: cluster.url("shop"),
      PAYFAST_VALIDATE_URL: validator.url,
      ...AUTH_LIMITS_OFF,
      ...ORDER_LIMITS_OFF,
    },
  });
  cleanups.push(() => app.kill());
  const customers = await prepareShoppers(app.url, 6, "ext");
  return { cluster, app, customers };
}

/** The postmaster and every process it started: all of the server, as a frozen VM or a stuck disk leaves it. */
async function serverProcesses(dataDir: string): Promise<number[]> {
  const pidFile = await fs.readFile(path.join(clusterDir(dataDir), "postmaster.pid"), "utf8");
  const postmaster = Number(pidFile.split("\n")[0]);
  const { stdout } = await run("ps", ["-o", "pid=", "--ppid", String(postmaster)]);
  return [
    postmaster,
    ...stdout
      .split("\n")
      .map(Number)
      .filter((pid) => pid > 0),
  ];
}

describe("an external PostgreSQL under checkout load", () => {
  it("stopped for 8 s: 503 meanwhile, serving again by itself once it is back, nothing answered 200 lost", async () => {
    const { cluster, app, customers } = await shopOnItsOwnCluster();
    const load = await startCheckoutLoad({ urls: () => [app.url], customers, shoppers: SHOPPERS, prefix: "stop" });
    let recoveredMs = Number.POSITIVE_INFINITY;
    try {
      await load.moreOrders(5, 15_000);
      await cluster.stop("immediate");
      await sleep(8_000);
      await cluster.start();
      recoveredMs = await timeUntilHealthy(app.url, Date.now(), 30_000);
      await load.moreOrders(5, 20_000);
    } finally {
      await load.stop();
    }
    console.info(`external-db stopped: serving again ${recoveredMs} ms after PostgreSQL returned; ${load.summary()}`);
    expect(recoveredMs).toBeLessThan(15_000);
    expect(unavailableAnswers(load), "orders and payments refused while it was away").toBeGreaterThan(0);
    expectNoServerErrors(load);
    expect(app.child.exitCode).toBeNull();
    await expectLedgerKept(cluster.url("shop"), load);
    expect(await app.stop()).toEqual({ code: 0, signal: null });
  });

  it("frozen for 8 s (SIGSTOP): answers end in 503 rather than hanging, and it serves again within seconds of thawing", async () => {
    const { cluster, app, customers } = await shopOnItsOwnCluster();
    const load = await startCheckoutLoad({ urls: () => [app.url], customers, shoppers: SHOPPERS, prefix: "frz" });
    let recoveredMs = Number.POSITIVE_INFINITY;
    let slowestDuringFreezeMs = 0;
    try {
      await load.moreOrders(5, 15_000);
      const frozen = await serverProcesses(cluster.dataDir);
      for (const pid of frozen) process.kill(pid, "SIGSTOP");
      cleanups.push(async () => {
        for (const pid of frozen) process.kill(pid, "SIGCONT");
      });
      const frozenAt = Date.now();
      // A shopper asking meanwhile is answered, not left hanging: the pool gives up connecting after 3 s.
      const probe = await fetch(`${app.url}/api/health`, { signal: AbortSignal.timeout(30_000) });
      slowestDuringFreezeMs = Date.now() - frozenAt;
      expect(probe.status).toBe(503);
      await sleep(Math.max(0, 8_000 - (Date.now() - frozenAt)));
      for (const pid of frozen) process.kill(pid, "SIGCONT");
      recoveredMs = await timeUntilHealthy(app.url, Date.now(), 30_000);
      await load.moreOrders(5, 30_000);
    } finally {
      await load.stop();
    }
    console.info(
      `external-db frozen: a request during the freeze answered in ${slowestDuringFreezeMs} ms; serving again ${recoveredMs} ms after the thaw; ${load.summary()}`,
    );
    expect(slowestDuringFreezeMs).toBeLessThan(25_000);
    expect(recoveredMs).toBeLessThan(15_000);
    expectNoServerErrors(load);
    expect(app.child.exitCode).toBeNull();
    await expectLedgerKept(cluster.url("shop"), load);
    expect(await app.stop()).toEqual({ code: 0, signal: null });
  });
});
