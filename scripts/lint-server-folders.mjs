#!/usr/bin/env node
// `npm run lint`'s check of the server's floors (docs/architecture.md): no import cycle between the
// folders of src/server. Biome's noImportCycles finds cycles between files; this finds them between
// folders, where a cycle of files through three folders is none between files.
//
//   node scripts/lint-server-folders.mjs [repository root]
//
// Counts `import ... from`, `export ... from` and `import("...")` of relative and #server/ paths in
// the folder's non-test .ts files; `import type` and `export type` are erased at build, so they are
// not counted. Files directly in src/server (app.ts, main.ts, mount.ts, types.ts) and cli/ are the
// top of the house and may import anything. Exit 1 names each cycle and the imports that make it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const TOP = new Set(["(root)", "cli"]);

/** Every non-test .ts file under `dir`. */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The folder graph: folder → folder → the imports ("file -> specifier") that make the edge. */
export function folderGraph(serverRoot) {
  const folderOf = (file) => {
    const parts = path.relative(serverRoot, file).split(path.sep);
    return parts.length > 1 ? parts[0] : "(root)";
  };
  const edges = new Map();
  const statement =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
  for (const file of sourceFiles(serverRoot)) {
    const from = folderOf(file);
    if (TOP.has(from)) continue;
    for (const match of readFileSync(file, "utf8").matchAll(statement)) {
      if (match[2]) continue;
      const specifier = match[3] ?? match[4];
      let target;
      if (specifier.startsWith(".")) target = path.resolve(path.dirname(file), specifier);
      else if (specifier.startsWith("#server/")) target = path.join(serverRoot, specifier.slice("#server/".length));
      else continue;
      if (path.relative(serverRoot, target).startsWith("..")) continue;
      const to = folderOf(target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const why = edges.get(from).get(to) ?? [];
      why.push(`${path.relative(serverRoot, file)} -> ${specifier}`);
      edges.get(from).set(to, why);
    }
  }
  return edges;
}

/** The graph's cycles: each strongly connected group of two or more folders (Tarjan's algorithm). */
export function folderCycles(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return groups;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
  const edges = folderGraph(path.join(root, "src/server"));
  const cycles = folderCycles(edges);
  if (cycles.length === 0) process.exit(0);
  for (const group of cycles) {
    console.error(
      `src/server: the folders ${group.join(", ")} import each other (docs/architecture.md, "The floors"):`,
    );
    for (const from of group) {
      for (const [to, why] of edges.get(from) ?? []) {
        if (group.includes(to)) for (const line of why) console.error(`  ${from} -> ${to}: ${line}`);
      }
    }
  }
  console.error("Move the shared part down a floor, or hand the step down as a function (docs/architecture.md).");
  process.exit(1);
}
