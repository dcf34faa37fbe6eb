import "./types.js";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type pg from "pg";
import { adminRoutes } from "./admin/routes.js";
import { originCheck } from "./auth/origin-check.js";
import { authRoutes } from "./auth/routes.js";
import { sessionPlugin } from "./auth/session.js";
import { CatalogCache } from "./catalog/cache.js";
import { catalogRoutes } from "./catalog/routes.js";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import { registerErrorHandling } from "./errors.js";
import { orderRoutes } from "./orders/routes.js";
import { payfastEmulator } from "./payfast/emulator.js";
import { payfastRoutes } from "./payfast/routes.js";
import { lazyChildLogger, requestIds, ShopLogController } from "./request-logging.js";
import { securityHeaders } from "./security-headers.js";
import { userRoutes } from "./users/routes.js";
import { webRoutes } from "./web.js";

export interface AppDependencies {
  config: Config;
  db: Database;
  pool: pg.Pool;
  databaseUrl: string;
  logger?: FastifyServerOptions["logger"];
}

/** Builds the whole app from its config and database; main.ts starts it, tests build their own. */
export async function buildApp({ config, db, pool, databaseUrl, logger }: AppDependencies) {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    genReqId: requestIds(),
    requestIdHeader: false,
    trustProxy: parseTrustProxy(config.trustProxy),
    bodyLimit: 100 * 1024,
    routerOptions: { maxParamLength: 200 },
    forceCloseConnections: false,
    return503OnClosing: true,
    // One access line per request instead of Fastify's two, and a request's logger made only when it logs.
    logController: new ShopLogController(),
    childLoggerFactory: lazyChildLogger,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  app.decorate("config", config);
  app.decorate("db", db);
  app.decorate("pool", pool);
  const catalogCache = new CatalogCache(databaseUrl, app.log);
  app.decorate("catalogCache", catalogCache);
  app.addHook("onReady", () => catalogCache.start());
  app.addHook("onClose", () => catalogCache.close());
  // Every answer carries the security headers and its request id, set by one hook.
  const headers = securityHeaders(config);
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(request.url.startsWith("/api/") ? headers.api : headers.page).header("x-request-id", request.id);
    done();
  });
  await app.register(compress, { threshold: 1024, encodings: ["br", "gzip"] });

  // The public reads (health, the cached catalogue) need no cookie and no session, so they live
  // outside the scope whose hooks parse cookies, check origins and load sessions.
  await app.register(
    async (api) => {
      api.get("/health", async (_request, reply) => {
        try {
          await db.execute(sql`select 1`);
          return { status: "ok", database: "up" };
        } catch (error) {
          app.log.error({ err: error }, "health check: database down");
          return reply.status(503).send({ message: "The database is unavailable", database: "down" });
        }
      });
      await api.register(catalogRoutes);
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
        await api.register(authRoutes, { prefix: "/auth" });
        await api.register(userRoutes, { prefix: "/users" });
        await api.register(orderRoutes);
        await api.register(payfastRoutes, { prefix: "/payfast" });
        await api.register(adminRoutes, { prefix: "/admin" });
      },
      { prefix: "/api" },
    );
    if (config.payfast.mode === "local") {
      await scope.register(payfastEmulator, { prefix: "/payfast-emulator" });
    }
  });
  await app.register(webRoutes);

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/** TRUST_PROXY: "true" (trust every hop) or a comma-separated list of proxy addresses or CIDR ranges. */
function parseTrustProxy(value: string | undefined): boolean | string[] {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}
