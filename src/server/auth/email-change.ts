import { randomUUID } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accountMessage, confirmEmailInput } from "#domain/schemas/account.js";
import { hashLinkToken } from "../mail/link-token.js";
import { enqueueEmail } from "../mail/outbox.js";
import { recordAudit } from "../platform/audit.js";
import type { Transaction } from "../platform/db/client.js";
import { emailChanges, users } from "../platform/db/schema.js";
import { badRequest } from "../platform/errors.js";
import { closeOpenResets, enqueueAccountChanged } from "./account-notices.js";
import { duplicateUserError, emailTaken } from "./accounts.js";
import { countAttempt, networkKey } from "./rate-limit.js";

/**
 * A change of address asked for on the profile: a pending row and the `email_change` message to the
 * NEW address, in the profile update's transaction. The link is made when the message is sent
 * (mail/sender.ts); earlier pending changes of the account stop.
 */
export async function requestEmailChange(
  tx: Transaction,
  request: FastifyRequest,
  userId: string,
  newEmail: string,
): Promise<void> {
  await tx
    .update(emailChanges)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt)));
  const [change] = await tx.insert(emailChanges).values({ userId, newEmail }).returning({ id: emailChanges.id });
  if (!change) throw new Error("insert returned no row");
  await enqueueEmail(tx, { kind: "email_change", eventKey: change.id, to: newEmail, data: { changeId: change.id } });
  await recordAudit(tx, request, {
    action: "user.email_change_requested",
    subject: { type: "user", id: userId },
    after: { newEmail },
  });
}

const linkInvalid = () =>
  badRequest(
    "This link is not valid any more: it was used, it expired, or a newer change was asked for. Change the address again from your profile.",
    "RESET_LINK_INVALID",
  );

/**
 * POST /api/auth/confirm-email: the link mailed to the new address was followed. In one
 * transaction: the link is used (once), the account takes the address (409 EMAIL_TAKEN when
 * someone has it by now), the address counts as proven, reset links to the old one stop, and the
 * old address is told. A link to the address the account already has (sign-up, Resend:
 * address-proof.ts) only marks it proven.
 */
export const confirmEmailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/confirm-email",
    { schema: { body: confirmEmailInput, response: { 200: accountMessage } } },
    async (request, reply) => {
      await countAttempt(app.db, reply, [networkKey("reset-password", request)], app.config.authRateLimitPerMinute);
      const open = and(
        eq(emailChanges.tokenHash, hashLinkToken(request.body.token)),
        isNull(emailChanges.usedAt),
        gt(emailChanges.expiresAt, sql`now()`),
      );
      try {
        const done = await app.db.transaction(async (tx) => {
          const [used] = await tx
            .update(emailChanges)
            .set({ usedAt: sql`now()` })
            .where(open)
            .returning({ userId: emailChanges.userId, newEmail: emailChanges.newEmail });
          if (!used) return false;
          const [before] = await tx
            .select({ email: users.email, fullName: users.fullName, username: users.username })
            .from(users)
            .where(eq(users.id, used.userId))
            .for("update");
          if (!before) return false;
          // The sign-up's (or Resend's) link: the address the account already has is proven its own.
          if (before.email.toLowerCase() === used.newEmail.toLowerCase()) {
            await tx.update(users).set({ emailVerifiedAt: sql`now()` }).where(eq(users.id, used.userId));
            await recordAudit(tx, request, {
              action: "user.email_confirmed",
              actor: { id: used.userId, username: before.username },
              subject: { type: "user", id: used.userId },
            });
            return "confirmed" as const;
          }
          const [taken] = await tx
            .select({ id: users.id })
            .from(users)
            .where(sql`lower(${users.email}) = lower(${used.newEmail}) and ${users.id} <> ${used.userId}`);
          if (taken) throw emailTaken();
          await tx
            .update(users)
            .set({ email: used.newEmail, emailVerifiedAt: sql`now()` })
            .where(eq(users.id, used.userId));
          await closeOpenResets(tx, used.userId);
          await recordAudit(tx, request, {
            action: "user.email_changed",
            actor: { id: used.userId, username: before.username },
            subject: { type: "user", id: used.userId },
            before: { email: before.email },
            after: { email: used.newEmail },
          });
          // To the old address: if the change was not theirs, its owner hears of it there.
          await enqueueAccountChanged(tx, {
            to: before.email,
            userId: used.userId,
            eventKey: `email:${randomUUID()}`,
            name: before.fullName,
            change: "email",
            newEmail: used.newEmail,
            changedAt: new Date().toISOString(),
          });
          return "changed" as const;
        });
        if (!done) throw linkInvalid();
        if (done === "confirmed") return { message: "Thank you: your e-mail address is confirmed." };
      } catch (error) {
        throw duplicateUserError(error) ?? error;
      }
      app.mail.wake();
      return { message: "Your e-mail address is changed. Use it to log in from now on." };
    },
  );
};
