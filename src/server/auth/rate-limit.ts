import { sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { recordAudit } from "../platform/audit.js";
import { clientNetwork } from "../platform/client-network.js";
import type { Database } from "../platform/db/client.js";
import { HttpError } from "../platform/errors.js";

const WINDOW = "1 minute";

/** A fixed window's length, as PostgreSQL reads an interval. */
export type LimitWindow = "1 minute" | "15 minutes" | "1 day";

interface Counted {
  key: string;
  count: number;
  retry_after: number;
}

/**
 * Adds one to every key's count in its current fixed window (kept in PostgreSQL, so every app
 * instance shares the count), starting a new window where the last one is over; answers the counts.
 */
export async function countInWindow(
  db: Database,
  keys: readonly string[],
  window: LimitWindow = WINDOW,
): Promise<Counted[]> {
  const distinct = [...new Set(keys)];
  if (distinct.length === 0) return [];
  const values = sql.join(
    distinct.map((key) => sql`(${key}, 1, now() + interval '${sql.raw(window)}')`),
    sql`, `,
  );
  const { rows } = await db.execute<{ key: string; count: number; retry_after: number }>(sql`
    insert into rate_limits (key, count, reset_at) values ${values}
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning key, count, greatest(1, ceil(extract(epoch from reset_at - now())))::int as retry_after
  `);
  return rows;
}

/** The counts of `keys` in their current windows, without adding to them (a key with none is left out). */
export async function countsNow(db: Database, keys: readonly string[]): Promise<Counted[]> {
  if (keys.length === 0) return [];
  const { rows } = await db.execute<{ key: string; count: number; retry_after: number }>(sql`
    select key, count, greatest(1, ceil(extract(epoch from reset_at - now())))::int as retry_after
    from rate_limits
    where key in (${sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    )}) and reset_at > now()
  `);
  return rows;
}

/**
 * Counts one attempt against every key (fixed one-minute windows unless `window` says otherwise)
 * and refuses with 429 and Retry-After when any key is over `limit`.
 */
export async function countAttempt(
  db: Database,
  reply: FastifyReply,
  keys: readonly string[],
  limit: number,
  message = "Too many attempts. Please wait a minute and try again.",
  window: LimitWindow = WINDOW,
): Promise<void> {
  const rows = await countInWindow(db, keys, window);
  const over = rows.filter((row) => row.count > limit);
  if (over.length > 0) {
    // A lockout is recorded once per budget and window (its first refusal), not for every attempt it refuses.
    const lockedNow = over.filter((row) => row.count === limit + 1).map((row) => row.key);
    if (lockedNow.length > 0) {
      await recordAudit(db, reply.request, {
        action: "auth.rate_limited",
        actor: null,
        after: { keys: lockedNow, limit },
      });
    }
    reply.header("retry-after", String(Math.max(...over.map((row) => row.retry_after))));
    throw new HttpError(429, message, "RATE_LIMITED");
  }
}

/** Drops windows long past, so the table stays small: a job's work (app.ts), never a request's. */
export async function pruneRateLimits(db: Database): Promise<number> {
  const result = await db.execute(sql`delete from rate_limits where reset_at < now() - interval '1 hour'`);
  return result.rowCount ?? 0;
}

/**
 * The account an attempt names: the user's id when the typed username or e-mail is a user's (so
 * both count against one budget), otherwise the typed text itself. Unknown names are limited
 * just the same, so the limit does not tell which accounts exist.
 */
export type AttemptAccount = string | { userId: string };

/** What an attempt is counted as: each has its own budgets. */
export type AttemptAction =
  | "login"
  | "register"
  | "forgot-password"
  | "reset-password"
  | "create-order"
  | "cancel-order"
  | "email-check"
  | "second-factor";

/** The key of one account's budget for `action`. */
export function accountKey(action: AttemptAction, account: AttemptAccount): string {
  return typeof account === "string"
    ? `${action}:account:${account.toLowerCase()}`
    : `${action}:user:${account.userId}`;
}

/** The key of the client network's budget for `action`. */
export function networkKey(action: AttemptAction, request: FastifyRequest): string {
  return `${action}:ip:${clientNetwork(request.ip)}`;
}

/** The keys of one login or register attempt: the client's network and the accounts it names. */
export function attemptKeys(
  action: AttemptAction,
  request: FastifyRequest,
  accounts: readonly AttemptAccount[],
): string[] {
  return [networkKey(action, request), ...accounts.map((account) => accountKey(action, account))];
}
