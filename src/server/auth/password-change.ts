import { randomUUID } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accountMessage, changePasswordInput } from "#domain/schemas/account.js";
import { recordAudit } from "../platform/audit.js";
import { sessions, users } from "../platform/db/schema.js";
import { closeOpenResets, enqueueAccountChanged } from "./account-notices.js";
import { confirmCurrentPassword } from "./current-password.js";
import { requireUser } from "./guards.js";
import { assertAcceptablePassword } from "./password-policy.js";
import { hashPassword } from "./passwords.js";
import { hashSessionToken, sessionCookieName } from "./session.js";

export const PASSWORD_CHANGED_MESSAGE =
  "Your password was changed. You are still logged in here; other devices were logged out.";

/** POST /api/auth/change-password: the signed-in user, knowing their password, sets a new one. */
export const passwordChangeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/change-password",
    { schema: { body: changePasswordInput, response: { 200: accountMessage } } },
    async (request, reply) => {
      const user = requireUser(request);
      const { currentPassword, newPassword } = request.body;
      await confirmCurrentPassword(request, reply, user.id, currentPassword);
      await assertAcceptablePassword(newPassword);
      const passwordHash = await hashPassword(newPassword);
      // requireUser passed, so the request carries the session cookie it was found by.
      const currentSession = hashSessionToken(request.cookies[sessionCookieName(app)] ?? "");

      await app.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
        await closeOpenResets(tx, user.id);
        // Every other device signs in again with the new password; this one stays signed in.
        await tx.delete(sessions).where(and(eq(sessions.userId, user.id), ne(sessions.tokenHash, currentSession)));
        await enqueueAccountChanged(tx, {
          to: user.email,
          userId: user.id,
          eventKey: `password:${randomUUID()}`,
          name: user.fullName,
          change: "password",
          newEmail: null,
          changedAt: new Date().toISOString(),
        });
        await recordAudit(tx, request, {
          action: "auth.password_changed",
          subject: { type: "user", id: user.id },
          after: { otherSessionsEnded: true },
        });
      });
      app.mail.wake();
      return { message: PASSWORD_CHANGED_MESSAGE };
    },
  );
};
