// Starts bench/lib/target.mjs (the real app from dist/ and the benchmark's controls, in one process)
// and bench/lib/bare.mjs (the baselines' bare routes, in another), and talks to both.
import path from "node:path";
import { freePort, log, logPath, ROOT, spawnServer, waitFor200 } from "./harness.mjs";

/**
 * `env` is added to the app's environment (LOG_LEVEL, AUTH_RATE_LIMIT_PER_MINUTE...), or is a
 * function of `{ appUrl, bareUrl }` returning it. The app runs with NODE_ENV=production and the
 * defaults `npm start` has, unless `env` says otherwise.
 */
export async function startTarget({ databaseUrl, env = {}, label = "target" }) {
  const appPort = await freePort();
  const barePort = await freePort();
  const controlPort = await freePort();
  const appUrl = `http://127.0.0.1:${appPort}`;
  const bareUrl = `http://127.0.0.1:${barePort}`;
  const logFile = logPath(`${label}-server.log`);
  const childEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(appPort),
    PUBLIC_URL: `http://127.0.0.1:${appPort}`,
    ...(typeof env === "function" ? env({ appUrl, bareUrl }) : env),
    BENCH_DATABASE_URL: databaseUrl,
    BENCH_APP_PORT: String(appPort),
    BENCH_CONTROL_PORT: String(controlPort),
  };
  delete childEnv.DATABASE_URL;
  // BENCH_PROFILE=<dir>: a CPU profile of the server and one of the bare routes' process for the
  // whole run, written when they stop (open them in Chrome DevTools, or summarise them with
  // bench/profile-summary.mjs; the log names each process's pid, which names its file).
  const profile = process.env.BENCH_PROFILE
    ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`]
    : [];
  // BENCH_NODE_FLAGS="--trace-deopt ...": V8 or Node flags for the server (its output goes to its log file).
  const flags = process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? [];
  const server = spawnServer(process.execPath, [...profile, ...flags, path.join(ROOT, "bench", "lib", "target.mjs")], {
    env: childEnv,
    logFile,
    ipc: true,
  });
  await ready(server, logFile);
  await waitFor200(`${appUrl}/api/health`, { child: server.child });

  // The bare routes' process: Node and Fastify alone, with the same flags as the app's.
  const bareLog = logPath(`${label}-bare.log`);
  const bare = spawnServer(process.execPath, [...profile, ...flags, path.join(ROOT, "bench", "lib", "bare.mjs")], {
    env: { ...process.env, NODE_ENV: "production", BENCH_APP_PORT: String(appPort), BENCH_BARE_PORT: String(barePort) },
    logFile: bareLog,
    ipc: true,
  });
  await ready(bare, bareLog);
  log(`bench servers: app pid ${server.pid}, bare routes pid ${bare.pid}`);

  const call = async (baseUrl, method, pathname, body) => {
    const response = await fetch(`${baseUrl}${pathname}`, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
    return response.json();
  };

  const control = (method, pathname, body) => call(`http://127.0.0.1:${controlPort}`, method, pathname, body);

  return {
    appUrl,
    bareUrl,
    pid: server.pid,
    logFile,
    stop: async () => {
      await Promise.all([server.stop(), bare.stop()]);
    },
    /**
     * Statements the app sent through `pg` since the last reset, by first keyword (the background
     * jobs' apart, in `background`); and the process's memory.
     */
    stats: () => control("GET", "/__bench/stats"),
    /**
     * Starts counting afresh. `requestsOnly`: until the next reset, statements sent outside any
     * request count as background too (exact, but it slows the server a little: counting windows only).
     */
    reset: ({ requestsOnly = false } = {}) => control("POST", "/__bench/reset", { requestsOnly }),
    /** The bare routes' process: its CPU time so far (`cpuMicros`) and RSS. */
    bareStats: () => call(bareUrl, "GET", "/__bench/stats"),
    /** Copies the app's answer to GET `pathname` (with `headers`) into the bare process, under /bare`pathname`. */
    capture: (pathname, headers) => call(bareUrl, "POST", "/__bench/capture", { path: pathname, headers }),
    /** Runs `rounds` of the nappy plans' charging round at once in the app's process; their summaries. */
    chargePlans: (rounds) => control("POST", "/__bench/plans-charge", { rounds }),
    /** Resolves once the app has seen every catalogue write committed before the call (its NOTIFY). */
    catalogChanged: () => control("POST", "/__bench/catalog-changed", {}),
  };
}

/** Resolves when a spawned benchmark server reports {ready} over IPC; rejects if it exits first. */
function ready(server, logFile) {
  return new Promise((resolve, reject) => {
    server.child.once("message", (message) => (message?.ready ? resolve() : reject(new Error("not ready"))));
    server.child.once("exit", (code) =>
      reject(new Error(`a benchmark server exited (${code}) before it was ready; see ${logFile}`)),
    );
  });
}
