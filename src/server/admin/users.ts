import { asc } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { users } from "../db/schema.js";
import { toUser, userColumns } from "../users/queries.js";

/** /api/admin/users: the user list (the panel only says user management is coming soon). */
export const adminUserRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/users", async () => {
    const rows = await app.db.select(userColumns).from(users).orderBy(asc(users.createdAt), asc(users.id));
    return rows.map(toUser);
  });
};
