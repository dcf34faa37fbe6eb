import type { Feature, ShopApp } from "../platform/feature.js";
import { type PayfastApi, payfastApiClient } from "./api-client.js";
import { createPayfastEmulator } from "./emulator.js";
import { trackPayfastProblem } from "./problems.js";

export interface PayfastOptions {
  /** PayFast's API (tests of live mode pass a stand-in; default: the client for the configured mode). */
  api?: PayfastApi | undefined;
}

/**
 * PayFast, the vendor (payfast/README.md): its API client (app.payfastApi), checked at start in live
 * mode, and the local emulator. What the shop does with a payment is payments/.
 */
export const payfast = ({ api }: PayfastOptions = {}): Feature => ({
  name: "payfast",
  setup: (app) => {
    const { config, db } = app;
    const payfastApi = api ?? payfastApiClient(config);
    app.decorate("payfastApi", payfastApi);
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
  siteRoutesWithSession: async (site) => {
    if (site.payfastEmulator) await site.register(site.payfastEmulator.plugin, { prefix: "/payfast-emulator" });
  },
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
