import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import type { RecurringJob } from "./jobs/engine.js";

/** The app as the features see it: Fastify with zod schemas, decorated by each feature's setup (types.ts). */
export type ShopApp = FastifyInstance<
  RawServerDefault,
  // biome-ignore lint/suspicious/noExplicitAny: Fastify's own defaults for request and reply.
  any,
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  any,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * What a feature folder gives the app (its `index.ts`); app.ts lists the features and mounts them
 * (docs/architecture.md). Every part is optional:
 * - `setup` decorates the app with what the feature's routes, jobs and tests reach (`app.delivery`,
 *   `app.plans`, ...) and adds its hooks; setups run in the order app.ts lists the features, before
 *   any route is registered, so a feature reaches only what an earlier one set up.
 * - `publicRoutes`: under /api with no cookie and no session (public reads, vendors' notifications).
 * - `routes`: under /api after the cookie, the origin check and the session.
 * - `adminRoutes`: under /api/admin, behind the admin guard (admin/routes.ts).
 * - `siteRoutes`: outside /api with no cookie (photos, the courier emulator, the storefront's pages);
 *   `siteRoutesWithSession`: outside /api with the session (the PayFast emulator's pages).
 * - `jobs`: its recurring jobs, run by the one jobs engine (platform/jobs/engine.ts) once the app is ready.
 */
export interface Feature {
  name: string;
  setup?: (app: ShopApp) => void | Promise<void>;
  publicRoutes?: FastifyPluginAsyncZod;
  routes?: FastifyPluginAsyncZod;
  adminRoutes?: FastifyPluginAsyncZod;
  siteRoutes?: FastifyPluginAsyncZod;
  siteRoutesWithSession?: FastifyPluginAsyncZod;
  jobs?: (app: ShopApp) => RecurringJob[];
}
