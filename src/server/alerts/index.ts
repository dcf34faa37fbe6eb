import { hostname } from "node:os";
import type { Feature } from "../platform/feature.js";
import { type Problem, raiseAlert, resolveAlert } from "./alerts.js";
import { ALERT_CHECK_JOB, checkAlerts } from "./checks.js";
import { instanceWatch } from "./instance-watch.js";

/**
 * The owner's alerts (docs/operations.md): raised and resolved by raiseAlert/resolveAlert, checked
 * every ALERT_CHECK_MINUTES; and each instance's own checks, off the jobs engine: the engine itself,
 * and this process's clock (`clock`, tests move it; default Date.now) against the database's.
 */
export const alerts = (clock: () => number = Date.now): Feature => ({
  name: "alerts",
  setup: (app) => {
    const { db, pool, config } = app;
    const context = { db, pool, config, wake: () => app.mail.wake() };
    app.decorate("alerts", {
      raise: (key: string, problem: Problem) => raiseAlert(context, key, problem),
      resolve: (key: string) => resolveAlert(context, key),
    });
    app.decorate("checkAlerts", () => checkAlerts({ ...context, jobNames: app.jobs.names }));
    const watch = instanceWatch({
      ...context,
      instance: `${hostname()}:${config.port}`,
      jobsRunning: () => app.jobs.running,
      now: clock,
      log: app.log,
    });
    app.decorate("checkInstance", watch.check);
    if (config.alerts.checkMinutes > 0) {
      app.addHook("onReady", async () => watch.start(config.alerts.checkMinutes * 60_000));
      app.addHook("onClose", async () => watch.stop());
    }
  },
  jobs: (app) =>
    app.config.alerts.checkMinutes > 0
      ? [
          {
            name: ALERT_CHECK_JOB,
            everyMs: app.config.alerts.checkMinutes * 60_000,
            run: async () => {
              const { raised, resolved } = await app.checkAlerts();
              if (raised.length > 0 || resolved.length > 0) app.log.warn({ raised, resolved }, "owner alerts changed");
            },
          },
        ]
      : [],
});
