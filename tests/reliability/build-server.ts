import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { faultsDist, repoRoot } from "./helpers/dist.js";

/**
 * The fault suite runs the server as production does, compiled, from a release folder of its own:
 * dist-faults/, so it can run beside `npm run build` writing dist/ (CI runs it beside the browser
 * tests: .ci/run). It compiles the server first so the processes under test are the code in the
 * tree (the storefront build is not needed here); RELIABILITY_SKIP_BUILD=1 uses dist-faults/ as it is.
 */
export default function buildServer() {
  const main = path.join(faultsDist, "server/main.js");
  if (process.env.RELIABILITY_SKIP_BUILD === "1" && existsSync(main)) return;
  const result = spawnSync(
    process.execPath,
    [path.join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.server.json", "--outDir", faultsDist],
    { cwd: repoRoot, stdio: "inherit" },
  );
  // tsc still emits on type errors; a missing main.js is what stops the suite.
  if (!existsSync(main)) throw new Error(`the server build produced no ${main} (tsc exit ${result.status})`);
  if (result.status !== 0) console.warn("build-server: tsc reported type errors; testing what it emitted");
  // package.json (the compiled server's subpath imports), the migrations and content/, as the
  // build's last step writes them into dist/: without them the compiled server cannot start.
  const files = spawnSync(process.execPath, [path.join(repoRoot, "scripts/release-files.mjs"), faultsDist], {
    cwd: repoRoot,
    stdio: "inherit",
  });
  if (files.status !== 0) throw new Error(`scripts/release-files.mjs failed (exit ${files.status})`);
}
