#!/usr/bin/env node
// After `vite build`: writes .br and .gz beside every compressible file of dist/web, so the
// server sends them as they are (@fastify/static preCompressed) instead of compressing each
// request, which cost CPU and held hundreds of MB of zlib buffers under load.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = path.resolve(import.meta.dirname, "../dist/web");
const COMPRESSIBLE = new Set([".js", ".css", ".html", ".svg", ".txt", ".json", ".webmanifest"]);

let files = 0;
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (COMPRESSIBLE.has(path.extname(entry.name)) && statSync(full).size >= 512) {
      const data = readFileSync(full);
      writeFileSync(`${full}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      writeFileSync(`${full}.gz`, gzipSync(data, { level: 9 }));
      files++;
    }
  }
}
walk(root);
console.log(`precompressed ${files} files in dist/web`);
