import "./types.js";
import { admin } from "./admin/index.js";
import { alerts } from "./alerts/index.js";
import { audit } from "./audit/index.js";
import { auth } from "./auth/index.js";
import { catalog } from "./catalog/index.js";
import { checkout } from "./checkout/index.js";
import { delivery } from "./delivery/index.js";
import { launchChecklist } from "./launch-checklist/index.js";
import { mail } from "./mail/index.js";
import { media } from "./media/index.js";
import { mountFeatures } from "./mount.js";
import { orders } from "./orders/index.js";
import { pages } from "./pages/index.js";
import { type PayfastOptions, payfast } from "./payfast/index.js";
import { type PaymentsOptions, payments } from "./payments/index.js";
import { plans } from "./plans/index.js";
import { backup } from "./platform/backup/index.js";
import type { EmbeddedState } from "./platform/db/embedded-watch.js";
import type { Feature } from "./platform/feature.js";
import { JobsEngine } from "./platform/jobs/engine.js";
import { createServer, type ServerParts } from "./platform/server.js";
import { policies } from "./policies/index.js";
import { privacy } from "./privacy/index.js";
import { promo } from "./promo/index.js";
import { returns } from "./returns/index.js";
import { sizeFit } from "./size-fit/index.js";
import { stockAlerts } from "./stock-alerts/index.js";
import { users } from "./users/index.js";

/** What the app is built from: main.ts gives the real ones, tests their own (a fake DNS, a PayFast stand-in, ...). */
export interface AppDependencies extends ServerParts {
  payfastApi?: PayfastOptions["api"];
  resolvePayfastHost?: PaymentsOptions["resolveHost"];
  /** The storefront's renderer; default: the build's, when served. */
  pageRenderer?: Parameters<typeof pages>[0];
  /** The policy files and "Before you open", already read (main.ts); default: read from CONTENT_DIR. */
  policies?: Parameters<typeof policies>[0];
  launchChecklist?: Parameters<typeof launchChecklist>[0];
  /** The embedded PostgreSQL's state (main.ts watches it); `/health/live` reads it. */
  embeddedState?: () => EmbeddedState;
  /** This process's clock, compared with the database's (alerts/instance-watch.ts); default Date.now. */
  clock?: () => number;
}

/** Builds the whole app: the platform's server, then each feature (its index.ts) set up and mounted in turn. */
export async function buildApp(deps: AppDependencies) {
  const app = await createServer(deps);
  // In order: a feature's setup may use what an earlier one decorated (platform/feature.ts).
  const features: Feature[] = [
    media,
    policies(deps.policies),
    launchChecklist(deps.launchChecklist),
    auth,
    mail,
    delivery,
    payfast({ api: deps.payfastApi }),
    orders,
    checkout,
    stockAlerts,
    plans,
    catalog,
    users,
    sizeFit,
    privacy,
    promo,
    returns,
    payments({ resolveHost: deps.resolvePayfastHost }),
    audit,
    admin,
    backup(deps.databaseUrl),
    alerts(deps.clock),
    pages(deps.pageRenderer),
  ];
  for (const feature of features) await feature.setup?.(app);
  // The recurring jobs on pg-boss: one instance runs each run (platform/jobs/README.md).
  const jobs = new JobsEngine(
    deps.pool,
    app.log,
    features.flatMap((feature) => feature.jobs?.(app) ?? []),
  );
  app.decorate("jobs", jobs);
  app.addHook("onReady", async () => jobs.start());
  app.addHook("onClose", () => jobs.stop());

  await mountFeatures(app, features, deps.embeddedState ?? (() => "up"));
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
