import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "#server/platform/db/embedded.js";
import { type AppProcess, AUTH_LIMITS_OFF, ORDER_LIMITS_OFF, sleep, startApp } from "./helpers/app-process.js";
import { type Outcome, send } from "./helpers/http.js";
import {
  cleanUpShopDataDir,
  clusterDir,
  makeTempDir,
  postgresProcessesFor,
  postmasterRunning,
  serverLogSince,
  serverLogSizes,
} from "./helpers/postgres.js";
import { registerCustomer } from "./helpers/shop.js";

const RECOVERY_SIGNS = [/database system was not properly shut down/i, /redo starts/i, /automatic recovery/i];

let dataDir = "";
const apps: AppProcess[] = [];

/** The load loops run while this is true; a failed test's afterAll ends them too. */
let loading = false;

afterAll(async () => {
  loading = false;
  for (const app of apps) await app.kill().catch(() => {});
  if (dataDir) await cleanUpShopDataDir(dataDir);
});

describe("graceful shutdown", () => {
  it("answers every request it accepted, exits 0, stops its PostgreSQL cleanly, and restarts without recovery", async () => {
    dataDir = await makeTempDir("shop-rel-shutdown-");
    const env = {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      // "incoming request" lines (logged at debug level) tell which requests the server accepted.
      LOG_LEVEL: "debug",
      // Logins are the slow requests here (argon2): let them all reach the password check.
      ...AUTH_LIMITS_OFF,
      ...ORDER_LIMITS_OFF,
    };
    const app = await startApp({ env });
    apps.push(app);
    const customer = await registerCustomer(app.url, "shutdown");

    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes: Outcome[] = [];
    let sequence = 0;
    const nextId = (kind: string) => `shut-${kind}-${++sequence}`;
    const requests: ((id: string) => Promise<Outcome>)[] = [
      (id) => send(app.url, { id, path: "/api/products", headers: { "accept-encoding": "gzip" } }),
      (id) => send(app.url, { id, path: "/api/categories", agent: keepAlive }),
      (id) => send(app.url, { id, path: "/api/health", agent: keepAlive }),
      (id) => send(app.url, { id, path: "/api/no-such-thing" }),
      (id) => send(app.url, { id, path: "/api/auth/me", headers: { cookie: customer.cookie }, agent: keepAlive }),
      (id) =>
        send(app.url, {
          id,
          method: "POST",
          path: "/api/auth/login",
          body: JSON.stringify({ username: customer.username, password: "not-the-password" }),
        }),
    ];

    loading = true;
    const loop = async (worker: number) => {
      for (let round = 0; loading; round++) {
        const make = requests[(worker + round) % requests.length];
        if (!make) continue;
        const outcome = await make(nextId(`w${worker}`));
        outcomes.push(outcome);
        // After close, refused connections come back at once: do not spin.
        if (outcome.error) await sleep(20);
      }
    };
    const workers = Array.from({ length: 24 }, (_, worker) => loop(worker));

    await sleep(2_000);
    // Slow clients: the server has taken their requests (logged them) but their bodies are still
    // arriving when SIGTERM comes, so they are surely in flight.
    const slowIds = Array.from({ length: 10 }, (_, index) => nextId(`slow${index}`));
    const slow = slowIds.map((id, index) =>
      send(app.url, {
        id,
        label: "slow login",
        method: "POST",
        path: "/api/auth/login",
        body: JSON.stringify({ username: customer.username, password: `wrong-${index}-${"x".repeat(200)}` }),
        trickleMs: 3_000,
      }),
    );
    const acceptedIds = () =>
      new Set(
        app
          .logRecords()
          .filter((record) => record.msg === "incoming request")
          // Our own request id is the server's; the client's x-request-id is logged as its claim.
          .map((record) => String(record.clientRequestId ?? record.reqId)),
      );
    for (const started = Date.now(); Date.now() - started < 2_500; await sleep(50)) {
      const taken = acceptedIds();
      if (slowIds.every((id) => taken.has(id))) break;
    }
    expect(
      slowIds.filter((id) => !acceptedIds().has(id)),
      "slow requests the server had not taken",
    ).toEqual([]);

    const signalledAt = Date.now();
    app.child.kill("SIGTERM");
    const exit = await app.exited;
    const exitedAfterMs = Date.now() - signalledAt;
    loading = false;
    const slowOutcomes = await Promise.all(slow);
    await Promise.all(workers);
    keepAlive.destroy();
    outcomes.push(...slowOutcomes);

    expect(exit, app.output().slice(-3000)).toEqual({ code: 0, signal: null });

    // Every request the server logged as accepted got its whole answer.
    const accepted = acceptedIds();
    const cut = outcomes.filter((outcome) => accepted.has(outcome.id) && !outcome.complete);
    expect(cut, "accepted requests whose answer was cut").toEqual([]);
    // The slow ones were accepted before the signal and answered after it: the server waited for them.
    for (const outcome of slowOutcomes) {
      expect(accepted.has(outcome.id), `slow request ${outcome.id} was accepted`).toBe(true);
      expect(outcome).toMatchObject({ complete: true, status: 401 });
      expect(outcome.endedAt).toBeGreaterThan(signalledAt);
    }
    const inFlightAtSignal = outcomes.filter(
      (outcome) => accepted.has(outcome.id) && outcome.startedAt < signalledAt && outcome.endedAt > signalledAt,
    );
    expect(inFlightAtSignal.length).toBeGreaterThanOrEqual(slowOutcomes.length);
    expect(outcomes.filter((outcome) => outcome.complete).length, "requests answered under load").toBeGreaterThan(50);
    // Failures are only connections the closing server did not take.
    for (const outcome of outcomes.filter((o) => o.error && !accepted.has(o.id))) {
      expect(["ECONNREFUSED", "ECONNRESET", "EPIPE", "socket hang up"]).toContain(outcome.error);
    }
    expect(exitedAfterMs).toBeLessThan(20_000);
    console.info(
      `shutdown: ${outcomes.length} requests, ${accepted.size} accepted, ${inFlightAtSignal.length} in flight at SIGTERM, ` +
        `${outcomes.filter((o) => o.status === 503).length} answered 503 while closing, ` +
        `${outcomes.filter((o) => o.error).length} refused; exited ${exitedAfterMs} ms after SIGTERM`,
    );

    // Its PostgreSQL was stopped, not left behind.
    expect(await postmasterRunning(dataDir)).toBe(false);
    await expect(fs.access(path.join(clusterDir(dataDir), "postmaster.pid"))).rejects.toThrow();
    expect(await postgresProcessesFor(dataDir)).toEqual([]);

    // The next start finds a cleanly shut down cluster: no crash recovery.
    const before = await serverLogSizes(dataDir);
    const again = await startApp({ env: { ...env, LOG_LEVEL: "warn" } });
    apps.push(again);
    const health = await fetch(`${again.url}/api/health`);
    expect(health.status).toBe(200);
    const newLog = await serverLogSince(dataDir, before);
    expect(newLog).toMatch(/database system is ready to accept connections/);
    for (const sign of RECOVERY_SIGNS) expect(newLog).not.toMatch(sign);

    expect(await again.stop()).toEqual({ code: 0, signal: null });
    expect(await postmasterRunning(dataDir)).toBe(false);
  });
});
