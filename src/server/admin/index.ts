import type { Feature } from "../platform/feature.js";
import { compactOrderStats } from "./compact-order-stats.js";
import { adminDashboardRoutes } from "./dashboard.js";

/** The admin's dashboard (the guard over every admin route is admin/routes.ts, mounted by app.ts). */
export const admin: Feature = {
  name: "admin",
  adminRoutes: adminDashboardRoutes,
  // The dashboard's counters: folds what each order write appended (admin/compact-order-stats.ts).
  jobs: (app) => [
    { name: "compact-order-stats", everyMs: 60_000, run: async () => void (await compactOrderStats(app.db)) },
  ],
};
