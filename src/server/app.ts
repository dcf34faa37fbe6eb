import "./types.js";
import { randomUUID } from "node:crypto";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import helmet, { type HelmetOptions } from "helmet";
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
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    trustProxy: parseTrustProxy(config.trustProxy),
    bodyLimit: 100 * 1024,
    routerOptions: { maxParamLength: 200 },
    forceCloseConnections: false,
    return503OnClosing: true,
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
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  // External plugins first, then the app's services, then routes.
  // Security headers from helmet, built once: @fastify/helmet rebuilt the middleware on every
  // request, a third of the CPU of a cached catalogue read (docs/decisions/004-helmet-once.md).
  const securityHeaders = helmet(helmetOptions(config));
  app.addHook("onRequest", (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined)),
  );
  await app.register(compress, { threshold: 1024, encodings: ["br", "gzip"] });
  await app.register(cookie);
  await app.register(originCheck);
  await app.register(sessionPlugin);

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
      await api.register(authRoutes, { prefix: "/auth" });
      await api.register(userRoutes, { prefix: "/users" });
      await api.register(orderRoutes);
      await api.register(payfastRoutes, { prefix: "/payfast" });
      await api.register(adminRoutes, { prefix: "/admin" });
    },
    { prefix: "/api" },
  );
  if (config.payfast.mode === "local") {
    await app.register(payfastEmulator, { prefix: "/payfast-emulator" });
  }
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

/**
 * Security headers: a CSP with no inline script (the ad-conversion tag, when configured, loads
 * from its own file and Google's hosts), no framing, no MIME sniffing, a strict referrer policy,
 * and HSTS when the shop is served over https.
 */
function helmetOptions(config: Config): HelmetOptions {
  const payfastHosts =
    config.payfast.mode === "live"
      ? ["https://www.payfast.co.za"]
      : config.payfast.mode === "sandbox"
        ? ["https://sandbox.payfast.co.za"]
        : [];
  // Google's documented hosts for the Google Ads conversion tag (gtag.js).
  const ads = config.adConversionId
    ? {
        scripts: ["https://www.googletagmanager.com", "https://www.googleadservices.com", "https://www.google.com"],
        connect: [
          "https://www.google.com",
          "https://www.googleadservices.com",
          "https://googleads.g.doubleclick.net",
          "https://www.google-analytics.com",
        ],
        frames: ["https://www.googletagmanager.com", "https://td.doubleclick.net"],
      }
    : { scripts: [], connect: [], frames: [] };
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'", ...ads.scripts],
        "script-src-attr": ["'none'"],
        // Radix injects small <style> elements (scroll locking); styles cannot run code.
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "https:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'", ...ads.connect],
        "frame-src": ads.frames.length ? ads.frames : ["'none'"],
        "form-action": ["'self'", ...payfastHosts],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
        ...(config.secureCookies ? { "upgrade-insecure-requests": [] } : {}),
      },
    },
    hsts: config.secureCookies ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: "deny" as const },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" as const },
    crossOriginEmbedderPolicy: false,
  };
}
