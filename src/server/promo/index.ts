import type { Feature } from "../platform/feature.js";
import { adminPromoRoutes } from "./routes.js";

/** Promo codes (decision 023): the admin's codes; checking one against a cart is checkout/promo-check.ts. */
export const promo: Feature = { name: "promo", adminRoutes: adminPromoRoutes };
