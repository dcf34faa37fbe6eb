import { isDatabaseDown } from "../platform/errors.js";
import type { Feature } from "../platform/feature.js";
import { adminSecondFactorRoutes } from "./admin-second-factor.js";
import { pruneRateLimits } from "./rate-limit.js";
import { authRoutes } from "./routes.js";
import { sealStoredTotpSecrets, totpKeys } from "./totp-secrets.js";

/** Sign-up, login, sessions, passwords and admins' second factor (auth/README.md). */
export const auth: Feature = {
  name: "auth",
  // Admins' TOTP secrets are sealed with a key kept outside the database: any stored plain (before
  // decision 040) or under the previous key is sealed with the current one now.
  setup: async (app) => {
    const keys = totpKeys(app.config);
    app.decorate("totpKeys", keys);
    await sealStoredTotpSecrets(app.db, keys, app.log).catch((error: unknown) => {
      if (!isDatabaseDown(error)) throw error;
      app.log.warn({ err: error }, "TOTP secrets not checked: the database is down");
    });
  },
  routes: async (api) => void (await api.register(authRoutes, { prefix: "/auth" })),
  adminRoutes: adminSecondFactorRoutes,
  // Rate-limit windows long past (auth/rate-limit.ts), out of the requests' way.
  jobs: (app) => [
    { name: "prune-rate-limits", everyMs: 15 * 60_000, run: async () => void (await pruneRateLimits(app.db)) },
  ],
};
