import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accountMessage, forgotPasswordInput, resetPasswordInput } from "#domain/schemas/account.js";
import { hashLinkToken } from "../mail/link-token.js";
import { enqueueEmail } from "../mail/outbox.js";
import { recordAudit } from "../platform/audit.js";
import { clientNetwork } from "../platform/client-network.js";
import { passwordResets, sessions, users } from "../platform/db/schema.js";
import { badRequest } from "../platform/errors.js";
import type { ShopApp } from "../platform/feature.js";
import { closeOpenResets, enqueueAccountChanged } from "./account-notices.js";
import { assertAcceptablePassword } from "./password-policy.js";
import { hashPassword } from "./passwords.js";
import { accountKey, countAttempt, countInWindow, networkKey } from "./rate-limit.js";
import { endSession } from "./session.js";

export const FORGOT_PASSWORD_MESSAGE =
  "If an account has this e-mail address, we have sent it a link to reset the password.";
export const RESET_LINK_INVALID_MESSAGE = "This reset link has expired or was already used. Ask for a new one.";
export const PASSWORD_RESET_MESSAGE = "Your password was changed. Log in with your new password.";

/**
 * Reset e-mails to one address a minute, at most (AUTH_RATE_LIMIT_PER_MINUTE may only lower it):
 * enough for a person whose first message is slow, too few to flood someone's mailbox with them.
 */
export const RESETS_PER_ADDRESS_PER_MINUTE = 3;

/**
 * Reset e-mails to one address a day (a fixed 24-hour window from its first request), known or
 * not: beyond it a request is answered as every other is and sends nothing, so nobody can fill a
 * customer's mailbox with genuine messages, and the answer still does not say who is a customer.
 */
export const RESETS_PER_ADDRESS_PER_DAY = 5;

const linkInvalid = () => badRequest(RESET_LINK_INVALID_MESSAGE, "RESET_LINK_INVALID");

/** POST /api/auth/forgot-password and /reset-password. */
export const passwordResetRoutes: FastifyPluginAsyncZod = async (app) => {
  registerForgotPassword(app);
  registerResetPassword(app);
};

/** POST /forgot-password: mails a reset link to the address's account, if there is one. */
function registerForgotPassword(app: ShopApp): void {
  // The same 202 whether or not anyone has the address: the answer does not say who is a customer.
  app.post(
    "/forgot-password",
    { schema: { body: forgotPasswordInput, response: { 202: accountMessage } } },
    async (request, reply) => {
      const { email } = request.body;
      const limit = app.config.authRateLimitPerMinute;
      await countAttempt(app.db, reply, [networkKey("forgot-password", request)], limit);
      await countAttempt(
        app.db,
        reply,
        [accountKey("forgot-password", email)],
        Math.min(limit, RESETS_PER_ADDRESS_PER_MINUTE),
      );
      // A network's day: a 429 that names no address (RESETS_PER_NETWORK_PER_DAY).
      await countAttempt(
        app.db,
        reply,
        [`forgot-password-day:ip:${clientNetwork(request.ip)}`],
        app.config.resetsPerNetworkPerDay,
        "Too many password reset requests from your network today. Please try again tomorrow.",
        "1 day",
      );
      if (!(await withinAddressDay(app, request, email)))
        return reply.status(202).send({ message: FORGOT_PASSWORD_MESSAGE });

      const [found] = await app.db
        .select({ id: users.id, email: users.email, fullName: users.fullName })
        .from(users)
        // A closed account answers as an unknown address does: the same 202, and no message.
        .where(and(isNull(users.closedAt), sql`lower(${users.email}) = lower(${email})`))
        .limit(1);
      if (found) {
        // The request and its message exist together; the sender makes the token when it sends.
        await app.db.transaction(async (tx) => {
          const [reset] = await tx
            .insert(passwordResets)
            .values({ userId: found.id })
            .returning({ id: passwordResets.id });
          if (!reset) throw new Error("insert returned no row");
          await enqueueEmail(tx, {
            kind: "password_reset",
            eventKey: reset.id,
            to: found.email,
            // No name: a reset message greets nobody by name (templates/free-text.ts).
            data: { resetId: reset.id },
          });
        });
        app.mail.wake();
      }
      return reply.status(202).send({ message: FORGOT_PASSWORD_MESSAGE });
    },
  );
}

/**
 * Counts a request for `email` in its day; false once the address has had
 * RESETS_PER_ADDRESS_PER_DAY (the first request over is audited, as a lockout is).
 */
async function withinAddressDay(app: ShopApp, request: FastifyRequest, email: string): Promise<boolean> {
  const key = `forgot-password-day:account:${email.toLowerCase()}`;
  const [day] = await countInWindow(app.db, [key], "1 day");
  const count = day?.count ?? 0;
  if (count === RESETS_PER_ADDRESS_PER_DAY + 1) {
    await recordAudit(app.db, request, {
      action: "auth.rate_limited",
      actor: null,
      after: { keys: [key], limit: RESETS_PER_ADDRESS_PER_DAY },
    });
  }
  return count <= RESETS_PER_ADDRESS_PER_DAY;
}

/** POST /reset-password: sets the password a mailed link allows, once, and ends every session. */
function registerResetPassword(app: ShopApp): void {
  app.post(
    "/reset-password",
    { schema: { body: resetPasswordInput, response: { 200: accountMessage } } },
    async (request, reply) => {
      const { token, password } = request.body;
      await countAttempt(app.db, reply, [networkKey("reset-password", request)], app.config.authRateLimitPerMinute);
      const tokenHash = hashLinkToken(token);
      const open = and(
        eq(passwordResets.tokenHash, tokenHash),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, sql`now()`),
      );

      // Looked at before the password is judged, without using it up: a refused password leaves the
      // link working for a better one, and a dead link is said before anyone types twice.
      const [pending] = await app.db.select({ id: passwordResets.id }).from(passwordResets).where(open).limit(1);
      if (!pending) throw linkInvalid();
      await assertAcceptablePassword(password);
      const passwordHash = await hashPassword(password);

      const changed = await app.db.transaction(async (tx) => {
        // Used exactly once, however many requests carry the link at the same moment.
        const [used] = await tx
          .update(passwordResets)
          .set({ usedAt: sql`now()` })
          .where(open)
          .returning({ id: passwordResets.id, userId: passwordResets.userId });
        if (!used) return null;
        // Following a link mailed to the address proves it is the account's.
        const [user] = await tx
          .update(users)
          .set({ passwordHash, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
          .where(eq(users.id, used.userId))
          .returning({ id: users.id, username: users.username, email: users.email, fullName: users.fullName });
        if (!user) return null;
        // By whoever holds the link: the account's owner as far as the shop can tell.
        await recordAudit(tx, request, {
          action: "auth.password_reset",
          actor: { id: user.id, username: user.username },
          subject: { type: "user", id: user.id },
          after: { resetId: used.id, sessionsEnded: true },
        });
        await closeOpenResets(tx, user.id);
        // Whoever knew the old password (or held a session) is out.
        await tx.delete(sessions).where(eq(sessions.userId, user.id));
        await enqueueAccountChanged(tx, {
          to: user.email,
          userId: user.id,
          eventKey: `password:${used.id}`,
          name: user.fullName,
          change: "password",
          newEmail: null,
          changedAt: new Date().toISOString(),
        });
        return user;
      });
      if (!changed) throw linkInvalid();
      app.mail.wake();
      // This browser's session, if it was the account's, is gone with the rest: clear its cookie now.
      if (request.user?.id === changed.id) await endSession(request, reply);
      return { message: PASSWORD_RESET_MESSAGE };
    },
  );
}
