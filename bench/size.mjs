#!/usr/bin/env node
// First-load JavaScript of `/`: every script the built index.html loads (the boot script, decision
// 013), the app entry and chunks the boot script starts (its data-entry and data-preload), and any
// module script or modulepreload, gzipped. Fails over the budget (issue 16: 95 KB). Run `npm run
// build` first (it builds when dist/web is missing).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_KB = 95;
const root = path.resolve(import.meta.dirname, "..");
const webDir = path.join(root, "dist", "web");
const indexFile = path.join(webDir, "index.html");

if (!existsSync(indexFile)) {
  console.log("dist/web/index.html is missing: building first...");
  const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const html = readFileSync(indexFile, "utf8");
const attribute = (tag, name) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, "i").exec(tag)?.[1];

const files = [];
for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
  const src = attribute(tag, "src");
  if (!src) continue;
  const entry = attribute(tag, "data-entry");
  if (entry) {
    files.push({ kind: "boot", url: src }, { kind: "entry", url: entry });
    for (const chunk of attribute(tag, "data-preload")?.split(" ").filter(Boolean) ?? []) {
      files.push({ kind: "chunk", url: chunk });
    }
  } else if (attribute(tag, "type") === "module") {
    files.push({ kind: "entry", url: src });
  }
}
for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
  const href = attribute(tag, "href");
  if (href && attribute(tag, "rel") === "modulepreload") files.push({ kind: "modulepreload", url: href });
}
if (!files.some((file) => file.kind === "entry")) {
  console.error("No app entry found in dist/web/index.html (a module script, or the boot script's data-entry)");
  process.exit(1);
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
let rawTotal = 0;
let gzipTotal = 0;
console.log("First-load JavaScript of / (gzip -9):");
for (const file of files) {
  const body = readFileSync(path.join(webDir, file.url.replace(/^\//, "")));
  const gzipped = gzipSync(body, { level: 9 }).length;
  rawTotal += body.length;
  gzipTotal += gzipped;
  console.log(
    `  ${file.kind.padEnd(13)} ${file.url.padEnd(40)} ${kb(body.length).padStart(7)} KB raw ${kb(gzipped).padStart(6)} KB gzip`,
  );
}
for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
  const href = attribute(tag, "href");
  if (href && attribute(tag, "rel") === "stylesheet" && !/^https?:/.test(href)) {
    const css = readFileSync(path.join(webDir, href.replace(/^\//, "")));
    console.log(`  (css, not counted) ${href}: ${kb(gzipSync(css, { level: 9 }).length)} KB gzip`);
  }
}
const within = gzipTotal <= BUDGET_KB * 1024;
console.log(
  `Total: ${kb(gzipTotal)} KB gzip (${kb(rawTotal)} KB raw), budget ${BUDGET_KB} KB: ${within ? "within" : "OVER"} (${((gzipTotal / (BUDGET_KB * 1024)) * 100).toFixed(0)}% of budget)`,
);
process.exit(within ? 0 : 1);
