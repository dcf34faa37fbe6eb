import type { Feature } from "../platform/feature.js";
import { adminOrderExportRoutes } from "./admin-export.js";
import { adminInvoiceCorrectionRoutes } from "./admin-invoice-corrections.js";
import { adminOrderRoutes } from "./admin-routes.js";
import { expireOrders } from "./cancel.js";
import { orderRoutes } from "./routes.js";

/** Orders: the record (placing one, its status, stock holds, cancelling, its documents); the admin's orders. Paying and refunding are payments/. */
export const orders: Feature = {
  name: "orders",
  // Unpaid orders give their stock back after ORDER_HOLD_MINUTES.
  setup: (app) => void app.decorate("expireOrders", () => expireOrders(app.db, app.config.orderHoldMinutes)),
  routes: orderRoutes,
  adminRoutes: async (admin) => {
    await admin.register(adminOrderRoutes);
    await admin.register(adminOrderExportRoutes);
    await admin.register(adminInvoiceCorrectionRoutes);
  },
  jobs: (app) => [
    {
      name: "expire-orders",
      // Often enough that an order expires within a quarter of its hold, and at least once a minute.
      everyMs: Math.min(60_000, Math.max(1_000, (app.config.orderHoldMinutes * 60_000) / 4)),
      run: async () => {
        const expired = await app.expireOrders();
        if (expired > 0) app.log.info({ expired }, "unpaid orders expired");
      },
    },
  ],
};
