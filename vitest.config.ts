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
    // A worker runs its files one after another in one module graph, importing the code once
    // instead of once per file: about 40% off the API lane and half the unit lane (docs/testing.md).
    // Each API file still builds its own app on its own database copy. No module may keep state
    // from one file to the next: the web's page config was the one, and the test page renderer
    // gives each config its own copy of the web's modules (tests/helpers/page-renderer.ts).
    isolate: false,
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
