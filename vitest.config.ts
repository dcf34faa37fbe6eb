import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "tests/api/**/*.test.ts"],
    globalSetup: ["tests/setup/global-db.ts"],
    setupFiles: ["tests/setup/one-query-at-a-time.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
