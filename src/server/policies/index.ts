import { isDatabaseDown } from "../platform/errors.js";
import type { Feature } from "../platform/feature.js";
import { type PolicyFile, readPolicies } from "./content.js";
import { PolicyStore } from "./publish.js";
import { policyRoutes } from "./routes.js";

/**
 * The owner's policies: a changed file becomes a new version at start, before any order is taken
 * under it. With the database down the shop still starts; the first page or order that needs them
 * publishes. `files`: already read (main.ts reads them before opening the database); default CONTENT_DIR's.
 */
export const policies = (files?: readonly PolicyFile[]): Feature => ({
  name: "policies",
  setup: async (app) => {
    const store = new PolicyStore(app.db, files ?? readPolicies(app.config));
    app.decorate("policies", store);
    await store.current().catch((error: unknown) => {
      if (!isDatabaseDown(error)) throw error;
      app.log.warn({ err: error }, "policies not published yet: the database is down");
    });
  },
  publicRoutes: policyRoutes,
});
