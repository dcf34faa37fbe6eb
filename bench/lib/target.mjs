// The server process of the in-process benchmarks: the real app, built from dist/ exactly as
// dist/server/main.js builds it (config from the environment, the pool, buildApp), plus a second
// Fastify instance in the same process for the benchmark's own controls (the baselines' bare
// routes run in a process of their own: bare.mjs).
// Every SQL statement sent through the `pg` driver is counted, so a benchmark can tell how many
// statements a request costs, or prove that it cost none. The shop's background jobs (pg-boss,
// polling its queues every second or two through the same pool) are counted apart.
//
// Started by target-client.mjs; reports {ready} over IPC.
import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import Fastify from "fastify";
import pg from "pg";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
// BENCH_DIST: another build to measure (an A/B experiment on a patched copy of dist/).
const distDir = path.resolve(ROOT, process.env.BENCH_DIST ?? "dist");
const dist = (relative) => import(pathToFileURL(path.join(distDir, relative)).href);

// --- statement counting -------------------------------------------------------------------------
// Every statement is counted by its first keyword, and timed (send to answer, so a slow statement
// or a queue in front of PostgreSQL shows) by its text. The jobs engine's own statements (pg-boss's
// polls and sends, all in its `pgboss` schema) go to `background` instead. So do, while a counting
// window asks for `requestsOnly`, the statements sent outside any request (a job's run, the
// catalogue reloading after a NOTIFY): requests are then followed with AsyncLocalStorage, exact
// but not free (it hooks every promise), so it is on only for those windows, never under load.
const counts = { statements: 0, byKind: {}, byText: new Map(), background: { statements: 0, byKind: {} } };
const inRequest = new AsyncLocalStorage();
let requestsOnly = false;
const JOBS_ENGINE_SQL = /\bpgboss\./;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(config, values, callback) {
  const text = typeof config === "string" ? config : config?.text;
  if (typeof text !== "string") return originalQuery.call(this, config, values, callback);
  const kind = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? "?";
  if (JOBS_ENGINE_SQL.test(text) || (requestsOnly && !inRequest.getStore())) {
    counts.background.statements += 1;
    counts.background.byKind[kind] = (counts.background.byKind[kind] ?? 0) + 1;
    return originalQuery.call(this, config, values, callback);
  }
  counts.statements += 1;
  counts.byKind[kind] = (counts.byKind[kind] ?? 0) + 1;
  const key = text.replace(/\s+/g, " ").trim().slice(0, 160);
  const started = performance.now();
  const done = () => {
    const entry = counts.byText.get(key) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += performance.now() - started;
    counts.byText.set(key, entry);
  };
  if (typeof values === "function") {
    const inner = values;
    return originalQuery.call(this, config, (...args) => {
      done();
      return inner(...args);
    });
  }
  if (typeof callback === "function") {
    const inner = callback;
    return originalQuery.call(this, config, values, (...args) => {
      done();
      return inner(...args);
    });
  }
  const result = originalQuery.call(this, config, values, callback);
  if (result && typeof result.then === "function") result.then(done, done);
  return result;
};

// --- the real app ---------------------------------------------------------------------------------
const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl) throw new Error("BENCH_DATABASE_URL is required");
const appPort = Number(process.env.BENCH_APP_PORT);
const controlPort = Number(process.env.BENCH_CONTROL_PORT);

const { loadConfig } = await dist("server/platform/config.js");
const { createDatabase } = await dist("server/platform/db/client.js");
const { buildApp } = await dist("server/app.js");

const config = loadConfig(process.env);
const { db, pool } = createDatabase(databaseUrl, config.dbPoolSize);
const app = await buildApp({ config, db, pool, databaseUrl });
// While a counting window wants it, each request runs in its own AsyncLocalStorage context: the
// server's request listeners are wrapped then, and given back (with the promise hooks off) after.
const requestListeners = app.server.listeners("request");
function followRequests(on) {
  if (on === requestsOnly) return;
  requestsOnly = on;
  app.server.removeAllListeners("request");
  for (const listener of requestListeners) {
    app.server.on("request", on ? (...args) => inRequest.run(true, listener, ...args) : listener);
  }
  if (!on) inRequest.disable();
}
await app.listen({ port: appPort, host: "127.0.0.1" });

const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();

// How many requests wait for a pooled connection, sampled every 5 ms.
const poolSamples = { n: 0, waiting: 0, maxWaiting: 0 };
setInterval(() => {
  poolSamples.n += 1;
  poolSamples.waiting += pool.waitingCount;
  poolSamples.maxWaiting = Math.max(poolSamples.maxWaiting, pool.waitingCount);
}, 5).unref();

// --- the controls ----------------------------------------------------------------------------------
const control = Fastify({ logger: false });

// A local stand-in for PayFast's /eng/query/validate: every ITN it is asked about is VALID.
let validations = 0;
control.post("/validate", (_request, reply) => {
  validations += 1;
  return reply.type("text/plain").send("VALID");
});

control.get("/__bench/stats", async () => {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    cpuMicros: cpu.user + cpu.system,
    statements: counts.statements,
    byKind: counts.byKind,
    byText: [...counts.byText].map(([text, entry]) => ({ text, ...entry })).sort((a, b) => b.ms - a.ms),
    background: counts.background,
    validations,
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    poolTotal: pool.totalCount,
    poolWaitingAvg: poolSamples.n ? poolSamples.waiting / poolSamples.n : 0,
    poolWaitingMax: poolSamples.maxWaiting,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMeanMs: loopDelay.mean / 1e6,
    poolIdle: pool.idleCount,
  };
});

// Body { requestsOnly: true }: until the next reset, count only what requests send (see above).
control.post("/__bench/reset", async (request) => {
  counts.statements = 0;
  counts.byKind = {};
  counts.byText.clear();
  counts.background = { statements: 0, byKind: {} };
  followRequests(request.body?.requestsOnly === true);
  Object.assign(poolSamples, { n: 0, waiting: 0, maxWaiting: 0 });
  loopDelay.reset();
  validations = 0;
  return { ok: true };
});

// The catalogue's trigger NOTIFYs every instance of a write; this waits until the app has handled
// the notifications of every write committed before it (as an admin write does before answering).
control.post("/__bench/catalog-changed", async () => {
  await app.catalogCache.caughtUp();
  return { ok: true };
});

// Nappy plans' charging round (bench/plans.mjs): `rounds` runs at once in this process, as several
// instances' jobs would; answers each run's summary.
control.post("/__bench/plans-charge", async (request) => {
  const rounds = Math.max(1, Number(request.body?.rounds) || 1);
  const summaries = await Promise.all(Array.from({ length: rounds }, () => app.plans.charge()));
  return { summaries };
});

await control.listen({ port: controlPort, host: "127.0.0.1" });

let closing = false;
async function close() {
  if (closing) return;
  closing = true;
  await control.close().catch(() => {});
  await app.close().catch(() => {});
  await pool.end().catch(() => {});
  process.exit(0);
}
process.on("SIGTERM", close);
process.on("SIGINT", close);
process.on("disconnect", close);

process.send?.({ ready: true, pid: process.pid });
