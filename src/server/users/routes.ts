import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { profileInput, user } from "../../domain/schemas/account.js";
import { uuidParam } from "../../domain/schemas/common.js";
import { requireSelfOrAdmin } from "../auth/guards.js";
import { users } from "../db/schema.js";
import { notFound } from "../errors.js";
import { duplicateUserError, findTakenIdentity, toUser, userColumns } from "./queries.js";

/** /api/users/{id}: only that user or an admin, checked before the body is even validated. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("preValidation", async (request) => {
    const { id } = request.params as { id?: string };
    requireSelfOrAdmin(request, id ?? "");
  });
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.put("/:id", { schema: { params: uuidParam, body: profileInput, response: { 200: user } } }, async (request) => {
    const { id } = request.params;
    const taken = await findTakenIdentity(app.db, { email: request.body.email }, id);
    if (taken) throw taken;
    try {
      const [updated] = await app.db.update(users).set(request.body).where(eq(users.id, id)).returning(userColumns);
      if (!updated) throw notFound("User not found");
      return toUser(updated);
    } catch (error) {
      const duplicate = duplicateUserError(error);
      if (duplicate) throw duplicate;
      throw error;
    }
  });
};
