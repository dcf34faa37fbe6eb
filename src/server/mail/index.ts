import type { Feature } from "../platform/feature.js";
import { adminEmailRoutes } from "./admin-routes.js";
import { createMailer, SEND_EMAILS_JOB } from "./mailer.js";

/** Messages to customers: written to the outbox with their events, sent (or captured) by a job (mail/README.md). */
export const mail: Feature = {
  name: "mail",
  setup: (app) => {
    const mailer = createMailer(app.config, app.db, app.log);
    app.decorate("mail", { deliverDue: mailer.deliverDue, wake: () => void app.jobs.request(SEND_EMAILS_JOB) });
    app.addHook("onClose", async () => mailer.close());
  },
  adminRoutes: adminEmailRoutes,
  jobs: (app) => [{ name: SEND_EMAILS_JOB, everyMs: 5_000, run: async () => void (await app.mail.deliverDue()) }],
};
