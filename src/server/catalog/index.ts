import type { Feature } from "../platform/feature.js";
import { adminCategoryRoutes } from "./admin-categories.js";
import { adminProductRoutes } from "./admin-products.js";
import { catalogRoutes } from "./routes.js";

/** The catalogue: products, sizes, categories, search; public reads answered from the response cache. */
export const catalog: Feature = {
  name: "catalog",
  publicRoutes: catalogRoutes,
  adminRoutes: async (admin) => {
    await admin.register(adminProductRoutes);
    await admin.register(adminCategoryRoutes);
  },
};
