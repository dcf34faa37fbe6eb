import { afterAll, describe, expect, it } from "vitest";
import { type AppProcess, AUTH_LIMITS_OFF, ORDER_LIMITS_OFF, sleep, startApp } from "./helpers/app-process.js";
import { call } from "./helpers/http.js";
import { adminQuery, startTestCluster, type TestCluster } from "./helpers/postgres.js";
import { type Customer, registerCustomer } from "./helpers/shop.js";

let cluster: TestCluster | null = null;
let app: AppProcess | null = null;

/** The load loops run while this is true; a failed test's afterAll ends them too. */
let loading = false;

afterAll(async () => {
  loading = false;
  await app?.kill().catch(() => {});
  await cluster?.dispose();
});

interface Answer {
  label: string;
  status: number;
  message: unknown;
  database?: unknown;
  /** X-Shop-Stale: the catalogue's last good answer, served while the database cannot answer. */
  stale?: string | null;
  ms: number;
  startedAt: number;
}

/** The catalogue cached before the outage keeps answering, marked stale (docs/decisions/043). */
const CACHED_CATALOGUE = new Set(["products", "categories"]);

/** The calls that cannot be answered without the database. */
function databaseCalls(baseUrl: string, customer: Customer) {
  const ask = async (label: string, method: string, path: string, options: { body?: unknown; cookie?: string }) => {
    const startedAt = Date.now();
    try {
      const answer = await call(baseUrl, method, path, { ...options, timeoutMs: 10_000 });
      const json = (answer.json ?? {}) as { message?: unknown; database?: unknown };
      return {
        label,
        status: answer.status,
        message: json.message,
        database: json.database,
        stale: answer.headers.get("x-shop-stale"),
        ms: answer.ms,
        startedAt,
      };
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      return {
        label,
        status: 0,
        message: `${String(error)} ${cause ? String(cause) : ""}`,
        ms: Date.now() - startedAt,
        startedAt,
      };
    }
  };
  return [
    () => ask("health", "GET", "/api/health", {}),
    () => ask("products", "GET", "/api/products", {}),
    () => ask("categories", "GET", "/api/categories", {}),
    () => ask("me", "GET", "/api/auth/me", { cookie: customer.cookie }),
    () =>
      ask("login", "POST", "/api/auth/login", { body: { username: customer.username, password: "wrong-password" } }),
    () =>
      ask("register", "POST", "/api/auth/register", {
        body: {
          username: `outage_${Math.random().toString(36).slice(2, 10)}`,
          email: `outage_${Math.random().toString(36).slice(2, 10)}@example.co.za`,
          password: "long enough password",
          fullName: "Outage Shopper",
        },
      }),
  ] satisfies (() => Promise<Answer>)[];
}

describe("database outage", () => {
  it("answers 503 quickly while PostgreSQL is down, stays up, and recovers without a restart", async () => {
    cluster = await startTestCluster();
    await adminQuery(cluster.adminUrl, `create database shop`);
    app = await startApp({
      env: { DATABASE_URL: cluster.url("shop"), ...AUTH_LIMITS_OFF, ...ORDER_LIMITS_OFF },
    });
    const pid = app.child.pid;
    const customer = await registerCustomer(app.url, "outage");
    const calls = databaseCalls(app.url, customer);

    // Warm up: everything works, and the catalogue is in the cache.
    for (const make of calls) expect((await make()).status).toBeLessThan(500);

    const answers: Answer[] = [];
    loading = true;
    const workers = Array.from({ length: 12 }, async (_, worker) => {
      for (let round = 0; loading; round++) {
        const make = calls[(worker + round) % calls.length];
        if (make) answers.push(await make());
        await sleep(25);
      }
    });

    await sleep(1_000);
    const stoppedAt = Date.now();
    await cluster.stop("immediate");
    const downFrom = Date.now();
    await sleep(6_000);
    const downUntil = Date.now();

    // While it is down: every call that needs the database answers 503 { message }, quickly; the
    // catalogue cached before it answers 200 from the cache, marked stale.
    const duringOutage = answers.filter((answer) => answer.startedAt >= downFrom + 500 && answer.startedAt < downUntil);
    expect(duringOutage.length).toBeGreaterThan(50);
    for (const answer of duringOutage) {
      if (CACHED_CATALOGUE.has(answer.label)) {
        expect(answer, `${answer.label} during the outage`).toMatchObject({
          status: 200,
          stale: "database-unavailable",
        });
      } else {
        expect(answer, `${answer.label} during the outage`).toMatchObject({ status: 503, message: expect.any(String) });
      }
      expect(answer.ms, `${answer.label} took ${answer.ms} ms`).toBeLessThan(5_000);
    }
    for (const answer of duringOutage.filter((a) => a.label === "health")) expect(answer.database).toBe("down");
    // Requests caught in the stop itself end as 503 too, never 500 or a dropped connection.
    for (const answer of answers.filter((a) => a.startedAt >= stoppedAt - 1_000)) {
      expect([200, 201, 401, 409, 503], `${answer.label}: ${answer.status} ${String(answer.message)}`).toContain(
        answer.status,
      );
    }
    expect(app.child.exitCode).toBeNull();

    // PostgreSQL comes back on the same port: the same process serves again.
    await cluster.start();
    const backAt = Date.now();
    let healthy = false;
    while (!healthy && Date.now() - backAt < 15_000) {
      healthy = (await call(app.url, "GET", "/api/health").catch(() => ({ status: 0 }))).status === 200;
      if (!healthy) await sleep(200);
    }
    const recoveredMs = Date.now() - backAt;
    expect(healthy).toBe(true);
    loading = false;
    await Promise.all(workers);

    const afterwards = await Promise.all([...calls, ...calls].map((make) => make()));
    for (const answer of afterwards) {
      expect(answer.status, `${answer.label} after the outage: ${String(answer.message)}`).toBeLessThan(500);
    }
    expect(afterwards.find((answer) => answer.label === "me")?.status).toBe(200);
    expect(afterwards.find((answer) => answer.label === "products")).toMatchObject({ status: 200, stale: null });
    expect(app.child.pid).toBe(pid);
    expect(app.child.exitCode).toBeNull();
    console.info(
      `db-outage: ${duringOutage.length} calls during the outage, all 503 or the stale catalogue (slowest ${Math.round(
        Math.max(...duringOutage.map((a) => a.ms)),
      )} ms); healthy again ${recoveredMs} ms after PostgreSQL restarted`,
    );

    expect(await app.stop()).toEqual({ code: 0, signal: null });
  });
});
