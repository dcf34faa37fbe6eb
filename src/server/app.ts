import "./types.js";
import { hostname } from "node:os";
import compress from "@fastify/compress";
import cookie from "@fastify/cookie";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyServerOptions } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type pg from "pg";
import { compactOrderStats } from "./admin/compact-order-stats.js";
import { adminRoutes } from "./admin/routes.js";
import { type Problem, raiseAlert, resolveAlert } from "./alerts/alerts.js";
import { ALERT_CHECK_JOB, checkAlerts } from "./alerts/checks.js";
import { instanceWatch } from "./alerts/instance-watch.js";
import { originCheck } from "./auth/origin-check.js";
import { pruneRateLimits } from "./auth/rate-limit.js";
import { authRoutes } from "./auth/routes.js";
import { sessionPlugin } from "./auth/session.js";
import { sealStoredTotpSecrets, totpKeys } from "./auth/totp-secrets.js";
import { BACKUP_JOB, runScheduledBackup } from "./backup/daily.js";
import { catalogRoutes } from "./catalog/routes.js";
import { courierApi, sendThroughApp } from "./delivery/couriers.js";
import { createDirectory } from "./delivery/directory.js";
import { createCourierEmulator } from "./delivery/emulator.js";
import { createDeliveryQuotes } from "./delivery/options.js";
import { pollOpenShipments } from "./delivery/poll.js";
import { deliveryRoutes } from "./delivery/routes.js";
import { trackingLinkKey } from "./delivery/tracking-links.js";
import { trackingPageRoutes, trackingWebhookRoutes } from "./delivery/tracking-routes.js";
import { type LaunchChecklistContent, readLaunchChecklist } from "./launch-checklist/content.js";
import { createMailer, SEND_EMAILS_JOB } from "./mail/mailer.js";
import { mediaRoutes } from "./media/routes.js";
import { mediaStore } from "./media/store.js";
import { expireOrders } from "./orders/cancel.js";
import { documentIssuer } from "./orders/issued-documents.js";
import { settleRequestedRefunds } from "./orders/refunds.js";
import { orderRoutes } from "./orders/routes.js";
import { loadBuiltRenderer, type PageRenderer } from "./pages/renderer.js";
import { pageRoutes } from "./pages/routes.js";
import { webRoutes } from "./pages/static-files.js";
import { type PayfastApi, payfastApiClient } from "./payfast/api-client.js";
import { createPayfastEmulator } from "./payfast/emulator.js";
import type { ResolveHost } from "./payfast/itn-sources.js";
import { trackPayfastProblem } from "./payfast/problems.js";
import { reconcilePayfast } from "./payfast/reconcile.js";
import { payfastRoutes } from "./payfast/routes.js";
import { planChargingJobs } from "./plans/jobs.js";
import { planLinkKey } from "./plans/links.js";
import { PLAN_NEXT_BOX_JOB, sendNextBoxNotices } from "./plans/next-box.js";
import { CANCEL_PLAN_TOKENS_JOB, sweepPlans } from "./plans/payfast-cancel.js";
import { planLinkRoutes, planRoutes } from "./plans/routes.js";
import { buildInfo } from "./platform/build-info.js";
import type { Config } from "./platform/config.js";
import type { Database } from "./platform/db/client.js";
import type { EmbeddedState } from "./platform/db/embedded-watch.js";
import { frameworkErrors, isDatabaseDown, registerErrorHandling } from "./platform/errors.js";
import { healthRoutes } from "./platform/health.js";
import { CatalogCache } from "./platform/http-cache/cache.js";
import { EarlyAnswers, serverAnsweringEarly } from "./platform/http-cache/early-answers.js";
import { JobsEngine, type RecurringJob } from "./platform/jobs/engine.js";
import { loggerOptions } from "./platform/log-errors.js";
import { metricsRoutes } from "./platform/metrics.js";
import { lazyChildLogger, requestIds, ShopLogController } from "./platform/request-logging.js";
import { securityHeaders } from "./platform/security-headers.js";
import { type PolicyFile, readPolicies } from "./policies/content.js";
import { PolicyStore } from "./policies/publish.js";
import { policyRoutes } from "./policies/routes.js";
import { anonymiseExpiredOrders, RETENTION_JOB } from "./privacy/retention.js";
import { privacyRoutes } from "./privacy/routes.js";
import { promoCheckRoutes } from "./promo/routes.js";
import { returnRoutes } from "./returns/routes.js";
import { childRoutes } from "./size-fit/children.js";
import { sizeFinderRoutes } from "./size-fit/finder.js";
import { sendBackInStock } from "./stock-alerts/notify.js";
import { endLapsedStockAlerts, stockAlertRoutes } from "./stock-alerts/routes.js";
import { stockAlertKey } from "./stock-alerts/tokens.js";
import { userRoutes } from "./users/routes.js";

