import type { Feature } from "../platform/feature.js";
import { adminHolderRoutes } from "./admin-holders.js";
import { adminUserRoutes } from "./admin-routes.js";
import { userRoutes } from "./routes.js";

/**
 * The customer's profile and addresses; the admin's customers and stock holders. E-mail changes
 * and the address proof live in auth/, with sign-up.
 */
export const users: Feature = {
  name: "users",
  routes: async (api) => void (await api.register(userRoutes, { prefix: "/users" })),
  adminRoutes: async (admin) => {
    await admin.register(adminUserRoutes);
    await admin.register(adminHolderRoutes);
  },
};
