import type { Feature } from "../platform/feature.js";
import { adminHolderRoutes } from "./admin-holders.js";
import { adminUserRoutes } from "./admin-routes.js";
import { userRoutes } from "./routes.js";

/** The customer's profile, addresses and e-mail changes; the admin's customers and stock holders. */
export const users: Feature = {
  name: "users",
  routes: async (api) => void (await api.register(userRoutes, { prefix: "/users" })),
  adminRoutes: async (admin) => {
    await admin.register(adminUserRoutes);
    await admin.register(adminHolderRoutes);
  },
};
