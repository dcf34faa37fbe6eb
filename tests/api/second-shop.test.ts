import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "#server/platform/db/embedded.js";
import { waitFor } from "../helpers/wait.js";

/**
 * The shop's embedded PostgreSQL belongs to the shop that started it (issue 25): tried as an owner
 * would, a second `npm start` on the same data directory used to adopt it, fail on the busy port,
 * and stop the database under the first shop on its way out. Real processes, a real data directory.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tsx = pathToFileURL(path.join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;

let scratch: string;
let dataDir: string;
let port: number;
let baseEnv: Record<string, string>;
let first: ChildProcess | null = null;
let firstOutput = "";

interface Finished {
  code: number | null;
  output: string;
}

/** Runs a TypeScript entry of the server (main.ts, a CLI) on the shared data directory. */
function run(entry: string, args: string[] = [], env: Record<string, string> = {}, stdin = "") {
  const child = spawn(process.execPath, ["--import", tsx, path.join(repoRoot, entry), ...args], {
    cwd: repoRoot,
    env: { ...baseEnv, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin.end(stdin);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const finished = new Promise<Finished>((resolve) => child.on("exit", (code) => resolve({ code, output })));
  return { child, finished, output: () => output };
}

async function health(): Promise<number> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return 0;
  }
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "shop-second-"));
  // The embedded PostgreSQL runs as the postgres user when the tests run as root: it must reach DATA_DIR.
  await chmod(scratch, 0o755);
  dataDir = path.join(scratch, "data");
  port = await freePort();
  baseEnv = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? scratch,
    TSX_TSCONFIG_PATH: path.join(repoRoot, "tsconfig.json"),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    PORT: String(port),
    LOG_LEVEL: "warn",
  };
  const shop = run("src/server/main.ts");
  first = shop.child;
  if ((await waitFor(health, (status) => status === 200, 150_000)) !== 200) {
    throw new Error(`the first shop did not start:\n${shop.output()}`);
  }
  shop.finished.then(({ output }) => {
    firstOutput = output;
  });
}, 180_000);

afterAll(async () => {
  if (first && first.exitCode === null) {
    first.kill("SIGTERM");
    await new Promise((resolve) => first?.once("exit", resolve));
  }
  await rm(scratch, { recursive: true, force: true });
}, 60_000);

describe("a second shop on a running shop's data directory", () => {
  it.each([
    ["on the same port", {}],
    ["on a port of its own", { PORT: "0" }],
  ])(
    "refuses to start %s, naming the running shop, and leaves its database up",
    async (_name, env) => {
      const second = await run("src/server/main.ts", [], env).finished;
      expect(second.code, second.output).toBe(1);
      expect(second.output).toMatch(
        new RegExp(`DATA_DIR ${dataDir} is in use by another shop: pid ${first?.pid} \\(.*main\\.ts\\)`),
      );
      expect(second.output).toMatch(/stop that shop first/);
      expect(second.output).not.toMatch(/\[db\] .*(Reusing|waiting for server to shut down)/);
      // The first shop still reaches its database, now and a moment later.
      expect(await health()).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await health()).toBe(200);
      expect(first?.exitCode).toBeNull();
    },
    120_000,
  );
});

describe("a command beside a running shop", () => {
  it("creates an admin in the shop's database without stopping it", async () => {
    const created = await run(
      "src/server/cli/admin-create.ts",
      ["--username", "beside", "--email", "beside@example.co.za"],
      {},
      "a-long-password-for-beside\n",
    ).finished;
    expect(created.code, created.output).toBe(0);
    expect(created.output).toMatch(/Connecting to the database of the shop running beside: pid \d+/);
    expect(created.output).not.toMatch(/waiting for server to shut down/);
    expect(await health()).toBe(200);
    // The admin is in the running shop's database: it signs in there.
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://localhost:${port}` },
      body: JSON.stringify({ username: "beside", password: "a-long-password-for-beside" }),
    });
    expect(login.status).toBe(200);
    expect(await login.json()).toMatchObject({ username: "beside", isAdmin: "true" });
  }, 120_000);
});

describe("after the shop stops", () => {
  it("the shop stops its database and frees the directory; a command then owns it for its run alone", async () => {
    first?.kill("SIGTERM");
    const code = await new Promise((resolve) => first?.once("exit", (exitCode) => resolve(exitCode)));
    expect(code, firstOutput).toBe(0);
    expect(existsSync(path.join(dataDir, "shop.lock"))).toBe(false);
    expect(existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);

    const promoted = await run("src/server/cli/admin-create.ts", [
      "--promote",
      "--username",
      "beside",
      "--email",
      "beside@example.co.za",
    ]).finished;
    expect(promoted.code, promoted.output).toBe(0);
    expect(promoted.output).not.toMatch(/shop running beside/);
    expect(existsSync(path.join(dataDir, "shop.lock"))).toBe(false);
    expect(existsSync(path.join(dataDir, "postgres", "postmaster.pid"))).toBe(false);
  }, 120_000);
});
