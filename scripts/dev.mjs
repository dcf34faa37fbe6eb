#!/usr/bin/env node
// `npm run dev`: the API (tsx watch: restarts on server changes) and Vite's dev server (hot
// reload) together. The shop is at http://localhost:$DEV_PORT (5173); Vite proxies /api and
// /payfast-emulator to the API on DEV_API_PORT (3000), and PUBLIC_URL is Vite's address, so
// PayFast's return, cancel and notify URLs and the local emulator all go through it.
// One Ctrl-C stops both; the API stops its embedded PostgreSQL (data under DATA_DIR, ./data by
// default, as `npm start` uses) before it exits.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

const devPort = process.env.DEV_PORT || "5173";
const apiPort = process.env.DEV_API_PORT || "3000";
const publicUrl = process.env.PUBLIC_URL || `http://localhost:${devPort}`;

const env = {
  ...process.env,
  DEV_PORT: devPort,
  DEV_API_PORT: apiPort,
  PORT: apiPort,
  // Only Vite's proxy talks to the API.
  HOST: process.env.HOST || "127.0.0.1",
  PUBLIC_URL: publicUrl,
  // Vite serves the storefront from the sources; the API serves only /api and the emulator.
  SERVE_STATIC: "false",
};

/** Each child runs in a process group of its own, so that a signal reaches it once, from us. */
function start(name, command, args) {
  const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "inherit", "inherit"], detached: true });
  child.name = name;
  child.done = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  child.once("error", (error) => {
    console.error(`[dev] could not start ${name}: ${error.message}`);
    stop("SIGTERM", 1);
  });
  return child;
}

console.log(`[dev] API on http://127.0.0.1:${apiPort}, shop at ${publicUrl} (Ctrl-C stops both)`);
// tsx watch restarts the API when a file it imports changes (src/server, src/domain).
const api = start("API", bin("tsx"), ["watch", "--clear-screen=false", "src/server/main.ts"]);
const web = start("Vite", bin("vite"), ["--port", devPort, "--strictPort"]);
const children = [api, web];

let stopping = false;
let exitCode = 0;

/** Sends the signal once to each child still running, waits for all, then exits. */
function stop(signal, code = 0) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        // Only the child itself: tsx relays it to the API, which shuts its PostgreSQL down.
        child.kill(signal);
      } catch {}
    }
  }
  // A child that does not stop in time is killed with its whole group (PostgreSQL included).
  setTimeout(() => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        console.error(`[dev] ${child.name} did not stop; killing it`);
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
      }
    }
  }, 30_000).unref();
  Promise.all(children.map((child) => child.done)).then(() => process.exit(exitCode));
}

// npm and the terminal may both deliver one Ctrl-C: the repeats are ignored.
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGHUP", () => stop("SIGTERM"));

// When one of them ends on its own (a crash at start, a port in use), the other is stopped too.
for (const child of children) {
  child.done.then(({ code, signal }) => {
    if (stopping) return;
    console.error(`[dev] ${child.name} exited (${signal ?? `code ${code}`}); stopping the other one`);
    stop("SIGTERM", code || 1);
  });
}
