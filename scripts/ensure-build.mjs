// One freshness rule for `npm start` and `npm run bench`: build when dist/ is missing or older
// than the sources, then stamp it, so the next start (or the cold-start benchmark) does not build.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const stamp = path.join(root, "dist", ".build-stamp");
const INPUTS = [
  "src",
  "content",
  "vite.config.ts",
  "tsconfig.server.json",
  "package.json",
  "scripts/release-files.mjs",
];

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function isBuildFresh() {
  const sourceTime = Math.max(
    ...INPUTS.map((name) => path.join(root, name))
      .filter(existsSync)
      .map((input) => (statSync(input).isDirectory() ? newestMtime(input) : statSync(input).mtimeMs)),
  );
  return (
    existsSync(path.join(root, "dist/server/main.js")) &&
    existsSync(path.join(root, "dist/web/index.html")) &&
    existsSync(path.join(root, "dist/ssr/entry-server.js")) &&
    existsSync(stamp) &&
    statSync(stamp).mtimeMs >= sourceTime
  );
}

/** Builds when needed; exits the process with the build's status when it fails. */
export function ensureBuild() {
  if (isBuildFresh()) return;
  console.log("Building the shop (dist/ is missing or older than the sources)...");
  const result = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error("The build failed.");
    process.exit(result.status ?? 1);
  }
  writeFileSync(stamp, new Date().toISOString());
}
