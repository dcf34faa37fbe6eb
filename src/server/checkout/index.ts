import type { Feature } from "../platform/feature.js";
import { promoCheckRoutes } from "./promo-check.js";
import { checkoutRoutes } from "./routes.js";

/**
 * Checkout: a cart becomes an order held for payment (place.ts: priced, the code's use held, stock
 * held, PayFast's form built), and a promo code checked against a cart before that.
 */
export const checkout: Feature = {
  name: "checkout",
  routes: async (api) => {
    await api.register(checkoutRoutes);
    await api.register(promoCheckRoutes);
  },
};
