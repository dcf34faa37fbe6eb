import type { Feature } from "../platform/feature.js";
import { anonymiseExpiredOrders, RETENTION_JOB } from "./retention.js";
import { privacyRoutes } from "./routes.js";

/** POPIA: the customer's data rights, marketing consent and retention (decision 015). */
export const privacy: Feature = {
  name: "privacy",
  routes: async (api) => void (await api.register(privacyRoutes, { prefix: "/account" })),
  jobs: (app) => [
    {
      // Orders' delivery details past RETENTION_YEARS (privacy/retention.ts): daily, and a minute after start.
      name: RETENTION_JOB,
      everyMs: 86_400_000,
      firstRunAfterMs: 60_000,
      run: async () =>
        void (await anonymiseExpiredOrders(app.db, {
          years: app.config.retentionYears,
          log: app.log,
          source: "retention job",
        })),
    },
  ],
};
