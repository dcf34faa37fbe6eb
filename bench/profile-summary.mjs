#!/usr/bin/env node
// Summarises a V8 CPU profile (a `.cpuprofile`, as BENCH_PROFILE=<dir> writes for the benchmark's
// server) as two tables: the functions the samples were in (self time) and the functions on the
// stack (inclusive time, each function counted once per sample however deep it recurses). Idle
// time is left out of the percentages.
//
//   node bench/profile-summary.mjs <file.cpuprofile> [--top=30] [--requests=N]
//
// --requests=N divides by the requests the run served and prints microseconds per request instead
// of percentages: two profiles (the app's route, the bare route) can then be read side by side.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "30" }, requests: { type: "string" } },
});
if (positionals.length !== 1) {
  console.error("usage: node bench/profile-summary.mjs <file.cpuprofile> [--top=30] [--requests=N]");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0], "utf8"));
const top = Number(args.top);
const requests = args.requests === undefined ? null : Number(args.requests);

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

/** A function's name and where it is: the last two parts of its file and its line (1-based). */
const nameOf = ({ callFrame: { functionName, url, lineNumber } }) =>
  `${functionName || "(anonymous)"} ${url ? `${url.split("/").slice(-2).join("/")}:${lineNumber + 1}` : ""}`.trim();

const self = new Map();
const inclusive = new Map();
let busy = 0;
profile.samples.forEach((id, index) => {
  const micros = profile.timeDeltas[index] ?? 0;
  const leaf = nodes.get(id);
  if (leaf.callFrame.functionName === "(idle)") return;
  busy += micros;
  const name = nameOf(leaf);
  self.set(name, (self.get(name) ?? 0) + micros);
  const seen = new Set();
  for (let current = id; current !== undefined; current = parentOf.get(current)) {
    const frame = nameOf(nodes.get(current));
    if (seen.has(frame)) continue;
    seen.add(frame);
    inclusive.set(frame, (inclusive.get(frame) ?? 0) + micros);
  }
});

const shown = (micros) =>
  requests ? `${(micros / requests).toFixed(2).padStart(8)} us` : `${((micros / busy) * 100).toFixed(1).padStart(5)}%`;
function table(title, totals) {
  console.log(`\n${title}`);
  for (const [name, micros] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${shown(micros)}  ${name}`);
  }
}

console.log(
  `busy ${(busy / 1000).toFixed(0)} ms of ${(profile.timeDeltas.reduce((a, b) => a + b, 0) / 1000).toFixed(0)} ms sampled` +
    (requests ? `, ${(busy / requests).toFixed(1)} us per request over ${requests} requests` : ""),
);
table("self (where the samples were)", self);
table("inclusive (on the stack)", inclusive);
