import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { type EmbeddedPostgres, freePort, startEmbeddedPostgres } from "#server/platform/db/embedded.js";

const run = promisify(execFile);

/** The external PostgreSQL CI offers (user postgres, trust authentication). */
export const EXTERNAL_ADMIN_URL = process.env.RELIABILITY_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** The external server's admin URL when something answers there, else null. */
export async function externalPostgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: EXTERNAL_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return EXTERNAL_ADMIN_URL;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A new, empty database `shop_rel_<random>` on the server of `adminUrl`, and how to drop it. */
export async function createFreshDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `shop_rel_${randomBytes(6).toString("hex")}`;
  await adminQuery(adminUrl, `create database "${name}"`);
  return {
    url: withDatabase(adminUrl, name),
    drop: () => adminQuery(adminUrl, `drop database if exists "${name}" with (force)`),
  };
}

export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Runs `fn` with one short-lived client (for checks made from outside the app). */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  // The embedded PostgreSQL runs as the postgres user when we are root: it must reach inside.
  await fs.chmod(dir, 0o755);
  return dir;
}

/** A PostgreSQL cluster of the test's own, which it can stop (even like a power cut) and start again. */
export interface TestCluster {
  dataDir: string;
  port: number;
  adminUrl: string;
  url: (database: string) => string;
  stop: (mode?: "fast" | "immediate") => Promise<void>;
  /** Starts it again on the same port. */
  start: () => Promise<void>;
  /** Stops it (when running) and removes its files. */
  dispose: () => Promise<void>;
}

export async function startTestCluster(): Promise<TestCluster> {
  const dataDir = await makeTempDir("shop-rel-pg-");
  let current: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir, preferredPort: await freePort() });
  const port = current.port;
  let running = true;
  const cluster: TestCluster = {
    dataDir,
    port,
    adminUrl: current.url("postgres"),
    url: (database) => current.url(database),
    stop: async (mode = "fast") => {
      await current.stop({ mode });
      running = false;
    },
    start: async () => {
      current = await startEmbeddedPostgres({ dataDir, preferredPort: port });
      running = true;
      if (current.port !== port) throw new Error(`the cluster came back on port ${current.port}, not ${port}`);
    },
    dispose: async () => {
      if (running || (await postmasterRunning(dataDir))) await current.stop({ mode: "immediate" }).catch(() => {});
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/** The embedded cluster's files inside a shop DATA_DIR. */
export const clusterDir = (dataDir: string) => path.join(dataDir, "postgres");

/**
 * The sizes of the embedded server's log files now: pg_ctl's start file (server.log) and the
 * logging collector's (log/postgresql-<weekday>.log, src/server/platform/db/embedded.ts).
 */
export async function serverLogSizes(dataDir: string): Promise<Map<string, number>> {
  const dir = clusterDir(dataDir);
  const names = await fs.readdir(path.join(dir, "log")).catch(() => [] as string[]);
  const files = [path.join(dir, "server.log"), ...names.map((name) => path.join(dir, "log", name))];
  const sizes = new Map<string, number>();
  for (const file of files) {
    const stat = await fs.stat(file).catch(() => null);
    if (stat) sizes.set(file, stat.size);
  }
  return sizes;
}

/** What the embedded server logged since `before` (serverLogSizes), across its files. */
export async function serverLogSince(dataDir: string, before: Map<string, number>): Promise<string> {
  const parts: string[] = [];
  for (const file of (await serverLogSizes(dataDir)).keys()) {
    parts.push((await fs.readFile(file)).subarray(before.get(file) ?? 0).toString());
  }
  return parts.join("\n");
}

export async function postmasterRunning(dataDir: string): Promise<boolean> {
  const pidFile = await fs.readFile(path.join(clusterDir(dataDir), "postmaster.pid"), "utf8").catch(() => null);
  if (pidFile === null) return false;
  const pid = Number(pidFile.split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** PostgreSQL processes whose command line names this data directory (the postmaster's children do not). */
export async function postgresProcessesFor(dataDir: string): Promise<string[]> {
  const { stdout } = await run("ps", ["-eo", "pid,args"]).catch(() => ({ stdout: "" }));
  const dir = clusterDir(dataDir);
  return stdout.split("\n").filter((line) => line.includes("postgres") && line.includes(dir));
}

/**
 * Stops the embedded cluster a shop process left in `dataDir` (after a SIGKILL of the app) and
 * removes the directory. Safe to call when nothing runs.
 */
export async function cleanUpShopDataDir(dataDir: string): Promise<void> {
  if (await postmasterRunning(dataDir)) {
    const cluster = await startEmbeddedPostgres({ dataDir, preferredPort: await freePort() });
    await cluster.stop({ mode: "immediate" }).catch(() => {});
  }
  await fs.rm(dataDir, { recursive: true, force: true });
}

/** The embedded server a shop runs in `dataDir` (it must be running): reuses it, never starts one. */
export async function attachToShopCluster(dataDir: string): Promise<EmbeddedPostgres> {
  if (!(await postmasterRunning(dataDir))) throw new Error(`no PostgreSQL runs in ${clusterDir(dataDir)}`);
  return startEmbeddedPostgres({ dataDir, preferredPort: await freePort() });
}
