import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "#server/platform/db/embedded.js";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const mainScript = path.join(repoRoot, "dist/server/main.js");

/**
 * The order limits out of the way: these tests place many orders per customer from one address
 * (tests/api/order-limits.test.ts tests the limits themselves).
 */
export const ORDER_LIMITS_OFF = {
  UNPAID_ORDERS_PER_ACCOUNT: "1000",
  UNPAID_ORDERS_PER_ADDRESS: "100000",
  ORDER_RATE_LIMIT_PER_MINUTE: "100000",
};

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One `node dist/server/main.js` process, as production runs it. */
export interface AppProcess {
  port: number;
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr, interleaved). */
  output: () => string;
  /** The JSON log lines printed so far, parsed. */
  logRecords: () => Record<string, unknown>[];
  exited: Promise<Exit>;
  /** Sends SIGTERM and waits for the exit. */
  stop: (timeoutMs?: number) => Promise<Exit>;
  /** Sends SIGKILL and waits for the exit. */
  kill: () => Promise<Exit>;
}

export interface StartAppOptions {
  /** Variables on top of a clean environment (DATABASE_URL or DATA_DIR and EMBEDDED_PG_PORT, usually). */
  env: Record<string, string>;
  port?: number;
  readyTimeoutMs?: number;
}

/** Variables of the test runner's environment that would steer the child somewhere else. */
const INHERITED_OUT = [
  "DATABASE_URL",
  "DATA_DIR",
  "PORT",
  "HOST",
  "PUBLIC_URL",
  "EMBEDDED_PG_PORT",
  "LOG_LEVEL",
  "NODE_ENV",
  "TEST_DATABASE_URL",
  "PAYFAST_VALIDATE_URL",
  "PAYFAST_VALID_IPS",
  "AUTH_RATE_LIMIT_PER_MINUTE",
  "LOGIN_FAILURES_PER_ACCOUNT",
  "RESETS_PER_NETWORK_PER_DAY",
  "UNPAID_ORDERS_PER_ACCOUNT",
  "UNPAID_ORDERS_PER_ADDRESS",
  "ORDER_RATE_LIMIT_PER_MINUTE",
  "SERVE_STATIC",
];

/**
 * The sign-in limits out of the way: these tests send many logins, wrong ones included, from one
 * address (tests/api/login-rate-limit-keys.test.ts tests the limits themselves).
 */
export const AUTH_LIMITS_OFF = {
  AUTH_RATE_LIMIT_PER_MINUTE: "100000",
  LOGIN_FAILURES_PER_ACCOUNT: "100000",
};

/** Starts the built server and resolves once /api/health answers 200 (or throws with its output). */
export async function startApp({ env, port, readyTimeoutMs = 90_000 }: StartAppOptions): Promise<AppProcess> {
  const appPort = port ?? (await freePort());
  const url = `http://127.0.0.1:${appPort}`;
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !INHERITED_OUT.includes(key) && !key.startsWith("VITEST")) childEnv[key] = value;
  }
  Object.assign(
    childEnv,
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      LOG_LEVEL: "warn",
      SERVE_STATIC: "false",
    },
    env,
  );

  const child = spawn(process.execPath, [mainScript], {
    cwd: repoRoot,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  // RELIABILITY_LOG_DIR keeps every process's output in a file, for a failure's post-mortem.
  const logFile = process.env.RELIABILITY_LOG_DIR
    ? path.join(process.env.RELIABILITY_LOG_DIR, `app-${appPort}-${child.pid}.log`)
    : null;
  const record = (chunk: Buffer) => {
    printed += chunk.toString();
    if (logFile) appendFileSync(logFile, chunk);
  };
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  let exitInfo: Exit | null = null;
  const exited = new Promise<Exit>((resolve) => {
    child.on("exit", (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
  });

  const waitExit = async (timeoutMs: number) => {
    const timer = new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs).unref());
    const result = await Promise.race([exited, timer]);
    if (!result) throw new Error(`app on port ${appPort} did not exit within ${timeoutMs} ms\n${tail(printed)}`);
    return result;
  };

  const app: AppProcess = {
    port: appPort,
    url,
    child,
    output: () => printed,
    logRecords: () => parseLogLines(printed),
    exited,
    stop: async (timeoutMs = 30_000) => {
      if (!exitInfo) child.kill("SIGTERM");
      return waitExit(timeoutMs);
    },
    kill: async () => {
      if (!exitInfo) child.kill("SIGKILL");
      return waitExit(10_000);
    },
  };

  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (exitInfo) {
      throw new Error(`app exited before it was ready (${JSON.stringify(exitInfo)})\n${tail(printed)}`);
    }
    const healthy = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.status === 200)
      .catch(() => false);
    if (healthy) return app;
    await sleep(150);
  }
  child.kill("SIGKILL");
  throw new Error(`app on port ${appPort} was not ready within ${readyTimeoutMs} ms\n${tail(printed)}`);
}

export function parseLogLines(text: string): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      records.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A line cut by a kill: not a record.
    }
  }
  return records;
}

export function tail(text: string, lines = 40): string {
  return text.split("\n").slice(-lines).join("\n");
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A one-off command of the release (`node dist/server/cli/<name>.js`), as an owner runs it, in a
 * clean environment with `env` on top: its process, and its exit code with everything it printed.
 */
export function runCommand(name: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(repoRoot, "dist/server/cli", `${name}.js`), ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, output })),
  );
  return { child, done };
}

/** The backup file a backup command's output names (it first says which database it backs up). */
export const backupFileIn = (output: string): string =>
  output.split("\n").find((line) => /shop-.*\.backup\.gz$/.test(line)) ?? "";
