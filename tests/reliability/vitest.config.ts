import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The fault suite (`npm run test:faults`): real `node dist/server/main.js` processes, killed,
 * restarted and starved of their database. One file at a time: each runs its own servers and
 * PostgreSQL clusters on a two-core machine.
 */
export default defineConfig({
  root,
  test: {
    include: ["tests/reliability/**/*.test.ts"],
    globalSetup: ["tests/reliability/build-server.ts"],
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 180_000,
    reporters: ["default"],
  },
});
