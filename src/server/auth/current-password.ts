import { eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { users } from "../db/schema.js";
import { badRequest, HttpError } from "../errors.js";
import { verifyPassword } from "./passwords.js";
import { accountKey, countAttempt } from "./rate-limit.js";

export const CURRENT_PASSWORD_WRONG_MESSAGE = "Your current password is not correct, so nothing was changed.";

/**
 * Asks the signed-in person to prove it is them before a change a stolen session should not make
 * (a new password, a new e-mail address). Each check spends the account's login budget, so a
 * session cannot be used to guess the password faster than the login form allows.
 */
export async function confirmCurrentPassword(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  currentPassword: string | undefined,
  missingMessage = "Enter your current password.",
): Promise<void> {
  if (!currentPassword) throw badRequest(missingMessage, "CURRENT_PASSWORD_REQUIRED");
  const { db, config } = request.server;
  await countAttempt(db, reply, [accountKey("login", { userId })], config.authRateLimitPerMinute);
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  if (!(await verifyPassword(row?.passwordHash ?? null, currentPassword))) {
    throw new HttpError(400, CURRENT_PASSWORD_WRONG_MESSAGE, "CURRENT_PASSWORD_WRONG");
  }
}
