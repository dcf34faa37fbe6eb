import compress from "@fastify/compress";
import Fastify, { type FastifyServerOptions } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type pg from "pg";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import { frameworkErrors, registerErrorHandling } from "./errors.js";
import { CatalogCache } from "./http-cache/cache.js";
import { EarlyAnswers, serverAnsweringEarly } from "./http-cache/early-answers.js";
import { loggerOptions } from "./log-errors.js";
import { metricsRoutes } from "./metrics.js";
import { lazyChildLogger, requestIds, ShopLogController } from "./request-logging.js";
import { securityHeaders } from "./security-headers.js";

export interface ServerParts {
  config: Config;
  db: Database;
  pool: pg.Pool;
  databaseUrl: string;
  logger?: FastifyServerOptions["logger"];
}

/**
 * Fastify as the shop runs it: zod schemas, the error contract, one access line per request, the
 * security headers and request id on every answer, the response cache and the cached answers given
 * before routing, compression, and the metrics when METRICS_TOKEN is set. Decorated with config,
 * db and pool; the features add the rest (app.ts).
 */
export async function createServer({ config, db, pool, databaseUrl, logger }: ServerParts) {
  const { trustProxy } = config;
  const requestId = requestIds();
  // Cached answers given before routing (http-cache/early-answers.ts), made once the cache is.
  let earlyAnswers: EarlyAnswers | undefined;
  const app = Fastify({
    serverFactory: serverAnsweringEarly(() => earlyAnswers),
    logger: loggerOptions(logger, config.logLevel),
    genReqId: requestId,
    requestIdHeader: false,
    // The proxies' addresses and ranges, already checked by loadConfig (never every hop, never a hop count).
    // A hop count trusts the nearest N addresses (Fastify 5 takes no number, so it is a function here).
    trustProxy: typeof trustProxy === "number" ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: 100 * 1024,
    routerOptions: { maxParamLength: 200 },
    forceCloseConnections: false,
    // registerErrorHandling answers 503 with a code while the server closes (Fastify's own answer has none).
    return503OnClosing: false,
    frameworkErrors,
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
  const catalogCache = new CatalogCache(databaseUrl, app.log, config.pageCacheBytes);
  app.decorate("catalogCache", catalogCache);
  app.addHook("onReady", () => catalogCache.start());
  app.addHook("onClose", () => catalogCache.close());
  // Every answer carries the security headers and its request id, set by one hook. The cached answers
  // given before routing (http-cache/early-answers.ts) never meet a hook: they take the same headers
  // and ids here, and anything added to every answer must be added there too (decision 034).
  const headers = securityHeaders(config);
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(headers.forUrl(request.url)).header("x-request-id", request.id);
    done();
  });
  earlyAnswers = new EarlyAnswers({ cache: catalogCache, headersFor: headers.forUrl, requestId, log: app.log });
  app.decorate("earlyAnswers", earlyAnswers);
  app.addHook("preClose", (done) => {
    earlyAnswers?.close();
    done();
  });
  await app.register(compress, { threshold: 1024, encodings: ["br", "gzip"] });
  // Prometheus metrics, only with METRICS_TOKEN (docs/operations.md); its hook times every route.
  if (config.metricsToken) await app.register(fastifyPlugin(metricsRoutes), { token: config.metricsToken });
  return app;
}
