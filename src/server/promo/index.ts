import type { Feature } from "../platform/feature.js";
import { adminPromoRoutes, promoCheckRoutes } from "./routes.js";

/** Promo codes (decision 023). */
export const promo: Feature = { name: "promo", routes: promoCheckRoutes, adminRoutes: adminPromoRoutes };
