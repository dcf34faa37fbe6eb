#!/usr/bin/env node
// 6. Cold start: `npm start` (node scripts/start.mjs, which skips the build when dist/ is fresh) on
// an existing data directory, from spawning it to the first 200 from /api/health. The data
// directory is made by a first start (cluster, migrations, seed), stopped with SIGTERM; then the
// start is timed three times and the median kept. Baseline: spawning `node -e ""`.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { freePort, log, logPath, main, ROOT, spawnServer, tempDir, waitFor200 } from "./lib/harness.mjs";
import { emit, fmt, row, verdict } from "./lib/report.mjs";

const BENCH = "cold start";
const BAR_MS = 3_000;
const TIMED_STARTS = 3;
const rows = [];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function nodeBaseline() {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
      child.on("exit", resolve);
      child.on("error", reject);
    });
    times.push(performance.now() - started);
  }
  return median(times);
}

await main(
  async () => {
    const dataDir = tempDir("shop-bench-cold");
    const port = await freePort();
    const env = {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
    };
    delete env.DATABASE_URL;
    const health = `http://127.0.0.1:${port}/api/health`;
    const start = (name) =>
      spawnServer(process.execPath, [path.join(ROOT, "scripts", "start.mjs")], { env, logFile: logPath(name) });

    log("first start: creating the data directory (and building, if dist/ is older than the sources)...");
    const first = start("cold-start-first.log");
    await waitFor200(health, { child: first.child, timeoutMs: 600_000 });
    const firstExit = await first.stop();
    if (firstExit.code !== 0)
      throw new Error(`the first start did not stop cleanly on SIGTERM (${JSON.stringify(firstExit)})`);

    const times = [];
    let rebuilt = 0;
    for (let attempt = 0; times.length < TIMED_STARTS && attempt < TIMED_STARTS + 2; attempt++) {
      const logFile = `cold-start-${attempt + 1}.log`;
      const started = performance.now();
      const server = start(logFile);
      await waitFor200(health, { child: server.child, intervalMs: 10, timeoutMs: 600_000 });
      const elapsed = performance.now() - started;
      const exit = await server.stop();
      if (exit.code !== 0)
        throw new Error(`start ${attempt + 1} did not stop cleanly on SIGTERM (${JSON.stringify(exit)})`);
      const output = readFileSync(server.logFile, "utf8");
      if (output.includes("Building the shop")) {
        // The sources changed under us (someone is editing): that start timed a build, not a start.
        rebuilt += 1;
        log(`start ${attempt + 1}: rebuilt first (sources changed), not counted`);
        continue;
      }
      times.push(elapsed);
      log(`start ${attempt + 1}: first 200 from /api/health after ${fmt.s(elapsed)}`);
    }
    if (times.length === 0) throw new Error("every start rebuilt the shop: the sources kept changing");
    const measured = median(times);
    const baseline = await nodeBaseline();
    rows.push(
      row({
        bench: BENCH,
        name: "npm start on existing data -> first 200 /api/health",
        measured: fmt.s(measured),
        baseline: `${fmt.ms(baseline)} (node -e "")`,
        ratio: measured / baseline,
        bar: `< ${fmt.s(BAR_MS)}`,
        status: verdict(measured < BAR_MS),
        note: `median of ${times.length} starts: ${times.map(fmt.s).join(", ")}${rebuilt ? `; ${rebuilt} start(s) rebuilt and were not counted` : ""}`,
      }),
    );
    emit(rows);
  },
  async (error) => {
    rows.push(
      row({
        bench: BENCH,
        name: "cold start",
        measured: "error",
        bar: `< ${fmt.s(BAR_MS)}`,
        status: "fail",
        note: String(error?.message ?? error),
      }),
    );
    emit(rows);
  },
);
