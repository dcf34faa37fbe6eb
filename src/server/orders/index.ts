import type { Feature } from "../platform/feature.js";
import { adminCancelRefundRoutes } from "./admin-cancel-and-refund.js";
import { adminOrderExportRoutes } from "./admin-export.js";
import { adminOrderRoutes } from "./admin-routes.js";
import { expireOrders } from "./cancel.js";
import { orderRoutes } from "./routes.js";

/** Orders: placing one, its status, its stock holds, cancelling and refunding; the admin's orders. */
export const orders: Feature = {
  name: "orders",
  // Unpaid orders give their stock back after ORDER_HOLD_MINUTES.
  setup: (app) => void app.decorate("expireOrders", () => expireOrders(app.db, app.config.orderHoldMinutes)),
  routes: orderRoutes,
  adminRoutes: async (admin) => {
    await admin.register(adminOrderRoutes);
    await admin.register(adminCancelRefundRoutes);
    await admin.register(adminOrderExportRoutes);
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
