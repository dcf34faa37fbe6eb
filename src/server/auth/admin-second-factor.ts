import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uuidParam } from "#domain/schemas/common.js";
import { recordAudit } from "../platform/audit.js";
import { sessions, users } from "../platform/db/schema.js";
import { badRequest, conflict, notFound } from "../platform/errors.js";
import { clearSecondFactor, requireFreshSecondFactor } from "./two-factor.js";

/**
 * POST /api/admin/users/{id}/second-factor/reset: another admin's phone is lost. Their second factor
 * and recovery codes are removed and their sessions end; they enrol again at their next login
 * (ADMIN_2FA=required keeps the panel shut until then). Never one's own: that is "turn off", with a code.
 * It turns another admin's second factor off, so it asks for a fresh code (step-up) like turning
 * one's own off does: a stolen session alone cannot strip another admin's protection.
 */
export const adminSecondFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/users/:id/second-factor/reset", { schema: { params: uuidParam } }, async (request, reply) => {
    const { id } = request.params;
    if (id === request.user?.id) {
      throw conflict("Turn off your own two-step sign-in from your profile, with a code.", "CANNOT_DISABLE_SELF");
    }
    requireFreshSecondFactor(request);
    await app.db.transaction(async (tx) => {
      const [account] = await tx
        .select({ username: users.username, enabledAt: users.totpEnabledAt })
        .from(users)
        .where(eq(users.id, id))
        .for("update");
      if (!account) throw notFound("User not found");
      if (!account.enabledAt) throw badRequest("This account has no two-step sign-in to reset.");
      await clearSecondFactor(tx, id);
      const ended = await tx.delete(sessions).where(eq(sessions.userId, id)).returning({ hash: sessions.tokenHash });
      await recordAudit(tx, request, {
        action: "auth.second_factor_reset",
        subject: { type: "user", id },
        before: { enabled: true, username: account.username },
        after: { enabled: false, sessionsEnded: ended.length },
      });
    });
    return reply.status(204).send();
  });
};
