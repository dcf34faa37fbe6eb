import { sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Database } from "../db/client.js";
import { HttpError } from "../errors.js";

const WINDOW = "1 minute";

/**
 * Counts one attempt against every key (fixed one-minute windows kept in PostgreSQL, so every
 * app instance shares the count) and refuses with 429 and Retry-After when any key is over `limit`.
 */
export async function countAttempt(
  db: Database,
  reply: FastifyReply,
  keys: readonly string[],
  limit: number,
): Promise<void> {
  const distinct = [...new Set(keys)];
  if (distinct.length === 0) return;
  const values = sql.join(
    distinct.map((key) => sql`(${key}, 1, now() + interval '${sql.raw(WINDOW)}')`),
    sql`, `,
  );
  const { rows } = await db.execute<{ count: number; retry_after: number }>(sql`
    insert into rate_limits (key, count, reset_at) values ${values}
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning count, greatest(1, ceil(extract(epoch from reset_at - now())))::int as retry_after
  `);
  const over = rows.filter((row) => row.count > limit);
  if (over.length > 0) {
    reply.header("retry-after", String(Math.max(...over.map((row) => row.retry_after))));
    throw new HttpError(429, "Too many attempts. Please wait a minute and try again.");
  }
  // Now and then, drop windows long past so the table stays small.
  if (Math.random() < 0.01) await db.execute(sql`delete from rate_limits where reset_at < now() - interval '1 hour'`);
}

/** The keys of one login or register attempt: the client's address and the account it names. */
export function attemptKeys(action: "login" | "register", request: FastifyRequest, accounts: readonly string[]) {
  return [`${action}:ip:${request.ip}`, ...accounts.map((account) => `${action}:account:${account.toLowerCase()}`)];
}
