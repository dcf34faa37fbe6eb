import { afterAll, describe, expect, it } from "vitest";
import { type AppProcess, AUTH_LIMITS_OFF, ORDER_LIMITS_OFF, startApp } from "./helpers/app-process.js";
import {
  expectLedgerKept,
  expectNoServerErrors,
  prepareShoppers,
  startCheckoutLoad,
  timeUntilHealthy,
} from "./helpers/checkout-load.js";
import { createFreshDatabase, externalPostgres } from "./helpers/postgres.js";
import { startValidator } from "./helpers/shop.js";

/**
 * Two instances over one PostgreSQL, one of them killed under checkout load (issue 38's fault
 * suite): shoppers carry on through the other (as a proxy sends them), the killed one started
 * again takes its share back, and nothing either of them answered 200 is lost.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

describe("two instances, one killed", () => {
  it("keeps selling through the other, takes the killed one back, and loses no order or payment", async () => {
    const server = await externalPostgres();
    expect(server, "the fault suite needs the PostgreSQL at 127.0.0.1:5432").not.toBeNull();
    const database = await createFreshDatabase(server as string);
    cleanups.push(database.drop);
    const validator = await startValidator();
    cleanups.push(validator.close);
    const env = {
      DATABASE_URL: database.url,
      PAYFAST_VALIDATE_URL: validator.url,
      ...AUTH_LIMITS_OFF,
      ...ORDER_LIMITS_OFF,
    };
    let [a, b] = (await Promise.all([startApp({ env }), startApp({ env })])) as [AppProcess, AppProcess];
    cleanups.push(
      () => a.kill(),
      () => b.kill(),
    );
    const customers = await prepareShoppers(a.url, 8, "twin");
    let up = [a.url, b.url];
    const load = await startCheckoutLoad({ urls: () => up, customers, shoppers: 24, prefix: "twin" });
    let recoveredMs = Number.POSITIVE_INFINITY;
    let servedAlone = 0;
    try {
      await load.moreOrders(10, 15_000);
      const killedAt = Date.now();
      await a.kill();
      // A proxy stops sending to an instance that does not answer; until it notices, shoppers retry.
      const before = load.confirmed.size;
      await load.moreOrders(10, 15_000);
      servedAlone = load.confirmed.size - before;
      up = [b.url];
      a = await startApp({ env, port: a.port });
      up = [a.url, b.url];
      recoveredMs = await timeUntilHealthy(a.url, killedAt, 60_000);
      await load.moreOrders(10, 15_000);
    } finally {
      await load.stop();
    }
    console.info(
      `instance-killed: ${servedAlone} orders through the other instance meanwhile; the killed one serving again ${recoveredMs} ms after the kill; ${load.summary()}`,
    );
    expect(servedAlone).toBeGreaterThanOrEqual(10);
    expectNoServerErrors(load);
    expect(b.child.exitCode).toBeNull();
    await expectLedgerKept(database.url, load);
    expect(await a.stop()).toEqual({ code: 0, signal: null });
    expect(await b.stop()).toEqual({ code: 0, signal: null });
  });
});
