#!/usr/bin/env node
// The last step of `npm run build`: copies into dist/ the files the server reads at run time that
// no compiler emits, so dist/ is a release that runs on its own (`node dist/server/main.js` with
// production dependencies only): the migrations beside the compiled migrator
// (dist/server/db/migrations, where src/server/db/migrate.ts looks first), and the owner-editable
// content/ folder (dist/content) when the project has one.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");

// Drizzle's migrator reads the SQL files and meta/_journal.json; the snapshots are drizzle-kit's.
const migrationsFrom = path.join(root, "src/server/db/migrations");
const migrationsTo = path.join(dist, "server/db/migrations");
rmSync(migrationsTo, { recursive: true, force: true });
mkdirSync(path.join(migrationsTo, "meta"), { recursive: true });
const sqlFiles = readdirSync(migrationsFrom).filter((name) => name.endsWith(".sql"));
for (const name of sqlFiles) cpSync(path.join(migrationsFrom, name), path.join(migrationsTo, name));
cpSync(path.join(migrationsFrom, "meta/_journal.json"), path.join(migrationsTo, "meta/_journal.json"));

const contentFrom = path.join(root, "content");
const contentTo = path.join(dist, "content");
rmSync(contentTo, { recursive: true, force: true });
if (existsSync(contentFrom)) cpSync(contentFrom, contentTo, { recursive: true });

console.log(
  `release files: ${sqlFiles.length} migrations${existsSync(contentFrom) ? " and content/" : ""} copied into dist/`,
);
