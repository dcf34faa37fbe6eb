import { defineConfig } from "vitest/config";

/**
 * Two lanes (docs/testing.md): `unit`, the rules beside the code in src/, with no database and no
 * server (`npm run test:unit`, seconds); `api`, the HTTP tests in tests/api/ on a real PostgreSQL
 * (`npm run test:api`). `vitest run` runs both.
 */
export default defineConfig({
  test: {
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    projects: [
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          globalSetup: ["tests/setup/global-db.ts"],
          setupFiles: ["tests/setup/one-query-at-a-time.ts"],
        },
      },
    ],
  },
});
