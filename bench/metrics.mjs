#!/usr/bin/env node
// 11. What /metrics costs: GET /api/products of the real app with METRICS_TOKEN set (every
// request timed into prom-client's histogram, /metrics scraped every 2.5 s during each run, more often than Prometheus
// would) against the same app without it, in the same run, on the same database, at 64
// connections, alternated five times in 3 s runs; each side keeps its best run (the machine is shared).
import { log, main, startDatabase } from "./lib/harness.mjs";
import { BROWSER_HEADERS, load } from "./lib/load.mjs";
import { emit, fmt, row, verdict } from "./lib/report.mjs";
import { startTarget } from "./lib/target-client.mjs";

const BENCH = "metrics";
const CONNECTIONS = 64;
const ROUNDS = 5;
/** Enabling /metrics may cost the catalogue route at most 3% of its server CPU per request. */
const COST_BAR = 1.03;
const TOKEN = "bench-metrics-token-0123456789abcdef";
const rows = [];
const headers = { ...BROWSER_HEADERS, accept: "application/json" };

async function measure(target, label, scrape) {
  let before = null;
  let scrapes = 0;
  let timer = null;
  const run = await load({
    label,
    url: `${target.appUrl}/api/products`,
    connections: CONNECTIONS,
    headers,
    durationSeconds: 3,
    beforeMeasure: async () => {
      before = await target.stats();
      if (scrape) {
        timer = setInterval(async () => {
          const answer = await fetch(`${target.appUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
          await answer.arrayBuffer();
          if (answer.status === 200) scrapes += 1;
        }, 2_500);
      }
    },
  });
  clearInterval(timer);
  const after = await target.stats();
  run.cpuPerRequest = (after.cpuMicros - before.cpuMicros) / Math.max(run.total, 1);
  run.scrapes = scrapes;
  return run;
}

await main(
  async () => {
    const database = await startDatabase("metrics");
    const off = await startTarget({ databaseUrl: database.url, label: "metrics-off" });
    const on = await startTarget({ databaseUrl: database.url, label: "metrics-on", env: { METRICS_TOKEN: TOKEN } });
    const check = await fetch(`${on.appUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await check.text();
    if (check.status !== 200 || !text.includes("shop_http_request_duration_seconds")) {
      throw new Error(`GET /metrics answered ${check.status} without the request histogram`);
    }
    const offCheck = await fetch(`${off.appUrl}/metrics`);
    await offCheck.arrayBuffer();
    if (offCheck.status !== 404) throw new Error(`GET /metrics without METRICS_TOKEN answered ${offCheck.status}`);

    const runs = { off: [], on: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.off.push(await measure(off, "metrics off", false));
      runs.on.push(await measure(on, "metrics on", true));
    }
    const best = (list) => list.reduce((a, b) => (b.rps > a.rps ? b : a));
    const cpu = (list) => Math.min(...list.map((run) => run.cpuPerRequest));
    const failures = [...runs.on, ...runs.off].filter((run) => run.errors || run.timeouts || run.non2xx).length;
    const cost = cpu(runs.on) / cpu(runs.off);
    const ratio = best(runs.on).rps / best(runs.off).rps;
    log(`server CPU per request: on ${cpu(runs.on).toFixed(1)} us, off ${cpu(runs.off).toFixed(1)} us`);
    rows.push(
      row({
        bench: BENCH,
        name: "GET /api/products with /metrics on: server CPU per request",
        measured: `${cpu(runs.on).toFixed(1)} us`,
        baseline: `${cpu(runs.off).toFixed(1)} us (off)`,
        ratio: cost,
        bar: `<= ${COST_BAR} x off`,
        status: verdict(cost <= COST_BAR && failures === 0),
        note: `best of ${ROUNDS} alternated runs each; /metrics scraped every 2.5 s while on (${runs.on.map((run) => run.scrapes).join(", ")} scrapes)${failures ? `; ${failures} runs with failures` : ""}`,
      }),
      row({
        bench: BENCH,
        name: "GET /api/products with /metrics on: req/s",
        measured: fmt.rps(best(runs.on).rps),
        baseline: `${fmt.rps(best(runs.off).rps)} (off)`,
        ratio,
        bar: "printed",
        status: verdict(failures === 0),
        note: `p99 on ${fmt.ms(best(runs.on).p99)}, off ${fmt.ms(best(runs.off).p99)}`,
      }),
    );
    emit(rows);
  },
  async (error) => {
    rows.push(
      row({
        bench: BENCH,
        name: "/metrics cost",
        measured: "error",
        bar: "runs",
        status: "fail",
        note: String(error?.message ?? error),
      }),
    );
    emit(rows);
  },
);
