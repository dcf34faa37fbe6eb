#!/usr/bin/env node
// `npm run check:dev`: proves `npm run dev` works as a fresh clone gets it. Starts it on free
// ports with a temporary DATA_DIR (a new embedded PostgreSQL), waits until Vite answers the SPA's
// HTML and the API answers through Vite's proxy (/api/health, the PayFast emulator), then stops it
// with one SIGINT to its process group, as Ctrl-C does, and checks that everything stopped: both
// servers' ports closed and the embedded PostgreSQL shut down cleanly (no postmaster.pid left).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 45_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function get(url, init) {
  try {
    const response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(10_000) });
    return { status: response.status, type: response.headers.get("content-type") ?? "", body: await response.text() };
  } catch {
    return null;
  }
}

const [devPort, apiPort, pgPort] = await Promise.all([freePort(), freePort(), freePort()]);
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "shop-check-dev-"));
const origin = `http://localhost:${devPort}`;

const env = { ...process.env, DEV_PORT: String(devPort), DEV_API_PORT: String(apiPort) };
for (const name of ["DATABASE_URL", "PUBLIC_URL", "PORT", "HOST", "SERVE_STATIC", "PAYFAST_EMULATOR_PAYMENT_PORT"]) {
  delete env[name];
}
Object.assign(env, { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), PAYFAST_MODE: "local" });

let output = "";
const started = Date.now();
// Its own process group, as a terminal's foreground job: SIGINT to the group is a Ctrl-C.
const dev = spawn("npm", ["run", "dev", "--silent"], {
  cwd: root,
  env,
  stdio: ["ignore", "pipe", "pipe"],
  detached: true,
});
dev.stdout.on("data", (chunk) => {
  output += chunk;
});
dev.stderr.on("data", (chunk) => {
  output += chunk;
});
const exited = new Promise((resolve) => dev.once("exit", (code, signal) => resolve({ code, signal })));
let devExit = null;
exited.then((result) => {
  devExit = result;
});

const problems = [];
const checks = {
  spa: async () => {
    const page = await get(`${origin}/`);
    return page?.status === 200 && page.type.includes("text/html") && page.body.includes('<div id="root">')
      ? page
      : null;
  },
  health: async () => {
    const health = await get(`${origin}/api/health`);
    if (health?.status !== 200) return null;
    try {
      return JSON.parse(health.body).status === "ok" ? health : null;
    } catch {
      return null;
    }
  },
};

let page = null;
let healthy = null;
while (Date.now() - started < START_TIMEOUT_MS && devExit === null) {
  page ??= await checks.spa();
  healthy ??= await checks.health();
  if (page && healthy) break;
  await sleep(500);
}
const readyAfter = Date.now() - started;

if (!page) problems.push(`http://localhost:${devPort}/ did not answer the SPA's HTML`);
if (!healthy) problems.push(`http://localhost:${devPort}/api/health did not answer ok through Vite's proxy`);
if (page && !page.body.includes('id="shop-config"')) problems.push("the dev page carries no shop config");
if (page && !page.body.includes('"testPayments":true')) problems.push("the dev page does not say Test mode");

if (page && healthy) {
  // The emulator through the proxy: an unsigned form is refused with its own HTML page.
  const emulator = await get(`${origin}/payfast-emulator/eng/process`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: "merchant_id=0",
  });
  if (emulator?.status !== 400 || !emulator.type.includes("text/html")) {
    problems.push(`the PayFast emulator did not answer through Vite's proxy (got ${emulator?.status ?? "no answer"})`);
  }
  // A route of the SPA other than / is the SPA too (Vite's history fallback).
  const checkout = await get(`${origin}/checkout`);
  if (checkout?.status !== 200 || !checkout.body.includes('<div id="root">')) {
    problems.push("/checkout did not answer the SPA's HTML");
  }
}

// Ctrl-C.
const stopAt = Date.now();
if (devExit === null) {
  try {
    process.kill(-dev.pid, "SIGINT");
  } catch {}
}
const result = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => null)]);
if (result === null) {
  problems.push(`npm run dev did not stop within ${STOP_TIMEOUT_MS / 1000} s of one SIGINT`);
  try {
    process.kill(-dev.pid, "SIGKILL");
  } catch {}
} else if (!page || !healthy) {
  problems.push(`npm run dev exited (${result.signal ?? `code ${result.code}`})`);
}

// npm may return before its children are done: everything must be closed within the deadline.
const ports = [
  ["Vite", devPort],
  ["the API", apiPort],
  ["the embedded PostgreSQL", pgPort],
];
const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
const stillOpen = async () => {
  const open = [];
  for (const [name, port] of ports) if (await portOpen(port)) open.push(`${name} still listens on port ${port}`);
  if (existsSync(pidFile)) open.push("the embedded PostgreSQL was not shut down (postmaster.pid is still there)");
  return open;
};
let leftovers = await stillOpen();
while (leftovers.length > 0 && Date.now() - stopAt < STOP_TIMEOUT_MS) {
  await sleep(500);
  leftovers = await stillOpen();
}
const stoppedAfter = Date.now() - stopAt;
problems.push(...leftovers.map((line) => `${line} after the stop`));
if (existsSync(pidFile)) {
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (pid > 0) {
    try {
      process.kill(pid, "SIGINT");
      await sleep(3_000);
    } catch {}
  }
}
await fs.rm(dataDir, { recursive: true, force: true }).catch(() => {});

if (problems.length > 0) {
  console.error(`npm run dev: FAILED\n${problems.map((line) => `  - ${line}`).join("\n")}\n--- its output ---`);
  console.error(output.trim());
  process.exit(1);
}
console.log(
  `npm run dev: ok (shop and API answered through http://localhost:${devPort} after ${(readyAfter / 1000).toFixed(1)} s; ` +
    `one SIGINT stopped Vite, the API and the embedded PostgreSQL in ${(stoppedAfter / 1000).toFixed(1)} s)`,
);
// The stop's deadline timer would keep the process waiting.
process.exit(0);
