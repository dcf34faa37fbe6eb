import cookie from "@fastify/cookie";
import fastifyPlugin from "fastify-plugin";
import { adminMount } from "./admin/routes.js";
import { originCheck } from "./auth/origin-check.js";
import { sessionPlugin } from "./auth/session.js";
import type { EmbeddedState } from "./platform/db/embedded-watch.js";
import type { Feature, ShopApp } from "./platform/feature.js";
import { healthRoutes } from "./platform/health.js";

/**
 * Mounts every feature's routes in its scope (platform/feature.ts): /api without cookies (health,
 * public reads, vendors' notifications); the cookie, origin check and session scope (/api, /api/admin
 * behind the admin guard, the PayFast emulator's pages); then the site outside /api, pages last.
 */
export async function mountFeatures(app: ShopApp, features: readonly Feature[], embeddedState: () => EmbeddedState) {
  const mount = (part: Exclude<keyof Feature, "name" | "setup" | "jobs">) =>
    features.flatMap((feature) => (feature[part] ? [feature[part]] : []));
  // The public reads and the vendors' notifications need no cookie and no session.
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { embeddedState });
      for (const routes of mount("publicRoutes")) await api.register(routes);
    },
    { prefix: "/api" },
  );
  // Everything that knows who is asking.
  await app.register(async (scope) => {
    await scope.register(cookie);
    await scope.register(originCheck);
    await scope.register(sessionPlugin);
    await scope.register(
      async (api) => {
        for (const routes of mount("routes")) await api.register(routes);
        await api.register(adminMount, { prefix: "/admin", routes: mount("adminRoutes") });
      },
      { prefix: "/api" },
    );
    for (const routes of mount("siteRoutesWithSession")) await scope.register(fastifyPlugin(routes));
  });
  // Outside /api, at the top (photos, the courier emulator); the storefront's pages last.
  for (const routes of mount("siteRoutes")) await app.register(fastifyPlugin(routes));
}
