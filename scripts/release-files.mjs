#!/usr/bin/env node
// The last step of `npm run build`: copies into dist/ the files the server reads at run time that
// no compiler emits, so dist/ is a release that runs on its own (`node dist/server/main.js` with
// production dependencies only): the migrations beside the compiled migrator
// (dist/server/platform/db/migrations, where src/server/platform/db/migrate.ts looks first), and the owner-editable
// content/ folder (dist/content) when the project has one; and dist/package.json, which points the compiled
// server's subpath imports at dist/.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");

// Drizzle's migrator reads the SQL files and meta/_journal.json; the snapshots are drizzle-kit's.
const migrationsFrom = path.join(root, "src/server/platform/db/migrations");
const migrationsTo = path.join(dist, "server/platform/db/migrations");
rmSync(migrationsTo, { recursive: true, force: true });
mkdirSync(path.join(migrationsTo, "meta"), { recursive: true });
const sqlFiles = readdirSync(migrationsFrom).filter((name) => name.endsWith(".sql"));
for (const name of sqlFiles) cpSync(path.join(migrationsFrom, name), path.join(migrationsTo, name));
cpSync(path.join(migrationsFrom, "meta/_journal.json"), path.join(migrationsTo, "meta/_journal.json"));

const contentFrom = path.join(root, "content");
const contentTo = path.join(dist, "content");
rmSync(contentTo, { recursive: true, force: true });
if (existsSync(contentFrom)) cpSync(contentFrom, contentTo, { recursive: true });

// The compiled server imports `#domain/...` and `#server/...` (package.json "imports", which point
// at src/ for tsx, Vitest and Vite): inside dist/ the nearest package.json points them at the
// compiled files instead.
const distPackage = {
  type: "module",
  private: true,
  imports: { "#domain/*.js": "./domain/*.js", "#server/*.js": "./server/*.js" },
};
writeFileSync(path.join(dist, "package.json"), `${JSON.stringify(distPackage, null, 2)}\n`);

// Which commit this build is (src/server/platform/build-info.ts: /metrics' shop_build_info, the health
// answer and the admin): SOURCE_REVISION when given (a Docker build has no .git: pass it as a
// build argument), else git's HEAD, else "unknown".
const revision =
  process.env.SOURCE_REVISION ||
  (() => {
    try {
      return execFileSync("git", ["rev-parse", "HEAD"], {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    } catch {
      return "unknown";
    }
  })();
writeFileSync(path.join(dist, "build-info.json"), `${JSON.stringify({ revision }, null, 2)}\n`);

console.log(
  `release files: ${sqlFiles.length} migrations${existsSync(contentFrom) ? " and content/" : ""} copied into dist/`,
);
