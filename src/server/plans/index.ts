import type { Feature } from "../platform/feature.js";
import { adminPlanRoutes } from "./admin-routes.js";
import { planChargingJobs, planChargingRuns } from "./jobs.js";
import { planLinkKey } from "./links.js";
import { PLAN_NEXT_BOX_JOB, sendNextBoxNotices } from "./next-box.js";
import { CANCEL_PLAN_TOKENS_JOB, sweepPlans } from "./payfast-cancel.js";
import { planLinkRoutes, planRoutes } from "./routes.js";

/** Nappy plans (plans/README.md): boxes every few weeks, charged to a PayFast token. */
export const plans: Feature = {
  name: "plans",
  setup: (app) => {
    const { db, config } = app;
    const shop = { publicUrl: config.publicUrl };
    const linkKey = planLinkKey(db);
    app.decorate("sendPlanNotices", async (today?: string) => {
      const written = await sendNextBoxNotices(db, shop, await linkKey(), today);
      if (written > 0) app.mail.wake();
      return written;
    });
    app.decorate("sweepPlans", () => sweepPlans(db, app.payfastApi, app.log));
    // The charging round, its reconciliation and the daily token check (plans/jobs.ts).
    app.decorate(
      "plans",
      planChargingRuns({
        db,
        pool: app.pool,
        api: app.payfastApi,
        log: app.log,
        config,
        policies: () => app.policies.current(),
        reconcile: (orderIds) => app.reconcilePayfast(orderIds),
        bookPayment: (...payment) => app.bookPayment(...payment),
        wakeMail: () => app.mail.wake(),
      }),
    );
  },
  routes: async (api) => {
    await api.register(planRoutes, { prefix: "/users" });
    await api.register(planLinkRoutes, { prefix: "/plan-links" });
  },
  adminRoutes: adminPlanRoutes,
  jobs: (app) => [
    // Tokens of cancelled plans ended at PayFast, unpaid plans ended, pauses over (plans/payfast-cancel.ts).
    { name: CANCEL_PLAN_TOKENS_JOB, everyMs: 5 * 60_000, run: async () => void (await app.sweepPlans()) },
    ...planChargingJobs(app.plans, app.log),
    {
      // "Your next box" e-mails (plans/next-box.ts): every PLAN_NOTICE_MINUTES (hourly), once per plan
      // and date, and a minute after start (sooner when the interval is shorter).
      name: PLAN_NEXT_BOX_JOB,
      everyMs: app.config.planNoticeMinutes * 60_000,
      firstRunAfterMs: Math.min(60_000, app.config.planNoticeMinutes * 60_000),
      run: async () => {
        const written = await app.sendPlanNotices();
        if (written > 0) app.log.info({ written }, "plan next-box e-mails written");
      },
    },
  ],
};
