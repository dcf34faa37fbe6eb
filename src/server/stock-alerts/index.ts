import type { Feature } from "../platform/feature.js";
import { sendBackInStock } from "./notify.js";
import { endLapsedStockAlerts, stockAlertRoutes } from "./routes.js";
import { stockAlertKey } from "./tokens.js";

/** Back-in-stock alerts (stock-alerts/README.md). */
export const stockAlerts: Feature = {
  name: "stock-alerts",
  // Sizes back on the shelf other than by the admin's product form (a released hold, a refund or a
  // return restocked): their alerts, by the sweep below (stock-alerts/notify.ts).
  setup: (app) => {
    const { db, config } = app;
    const key = stockAlertKey(db);
    const shop = { publicUrl: config.publicUrl };
    app.decorate("sendBackInStock", async () => {
      const sent = await db.transaction(async (tx) => sendBackInStock(tx, null, shop, await key()));
      if (sent > 0) app.mail.wake();
      return sent;
    });
  },
  routes: async (api) => void (await api.register(stockAlertRoutes, { prefix: "/stock-alerts" })),
  jobs: (app) => [
    {
      name: "back-in-stock",
      everyMs: 60_000,
      run: async () => {
        const sent = await app.sendBackInStock();
        if (sent > 0) app.log.info({ sent }, "back-in-stock alerts sent");
        // Alerts never confirmed within STOCK_ALERT_CONFIRM_HOURS end, freeing their place.
        const lapsed = await endLapsedStockAlerts(app.db);
        if (lapsed > 0) app.log.info({ lapsed }, "unconfirmed back-in-stock alerts lapsed");
      },
    },
  ],
};
