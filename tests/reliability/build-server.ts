import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The fault suite runs the server as production does, from dist/. It compiles the server first so the
 * processes under test are the code in the tree (the storefront build is not needed here);
 * RELIABILITY_SKIP_BUILD=1 uses dist/ as it is.
 */
export default function buildServer() {
  const main = path.join(root, "dist/server/main.js");
  if (process.env.RELIABILITY_SKIP_BUILD === "1" && existsSync(main)) return;
  const result = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.server.json"],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
  // tsc still emits on type errors; a missing main.js is what stops the suite.
  if (!existsSync(main)) throw new Error(`the server build produced no ${main} (tsc exit ${result.status})`);
  if (result.status !== 0) console.warn("build-server: tsc reported type errors; testing what it emitted");
  // dist/package.json (the compiled server's subpath imports), the migrations and content/, as the
  // build's last step writes them: without them a fresh clone's suite has a dist/ that cannot start.
  const files = spawnSync(process.execPath, [path.join(root, "scripts/release-files.mjs")], {
    cwd: root,
    stdio: "inherit",
  });
  if (files.status !== 0) throw new Error(`scripts/release-files.mjs failed (exit ${files.status})`);
}
