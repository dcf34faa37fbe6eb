import type pg from "pg";
import type { Problem } from "./alerts/alerts.js";
import type { SessionUser } from "./auth/guards.js";
import type { TotpKeys } from "./auth/totp-secrets.js";
import type { CourierApi } from "./delivery/courier-api.js";
import type { Directory } from "./delivery/directory.js";
import type { CourierEmulator } from "./delivery/emulator.js";
import type { DeliveryQuotes } from "./delivery/options.js";
import type { TrackingContext } from "./delivery/tracking.js";
import type { LaunchChecklistContent } from "./launch-checklist/content.js";
import type { Mail } from "./mail/mailer.js";
import type { MediaStore } from "./media/store.js";
import type { PayfastApi } from "./payfast/api-client.js";
import type { PayfastEmulator } from "./payfast/emulator.js";
import type { bookPayment } from "./payments/book-payment.js";
import type { ReconcileFinding } from "./payments/reconcile.js";
import type { PlanChargingRuns } from "./plans/jobs.js";
import type { Config } from "./platform/config.js";
import type { Database } from "./platform/db/client.js";
import type { CatalogCache } from "./platform/http-cache/cache.js";
import type { EarlyAnswers } from "./platform/http-cache/early-answers.js";
import type { JobsEngine } from "./platform/jobs/engine.js";
import type { PolicyStore } from "./policies/publish.js";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    db: Database;
    pool: pg.Pool;
    catalogCache: CatalogCache;
    /** Cached GET answers given before routing (platform/http-cache/early-answers.ts): answerCached tells it what to answer. */
    earlyAnswers: EarlyAnswers;
    /** Where photos' renditions are kept (MEDIA_DIR or S3_URL); storePhoto (media/photos.ts) writes them. */
    media: MediaStore;
    /** Books a payment PayFast proved (payments/book-payment.ts): the plans' charging round books its boxes with it. */
    bookPayment: typeof bookPayment;
    /** Asks PayFast's transaction history about pending orders (all due ones, or those named) and books what it shows. */
    reconcilePayfast: (orderIds?: readonly string[]) => Promise<{ checked: number; findings: ReconcileFinding[] }>;
    /** Cancels the orders unpaid for longer than ORDER_HOLD_MINUTES and releases their stock; answers how many. */
    expireOrders: () => Promise<number>;
    /** Sends the alerts of every size that can be sold again (the back-in-stock job, every minute); answers how many. */
    sendBackInStock: () => Promise<number>;
    /** Writes the "your next box" e-mails due (plans/next-box.ts), for `today` or the real day; answers how many. */
    sendPlanNotices: (today?: string) => Promise<number>;
    /** The plans' sweep now (plans/payfast-cancel.ts): tokens ended at PayFast, unpaid plans ended, pauses over; answers tokens ended. */
    sweepPlans: () => Promise<number>;
    /** Nappy plans' charging round, its reconciliation and the daily token check, run now (plans/jobs.ts). */
    plans: PlanChargingRuns;
    /** The recurring jobs on pg-boss (reconciliation, expiry). */
    jobs: JobsEngine;
    /** The outbox's sender: `wake()` after writing a message, `deliverDue()` to send what is due now. */
    mail: Mail;
    /** PayFast's API (transaction history, refunds): the emulator's in local mode. */
    payfastApi: PayfastApi;
    /** Delivery options and the locker and pickup-point directories (src/server/delivery/); the emulator in local mode. */
    delivery: { quotes: DeliveryQuotes; directory: Directory; emulator: CourierEmulator | null; api: CourierApi };
    /** Tracking events applied (delivery/tracking.ts), the tracking links' key; `pollTracking` runs the hourly poll at once. */
    tracking: TrackingContext;
    pollTracking: () => Promise<{ asked: number; added: number }>;
    /** The owner's policies: the versions published at start (what new orders are placed under) and every earlier one. */
    policies: PolicyStore;
    /** The owner's duties outside the software (content/launch-checklist.md), read at start. */
    launchChecklist: LaunchChecklistContent;
    /** The owner's alerts (alerts/alerts.ts): one message to ALERT_EMAIL when raised, one when resolved. */
    alerts: {
      raise: (key: string, problem: Problem) => Promise<boolean>;
      resolve: (key: string) => Promise<boolean>;
    };
    /** Runs the alert checks now (the check-alerts job calls it every ALERT_CHECK_MINUTES): what was raised and resolved. */
    checkAlerts: () => Promise<{ raised: string[]; resolved: string[] }>;
    /** This instance's own checks now (jobs engine, clock against the database's; alerts/instance-watch.ts). */
    checkInstance: () => Promise<{ raised: string[]; resolved: string[] }>;
    /** The keys sealing admins' TOTP secrets (auth/totp-secrets.ts). */
    totpKeys: TotpKeys;
    /** The local PayFast emulator, in local mode only. */
    payfastEmulator?: PayfastEmulator;
  }
  interface FastifyContextConfig {
    /**
     * An admin route that moves money or writes a tax document: the admin guard (admin/routes.ts)
     * asks for a fresh step-up before the handler runs. A function decides per request (after the
     * body is checked), for a route that does so only sometimes.
     */
    moneyMove?: true | ((request: FastifyRequest) => boolean);
  }
  interface FastifyRequest {
    /** The user of the request's session, or null; set by the session plugin from the cookie only. */
    user: SessionUser | null;
    /** The session's second factor: whether its admin enrolled one, and when this session last gave a code. */
    secondFactor: { enrolled: boolean; at: Date | null; passwordAt: Date | null; tokenHash: string } | null;
  }
}
