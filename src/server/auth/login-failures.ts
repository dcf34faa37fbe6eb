import { eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { greetsByName } from "../mail/greeting.js";
import { enqueueEmail } from "../mail/outbox.js";
import { recordAudit } from "../platform/audit.js";
import { clientNetwork } from "../platform/client-network.js";
import { users } from "../platform/db/schema.js";
import { HttpError } from "../platform/errors.js";
import { type AttemptAccount, countInWindow, countsNow } from "./rate-limit.js";

/**
 * Wrong passwords are counted, not attempts (docs/decisions/042-failures-not-attempts.md): per
 * account, and per account and client network (an IPv4 address, an IPv6 /64), in fixed windows of
 * FAILURE_WINDOW. Until the account has had LOGIN_FAILURES_PER_ACCOUNT of them nothing is shut;
 * from then until the window ends, a network that has failed against it FAILURES_PER_NETWORK times
 * gets 429 before its password is even looked at, and every other network (the owner's) is
 * answered on its password as usual. Each network's attempts stay limited as before
 * (AUTH_RATE_LIMIT_PER_MINUTE, rate-limit.ts), so one network guesses at most that fast anywhere.
 */
export const FAILURE_WINDOW = "15 minutes";
export const FAILURE_WINDOW_MINUTES = 15;

/** Wrong passwords one network may give for an account under attack, in a window: a typo or two of the owner's. */
export const FAILURES_PER_NETWORK = 3;

export const LOGIN_REFUSED_MESSAGE =
  "Too many wrong passwords for this account from your network. Please wait 15 minutes and try again, or reset your password.";

function failureKeys(account: AttemptAccount, request: FastifyRequest) {
  const whose = typeof account === "string" ? `account:${account.toLowerCase()}` : `user:${account.userId}`;
  const total = `login-failed:${whose}`;
  return { total, network: `${total}:ip:${clientNetwork(request.ip)}` };
}

/**
 * Before a password (or a current-password) check: refuses with 429 when the account has had its
 * failures for the window and this network is one of those giving them. Names nobody has are
 * counted and shut the same way, so the answer does not tell who has an account.
 */
export async function refuseFailingNetwork(
  request: FastifyRequest,
  reply: FastifyReply,
  account: AttemptAccount,
): Promise<void> {
  const { db, config } = request.server;
  const keys = failureKeys(account, request);
  const rows = await countsNow(db, [keys.total, keys.network]);
  const total = rows.find((row) => row.key === keys.total)?.count ?? 0;
  const network = rows.find((row) => row.key === keys.network);
  if (total >= config.loginFailuresPerAccount && network && network.count >= FAILURES_PER_NETWORK) {
    reply.header("retry-after", String(network.retry_after));
    throw new HttpError(429, LOGIN_REFUSED_MESSAGE, "RATE_LIMITED");
  }
}

/**
 * After a wrong password: counts it against the account and against the account from this
 * network. The network shut out by this failure is audited once per window; the account's holder
 * is told by e-mail once a day at most, when its failures first reach the limit in a window.
 */
export async function countLoginFailure(request: FastifyRequest, account: AttemptAccount): Promise<void> {
  const { db, config } = request.server;
  const keys = failureKeys(account, request);
  const rows = await countInWindow(db, [keys.total, keys.network], FAILURE_WINDOW);
  const total = rows.find((row) => row.key === keys.total)?.count ?? 0;
  const network = rows.find((row) => row.key === keys.network)?.count ?? 0;
  const limit = config.loginFailuresPerAccount;
  if (total >= limit && network === FAILURES_PER_NETWORK) {
    await recordAudit(db, request, {
      action: "auth.rate_limited",
      actor: null,
      after: { keys: [keys.network], limit: FAILURES_PER_NETWORK, accountFailures: total },
    });
  }
  if (total === limit && typeof account !== "string") await tellTheHolder(request, account.userId, total);
}

/** The "someone is guessing your password" message: one a day at most, however long the guessing goes on. */
async function tellTheHolder(request: FastifyRequest, userId: string, failures: number): Promise<void> {
  const { db } = request.server;
  const [once] = await countInWindow(db, [`login-failed-notice:user:${userId}`], "1 day");
  if (once?.count !== 1) return;
  const [holder] = await db
    .select({ email: users.email, fullName: users.fullName, closedAt: users.closedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!holder || holder.closedAt) return;
  await db.transaction(async (tx) => {
    const greetByName = await greetsByName(tx, userId, holder.email);
    await enqueueEmail(tx, {
      kind: "login_failures",
      // One message per account and day's window: the counter above already says it is the first.
      eventKey: `${userId}:${new Date().toISOString()}`,
      to: holder.email,
      data: {
        name: holder.fullName,
        greetByName,
        failures,
        windowMinutes: FAILURE_WINDOW_MINUTES,
        at: new Date().toISOString(),
      },
    });
  });
  request.server.mail.wake();
}
