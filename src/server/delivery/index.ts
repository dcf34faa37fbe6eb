import type { Feature } from "../platform/feature.js";
import { adminDeliveryBoxRoutes } from "./admin-boxes.js";
import { adminDeliveryCostRoutes } from "./admin-costs.js";
import { adminWaybillRoutes } from "./admin-waybills.js";
import { courierApi, sendThroughApp } from "./couriers.js";
import { createDirectory } from "./directory.js";
import { createCourierEmulator } from "./emulator.js";
import { createDeliveryQuotes } from "./options.js";
import { pollOpenShipments } from "./poll.js";
import { deliveryRoutes } from "./routes.js";
import { trackingLinkKey } from "./tracking-links.js";
import { trackingPageRoutes, trackingWebhookRoutes } from "./tracking-routes.js";

/** Couriers, lockers and pickup points behind one interface, waybills and tracking (delivery/README.md). */
export const delivery: Feature = {
  name: "delivery",
  setup: (app) => {
    const { config, db } = app;
    // The emulator posts its tracking webhooks to the shop through the app itself, as the vendors post over HTTPS.
    const emulator =
      config.courier.mode === "local"
        ? createCourierEmulator(config.courier.tokens, () => ({
            secret: config.courier.webhookSecret,
            paths: { shiplogic: "/api/delivery/webhooks/shiplogic", tcg_locker: "/api/delivery/webhooks/tcg-locker" },
            post: async (url, payload, headers) =>
              (await app.inject({ method: "POST", url, payload, headers })).statusCode,
          }))
        : null;
    const api = courierApi(config, emulator ? sendThroughApp(app) : fetch);
    const directory = createDirectory(api, app.log);
    app.decorate("delivery", {
      quotes: createDeliveryQuotes({ db, config, api, directory, log: app.log }),
      directory,
      emulator,
      api,
    });
    const tracking = { db, publicUrl: config.publicUrl, linkKey: trackingLinkKey(db) };
    app.decorate("tracking", tracking);
    app.decorate("pollTracking", async () => {
      const polled = await pollOpenShipments({ ...tracking, api, log: app.log });
      if (polled.added > 0) app.mail.wake();
      return polled;
    });
  },
  // Options and points are priced from the cart and address alone, no session needed; the couriers'
  // tracking webhooks are signed and read as text before anything is parsed.
  publicRoutes: async (api) => {
    await api.register(deliveryRoutes, { prefix: "/delivery" });
    await api.register(trackingWebhookRoutes, { prefix: "/delivery" });
  },
  routes: trackingPageRoutes,
  adminRoutes: async (admin) => {
    await admin.register(adminWaybillRoutes);
    await admin.register(adminDeliveryBoxRoutes);
    await admin.register(adminDeliveryCostRoutes);
  },
  // The couriers' stand-in (COURIER_MODE=local): outside the cookie scope, as the vendors are.
  siteRoutes: async (site) => {
    if (site.delivery.emulator) await site.register(site.delivery.emulator.plugin, { prefix: "/courier-emulator" });
  },
  // Tracking events a lost webhook never brought (delivery/poll.ts): every hour.
  jobs: (app) => [{ name: "delivery-tracking", everyMs: 3_600_000, run: async () => void (await app.pollTracking()) }],
};
