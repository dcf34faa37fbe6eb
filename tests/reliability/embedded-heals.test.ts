import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "#server/db/embedded.js";
import { completeItn } from "../helpers/payfast.js";
import { AUTH_LIMITS_OFF, ORDER_LIMITS_OFF, sleep, startApp } from "./helpers/app-process.js";
import { call } from "./helpers/http.js";
import {
  attachToShopCluster,
  cleanUpShopDataDir,
  clusterDir,
  makeTempDir,
  postmasterRunning,
  withClient,
} from "./helpers/postgres.js";
import {
  buyableProducts,
  type Customer,
  orderBody,
  randomCart,
  registerCustomer,
  startValidator,
} from "./helpers/shop.js";

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
    const customers: Customer[] = [];
    for (let index = 0; index < 8; index++) customers.push(await registerCustomer(app.url, "heal"));
    const choices = await buyableProducts(app.url);

    const confirmed = new Set<string>();
    const paid = new Set<string>();
    const statuses = new Map<string, number>();
    const seen = (kind: string) => statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
    let shopping = true;
    let itns = 0;
    const shopper = async (index: number) => {
      let state = index + 1;
      const random = () => {
        state = (state * 1_664_525 + 1_013_904_223) >>> 0;
        return state / 2 ** 32;
      };
      const customer = customers[index % customers.length] as Customer;
      while (shopping) {
        try {
          const created = await call(app.url, "POST", "/api/create-order", {
            body: orderBody(randomCart(choices, random).slice(0, 1), customer),
            cookie: customer.cookie,
            timeoutMs: 20_000,
          });
          seen(`create-order ${created.status}`);
          if (created.status !== 200) {
            await sleep(200);
            continue;
          }
          const { orderId, payfastData } = created.json as { orderId: string; payfastData: Record<string, string> };
          confirmed.add(orderId);
          const itn = completeItn(orderId, payfastData.amount ?? "", `heal${++itns}`, customer.email);
          const notified = await fetch(`${app.url}/api/payfast/notify`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: itn,
            signal: AbortSignal.timeout(20_000),
          });
          seen(`notify ${notified.status}`);
          if (notified.status === 200) paid.add(orderId);
        } catch (error) {
          seen(`network ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name}`);
          await sleep(100);
        }
      }
    };
    const shoppers = Array.from({ length: SHOPPERS }, (_, index) => shopper(index));

    let recoveredMs = Number.POSITIVE_INFINITY;
    let liveDuringOutage: number[] = [];
    try {
      await sleep(2_000);
      const before = confirmed.size;
      expect(before, "orders placed before the kill").toBeGreaterThan(0);
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
      const recoveredAt = confirmed.size;
      const waitedFrom = Date.now();
      while (confirmed.size <= Math.max(before, recoveredAt) && Date.now() - waitedFrom < 15_000) await sleep(200);
      expect(confirmed.size, "orders placed after the recovery").toBeGreaterThan(Math.max(before, recoveredAt));
    } finally {
      shopping = false;
      await Promise.all(shoppers);
    }

    const summary = [...statuses.entries()].map(([kind, count]) => `${kind}: ${count}`).join(", ");
    console.info(`embedded-heals: answering again ${recoveredMs} ms after the postmaster was killed; ${summary}`);
    expect(recoveredMs, "ms from the kill until the shop answers again").toBeLessThan(30_000);
    // The process lived on and stayed "alive" for its supervisor: the restart succeeded first time.
    expect(app.child.exitCode).toBeNull();
    expect(liveDuringOutage.every((status) => status === 200)).toBe(true);
    for (const kind of statuses.keys()) expect(kind).toMatch(/^(create-order (200|503)|notify (200|503)|network \w+)$/);

    const cluster = await attachToShopCluster(dataDir);
    await withClient(cluster.url("shop"), async (db) => {
      const ids = [...confirmed];
      const { rows } = await db.query("select id from orders where id = any($1::uuid[])", [ids]);
      expect(rows.length, "orders answered 200 that exist").toBe(ids.length);
      const { rows: booked } = await db.query(
        "select id from orders where id = any($1::uuid[]) and status = 'completed' and paid_by = 'itn'",
        [[...paid]],
      );
      expect(booked.length, "payments answered 200 that are booked").toBe(paid.size);
      const { rows: numbers } = await db.query<{ n: number }>(
        "select invoice_number as n from orders where invoice_number is not null order by 1",
      );
      numbers.forEach((row, index) => {
        expect(row.n, "invoice numbers run without a gap or a repeat").toBe(index + 1);
      });
    });
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