export interface AppDependencies {
  config: Config;
  db: Database;
  pool: pg.Pool;
  databaseUrl: string;
  logger?: FastifyServerOptions["logger"];
  /** Looks up PayFast's host names for the ITN source check (tests pass a fake; default: system DNS). */
  resolvePayfastHost?: ResolveHost;
  /** Renders the storefront's pages (tests pass one built from the sources; default: the build's, when served). */
  pageRenderer?: PageRenderer | null;
  /** The policy files, already read (main.ts reads them before opening the database); default: read from CONTENT_DIR. */
  policies?: readonly PolicyFile[];
  /** The owner's "Before you open" (content/launch-checklist.md), already read; default: read from CONTENT_DIR. */
  launchChecklist?: LaunchChecklistContent;
  /** PayFast's API (tests of live mode pass a stand-in; default: the client for the configured mode). */
  payfastApi?: PayfastApi;
  /** The state of the embedded PostgreSQL this process owns and watches (main.ts); `/health/live` reads it. */
  embeddedState?: () => EmbeddedState;
  /** This process's clock, compared with the database's by the instance checks (tests move it; default Date.now). */
  clock?: () => number;
}

/** Builds the whole app from its config and database; main.ts starts it, tests build their own. */
export async function buildApp({
  config,
  db,
  pool,
  databaseUrl,
  logger,
  resolvePayfastHost,
  pageRenderer,
  policies,
  launchChecklist,
  payfastApi = payfastApiClient(config),
  embeddedState = () => "up",
  clock = Date.now,
}: AppDependencies) {
  const { trustProxy } = config;
  const requestId = requestIds();
  // Cached answers given before routing (platform/http-cache/early-answers.ts), made once the cache is.
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
  app.decorate("media", mediaStore(config.media));
  // The owner's policies: a changed file becomes a new version now, before any order is taken under
  // it. With the database down the shop still starts; the first page or order that needs them publishes.
  const policyStore = new PolicyStore(db, policies ?? readPolicies(config));
  app.decorate("policies", policyStore);
  await policyStore.current().catch((error: unknown) => {
    if (!isDatabaseDown(error)) throw error;
    app.log.warn({ err: error }, "policies not published yet: the database is down");
  });
  app.decorate("launchChecklist", launchChecklist ?? readLaunchChecklist(config));
  // Admins' TOTP secrets are sealed with a key kept outside the database: any stored plain (before
  // decision 040) or under the previous key is sealed with the current one now.
  const secondFactorKeys = totpKeys(config);
  app.decorate("totpKeys", secondFactorKeys);
  await sealStoredTotpSecrets(db, secondFactorKeys, app.log).catch((error: unknown) => {
    if (!isDatabaseDown(error)) throw error;
    app.log.warn({ err: error }, "TOTP secrets not checked: the database is down");
  });
  const catalogCache = new CatalogCache(databaseUrl, app.log, config.pageCacheBytes);
  app.decorate("catalogCache", catalogCache);
  app.addHook("onReady", () => catalogCache.start());
  app.addHook("onClose", () => catalogCache.close());
  // Every answer carries the security headers and its request id, set by one hook. The cached answers
  // given before routing (platform/http-cache/early-answers.ts) never meet a hook: they take the same headers
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
  // Couriers, lockers and pickup points behind one interface (src/server/delivery/README.md).
  // The emulator posts its tracking webhooks to the shop through the app itself, as the vendors post over HTTPS.
  const courierEmulator =
    config.courier.mode === "local"
      ? createCourierEmulator(config.courier.tokens, () => ({
          secret: config.courier.webhookSecret,
          paths: { shiplogic: "/api/delivery/webhooks/shiplogic", tcg_locker: "/api/delivery/webhooks/tcg-locker" },
          post: async (url, payload, headers) =>
            (await app.inject({ method: "POST", url, payload, headers })).statusCode,
        }))
      : null;
  const couriers = courierApi(config, courierEmulator ? sendThroughApp(app) : fetch);
  const directory = createDirectory(couriers, app.log);
  app.decorate("delivery", {
    quotes: createDeliveryQuotes({ db, config, api: couriers, directory, log: app.log }),
    directory,
    emulator: courierEmulator,
    api: couriers,
  });
  const tracking = {
    db,
    shopName: config.shop.name,
    publicUrl: config.publicUrl,
    linkKey: trackingLinkKey(db),
  };
  app.decorate("tracking", tracking);
  app.decorate("pollTracking", async () => {
    const polled = await pollOpenShipments({ ...tracking, api: couriers, log: app.log });
    if (polled.added > 0) app.mail.wake();
    return polled;
  });
  // PayFast's API behind one client; the reconciliation sweep asks it about orders whose notification never came.
  app.decorate("payfastApi", payfastApi);
  const reconcileEveryMs = config.payfast.reconcileMinutes * 60_000;
  app.decorate("reconcilePayfast", (orderIds?: readonly string[]) =>
    reconcilePayfast(
      {
        db,
        api: payfastApi,
        log: app.log,
        everyMs: reconcileEveryMs,
        shopName: config.shop.name,
        issuer: documentIssuer(config),
      },
      orderIds,
    ),
  );
  // Unpaid orders give their stock back after ORDER_HOLD_MINUTES.
  const holdMs = config.orderHoldMinutes * 60_000;
  app.decorate("expireOrders", () => expireOrders(db, config.orderHoldMinutes));
  // Messages to customers: written to the outbox with their events, sent (or captured) by a job.
  const mail = createMailer(config, db, app.log);
  // Sizes back on the shelf other than by the admin's product form (a released hold, a refund or a
  // return restocked): their back-in-stock alerts, by the sweep below (stock-alerts/notify.ts).
  const alertKey = stockAlertKey(db);
  const shopFacts = { publicUrl: config.publicUrl, name: config.shop.name };
  app.decorate("sendBackInStock", async () => {
    const sent = await db.transaction(async (tx) => sendBackInStock(tx, null, shopFacts, await alertKey()));
    if (sent > 0) app.mail.wake();
    return sent;
  });
  // The recurring jobs, on pg-boss: one instance runs each run (jobs/README.md).
  const planKey = planLinkKey(db);
  app.decorate("sendPlanNotices", async (today?: string) => {
    const written = await sendNextBoxNotices(db, shopFacts, await planKey(), today);
    if (written > 0) app.mail.wake();
    return written;
  });
  app.decorate("sweepPlans", () => sweepPlans(db, payfastApi, app.log));
  // The charging round, its reconciliation and the daily token check (plans/jobs.ts).
  const planCharging = planChargingJobs({
    db,
    pool,
    api: payfastApi,
    log: app.log,
    config,
    policies: () => app.policies.current(),
    reconcile: (orderIds) => app.reconcilePayfast(orderIds),
    wakeMail: () => app.mail.wake(),
  });
  app.decorate("plans", planCharging.run);
  const recurring: RecurringJob[] = [
    { name: SEND_EMAILS_JOB, everyMs: 5_000, run: async () => void (await mail.deliverDue()) },
    {
      name: "payfast-reconcile",
      everyMs: reconcileEveryMs,
      run: async () => {
        try {
          // A refund left in doubt (PayFast did not answer) is settled from PayFast's balance, then payments are
          // matched: always, so a refund PayFast will not answer about never keeps a payment from being booked.
          const unsettled = await settleRequestedRefunds({
            db,
            api: payfastApi,
            log: app.log,
            shopName: config.shop.name,
            issuer: documentIssuer(config),
          }).then(
            () => null,
            (error: unknown) => error,
          );
          await app.reconcilePayfast();
          // Nappy plan charges PayFast did not answer about (plans/reconcile-charges.ts).
          await app.plans.settleCharges();
          if (unsettled) throw unsettled;
        } catch (error) {
          const detail = `PayFast's API did not answer the reconciliation (${error instanceof Error ? error.message : String(error)}). Payments whose notification did not arrive or could not be confirmed wait until it answers; check them in your PayFast dashboard.`;
          await trackPayfastProblem(db, app.log, "api", { ok: false, detail });
          throw error;
        }
        await trackPayfastProblem(db, app.log, "api", { ok: true });
      },
    },
    // Tracking events a lost webhook never brought (delivery/poll.ts): every hour.
    { name: "delivery-tracking", everyMs: 3_600_000, run: async () => void (await app.pollTracking()) },
    // The dashboard's counters: folds what each order write appended (admin/compact-order-stats.ts).
    { name: "compact-order-stats", everyMs: 60_000, run: async () => void (await compactOrderStats(db)) },
    // Rate-limit windows long past (auth/rate-limit.ts), out of the requests' way.
    { name: "prune-rate-limits", everyMs: 15 * 60_000, run: async () => void (await pruneRateLimits(db)) },
    {
      name: "expire-orders",
      // Often enough that an order expires within a quarter of its hold, and at least once a minute.
      everyMs: Math.min(60_000, Math.max(1_000, holdMs / 4)),
      run: async () => {
        const expired = await app.expireOrders();
        if (expired > 0) app.log.info({ expired }, "unpaid orders expired");
      },
    },
    {
      name: "back-in-stock",
      everyMs: 60_000,
      run: async () => {
        const sent = await app.sendBackInStock();
        if (sent > 0) app.log.info({ sent }, "back-in-stock alerts sent");
        // Alerts never confirmed within STOCK_ALERT_CONFIRM_HOURS end, freeing their place.
        const lapsed = await endLapsedStockAlerts(db);
        if (lapsed > 0) app.log.info({ lapsed }, "unconfirmed back-in-stock alerts lapsed");
      },
    },
    {
      // Nappy plans (plans/payfast-cancel.ts): tokens of cancelled plans ended at PayFast, unpaid plans ended, pauses over.
      name: CANCEL_PLAN_TOKENS_JOB,
      everyMs: 5 * 60_000,
      run: async () => void (await app.sweepPlans()),
    },
    ...planCharging.jobs,
    {
      // "Your next box" e-mails (plans/next-box.ts): every PLAN_NOTICE_MINUTES (hourly), once per plan
      // and date, and a minute after start (sooner when the interval is shorter).
      name: PLAN_NEXT_BOX_JOB,
      everyMs: config.planNoticeMinutes * 60_000,
      firstRunAfterMs: Math.min(60_000, config.planNoticeMinutes * 60_000),
      run: async () => {
        const written = await app.sendPlanNotices();
        if (written > 0) app.log.info({ written }, "plan next-box e-mails written");
      },
    },
    {
      // Orders' delivery details past RETENTION_YEARS (privacy/retention.ts): daily, and a minute after start.
      name: RETENTION_JOB,
      everyMs: 86_400_000,
      firstRunAfterMs: 60_000,
      run: async () =>
        void (await anonymiseExpiredOrders(db, {
          years: config.retentionYears,
          log: app.log,
          source: "retention job",
        })),
    },
  ];
  // The scheduled backup (docs/backups.md): every BACKUP_EVERY_HOURS at BACKUP_MINUTE past the hour, checked
  // every minute by each instance; the job's lock and backup_runs make it one backup, on one instance.
  if (config.backup.everyHours > 0) {
    recurring.push({
      name: BACKUP_JOB,
      everyMs: 60_000,
      run: async () => {
        const made = await runScheduledBackup({
          pool,
          databaseUrl,
          ...config.backup,
          warn: (detail, message) => app.log.warn(detail, message),
        });
        if (made) app.log.info({ file: made.file, bytes: made.bytes, copy: made.copy }, "backup written");
        if (made?.copy?.error) app.log.error({ key: made.copy.key, reason: made.copy.error }, "backup copy failed");
      },
    });
  }
  // The owner's alerts (docs/operations.md): raised and resolved by raiseAlert/resolveAlert, checked every ALERT_CHECK_MINUTES.
  const alertContext = { db, pool, config, wake: () => void jobs.request(SEND_EMAILS_JOB) };
  app.decorate("alerts", {
    raise: (key: string, problem: Problem) => raiseAlert(alertContext, key, problem),
    resolve: (key: string) => resolveAlert(alertContext, key),
  });
  app.decorate("checkAlerts", () => checkAlerts({ ...alertContext, jobNames: jobs.names }));
  if (config.alerts.checkMinutes > 0) {
    recurring.push({
      name: ALERT_CHECK_JOB,
      everyMs: config.alerts.checkMinutes * 60_000,
      run: async () => {
        const { raised, resolved } = await app.checkAlerts();
        if (raised.length > 0 || resolved.length > 0) app.log.warn({ raised, resolved }, "owner alerts changed");
      },
    });
  }
  const jobs = new JobsEngine(pool, app.log, recurring);
  app.decorate("jobs", jobs);
  // Each instance's own checks, off the jobs engine: the engine itself, and this clock against the database's.
  const watch = instanceWatch({
    ...alertContext,
    instance: `${hostname()}:${config.port}`,
    jobsRunning: () => jobs.running,
    now: clock,
    log: app.log,
  });
  app.decorate("checkInstance", watch.check);
  if (config.alerts.checkMinutes > 0) {
    app.addHook("onReady", async () => watch.start(config.alerts.checkMinutes * 60_000));
    app.addHook("onClose", async () => watch.stop());
  }
  // Live: PayFast's API must answer our signature before the first sale needs it (a refund, a lost notification).
  if (config.payfast.mode === "live") {
    const startCheck = async () => {
      try {
        await payfastApi.ping();
        app.log.info("PayFast's API answered the start check (ping)");
        await trackPayfastProblem(db, app.log, "ping", { ok: true });
      } catch (error) {
        const detail = `PayFast's API did not answer the shop's start check (GET /ping: ${error instanceof Error ? error.message : String(error)}). Refunds and the search for lost payments need it: check the merchant ID, the passphrase and that the API is enabled on your PayFast account.`;
        app.log.error({ err: error }, "PayFast's API failed the start check (ping)");
        // In "Needs attention", and mailed to the owner by the next alert check (alerts/checks.ts).
        await trackPayfastProblem(db, app.log, "ping", { ok: false, detail });
      }
    };
    // Not awaited: the shop starts whatever PayFast answers (in at most the client's 15 s).
    app.addHook("onReady", async () => void startCheck());
  }
  app.decorate("mail", { deliverDue: mail.deliverDue, wake: () => void jobs.request(SEND_EMAILS_JOB) });
  app.addHook("onClose", async () => mail.close());
  app.addHook("onReady", async () => jobs.start());
  app.addHook("onClose", () => jobs.stop());
  await app.register(compress, { threshold: 1024, encodings: ["br", "gzip"] });
  // Prometheus metrics, only with METRICS_TOKEN (docs/operations.md); its hook times every route.
  if (config.metricsToken) await app.register(fastifyPlugin(metricsRoutes), { token: config.metricsToken });

  // The public reads (health, the cached catalogue) need no cookie and no session, so they live
  // outside the scope whose hooks parse cookies, check origins and load sessions.
  await app.register(
    async (api) => {
      api.get("/health", async (_request, reply) => {
        try {
          await db.execute(sql`select 1`);
          return { status: "ok", database: "up", ...buildInfo() };
        } catch (error) {
          app.log.error({ err: error }, "health check: database down");
          return reply.status(503).send({
            message: "The database is unavailable",
            code: "SERVICE_UNAVAILABLE",
            database: "down",
            ...buildInfo(),
          });
        }
      });
      await api.register(healthRoutes, { embeddedState });
      await api.register(catalogRoutes);
      await api.register(policyRoutes);
      // PayFast's notifications are server-to-server: no cookie, no browser cross-site check.
      await api.register(payfastRoutes, { prefix: "/payfast", resolveHost: resolvePayfastHost });
      // Delivery options and points: priced from the cart and address alone, no session needed.
      await api.register(deliveryRoutes, { prefix: "/delivery" });
      // The couriers' tracking webhooks: signed, read as text before anything is parsed.
      await api.register(trackingWebhookRoutes, { prefix: "/delivery" });
    },
    { prefix: "/api" },
  );
  // The couriers' stand-in (COURIER_MODE=local): outside the cookie scope, as the vendors are.
  if (app.delivery.emulator) await app.register(app.delivery.emulator.plugin, { prefix: "/courier-emulator" });

  // Photos' renditions: public, cookie-less and cached for a year.
  await app.register(mediaRoutes, { store: app.media });

  // Everything that knows who is asking.
  await app.register(async (scope) => {
    await scope.register(cookie);
    await scope.register(originCheck);
    await scope.register(sessionPlugin);
    await scope.register(
      async (api) => {
        await api.register(authRoutes, { prefix: "/auth" });
        await api.register(userRoutes, { prefix: "/users" });
        await api.register(childRoutes, { prefix: "/users" });
        await api.register(planRoutes, { prefix: "/users" });
        await api.register(planLinkRoutes, { prefix: "/plan-links" });
        await api.register(sizeFinderRoutes);
        await api.register(privacyRoutes, { prefix: "/account" });
        await api.register(orderRoutes);
        await api.register(trackingPageRoutes);
        await api.register(promoCheckRoutes);
        await api.register(returnRoutes);
        await api.register(stockAlertRoutes, { prefix: "/stock-alerts" });
        await api.register(adminRoutes, { prefix: "/admin" });
      },
      { prefix: "/api" },
    );
    if (config.payfast.mode === "local") {
      const emulator = createPayfastEmulator(db, config, app.log);
      app.decorate("payfastEmulator", emulator);
      app.addHook("onReady", () => emulator.start());
      app.addHook("onClose", () => emulator.close());
      await scope.register(emulator.plugin, { prefix: "/payfast-emulator" });
    }
  });
  // The storefront's pages rendered on the server (and sitemap, robots), then the built files.
  const renderer =
    pageRenderer !== undefined ? pageRenderer : config.serveStatic ? await loadBuiltRenderer(config) : null;
  await app.register(pageRoutes, { renderer });
  await app.register(webRoutes);

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
