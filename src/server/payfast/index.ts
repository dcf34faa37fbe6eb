import { documentIssuer } from "../orders/issued-documents.js";
import { settleRequestedRefunds } from "../orders/refunds.js";
import type { Feature, ShopApp } from "../platform/feature.js";
import { type PayfastApi, payfastApiClient } from "./api-client.js";
import { createPayfastEmulator } from "./emulator.js";
import type { ResolveHost } from "./itn-sources.js";
import { trackPayfastProblem } from "./problems.js";
import { reconcilePayfast } from "./reconcile.js";
import { payfastRoutes } from "./routes.js";

export interface PayfastOptions {
  /** PayFast's API (tests of live mode pass a stand-in; default: the client for the configured mode). */
  api?: PayfastApi | undefined;
  /** Looks up PayFast's host names for the ITN source check (tests pass a fake; default: system DNS). */
  resolveHost?: ResolveHost | undefined;
}

/** PayFast: the payment form, its notifications, its API and the local emulator (payfast/README.md). */
export const payfast = ({ api, resolveHost }: PayfastOptions = {}): Feature => ({
  name: "payfast",
  setup: (app) => {
    const { config, db } = app;
    const payfastApi = api ?? payfastApiClient(config);
    app.decorate("payfastApi", payfastApi);
    // The reconciliation sweep asks PayFast's API about orders whose notification never came.
    const everyMs = config.payfast.reconcileMinutes * 60_000;
    const shopName = config.shop.name;
    app.decorate("reconcilePayfast", (orderIds?: readonly string[]) =>
      reconcilePayfast(
        { db, api: payfastApi, log: app.log, everyMs, shopName, issuer: documentIssuer(config) },
        orderIds,
      ),
    );
    if (config.payfast.mode === "local") {
      const emulator = createPayfastEmulator(db, config, app.log);
      app.decorate("payfastEmulator", emulator);
      app.addHook("onReady", () => emulator.start());
      app.addHook("onClose", () => emulator.close());
    }
    // Live: PayFast's API must answer our signature before the first sale needs it (a refund, a lost
    // notification). Not awaited: the shop starts whatever PayFast answers (in at most the client's 15 s).
    if (config.payfast.mode === "live") app.addHook("onReady", async () => void pingAtStart(app, payfastApi));
  },
  // PayFast's notifications are server-to-server: no cookie, no browser cross-site check.
  publicRoutes: async (api) => void (await api.register(payfastRoutes, { prefix: "/payfast", resolveHost })),
  siteRoutesWithSession: async (site) => {
    if (site.payfastEmulator) await site.register(site.payfastEmulator.plugin, { prefix: "/payfast-emulator" });
  },
  jobs: (app) => [
    {
      name: "payfast-reconcile",
      everyMs: app.config.payfast.reconcileMinutes * 60_000,
      run: async () => {
        const { db, log, config } = app;
        try {
          // A refund left in doubt (PayFast did not answer) is settled from PayFast's balance, then payments are
          // matched: always, so a refund PayFast will not answer about never keeps a payment from being booked.
          const unsettled = await settleRequestedRefunds({
            db,
            api: app.payfastApi,
            log,
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
          await trackPayfastProblem(db, log, "api", { ok: false, detail });
          throw error;
        }
        await trackPayfastProblem(db, log, "api", { ok: true });
      },
    },
  ],
});

async function pingAtStart(app: ShopApp, api: PayfastApi): Promise<void> {
  try {
    await api.ping();
    app.log.info("PayFast's API answered the start check (ping)");
    await trackPayfastProblem(app.db, app.log, "ping", { ok: true });
  } catch (error) {
    const detail = `PayFast's API did not answer the shop's start check (GET /ping: ${error instanceof Error ? error.message : String(error)}). Refunds and the search for lost payments need it: check the merchant ID, the passphrase and that the API is enabled on your PayFast account.`;
    app.log.error({ err: error }, "PayFast's API failed the start check (ping)");
    // In "Needs attention", and mailed to the owner by the next alert check (alerts/checks.ts).
    await trackPayfastProblem(app.db, app.log, "ping", { ok: false, detail });
  }
}
