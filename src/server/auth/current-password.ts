import { eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { users } from "../platform/db/schema.js";
import { badRequest, HttpError } from "../platform/errors.js";
import { countLoginFailure, refuseFailingNetwork } from "./login-failures.js";
import { verifyPassword } from "./passwords.js";
import { countAttempt, networkKey } from "./rate-limit.js";

export const CURRENT_PASSWORD_WRONG_MESSAGE = "Your current password is not correct, so nothing was changed.";

/**
 * Asks the signed-in person to prove it is them before a change a stolen session should not make
 * (a new password, a new e-mail address, the data export, closing the account). Checked as a
 * login is: each check spends its network's attempts, a wrong password counts as a login failure,
 * and a network failing against an account under attack is refused, so a session cannot guess the
 * password faster than the login form allows, and strangers failing elsewhere shut nobody out.
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
  await countAttempt(db, reply, [networkKey("login", request)], config.authRateLimitPerMinute);
  await refuseFailingNetwork(request, reply, { userId });
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  if (!(await verifyPassword(row?.passwordHash ?? null, currentPassword))) {
    await countLoginFailure(request, { userId });
    throw new HttpError(400, CURRENT_PASSWORD_WRONG_MESSAGE, "CURRENT_PASSWORD_WRONG");
  }
}
