import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../db/client.js";
import { orders, plans } from "../db/schema.js";
import type { PayfastApi } from "../payfast/api-client.js";

export const CANCEL_PLAN_TOKENS_JOB = "plan-tokens-cancel";

/** PayFast's answer to `PUT /subscriptions/{token}/cancel`; an unknown outcome throws (the next run tries again). */
export type CancelSubscription = (token: string) => Promise<"cancelled" | "already_cancelled">;

/**
 * The one call the plans make to end a token at PayFast. The API client's `cancelSubscription` comes
 * with PayFast's side of plans (branch plans-payfast); until it is there this refuses, and the
 * sweep keeps the plan's token waiting (the plan itself is cancelled in the shop at once).
 */
export function cancelSubscriptionOf(api: PayfastApi): CancelSubscription {
  const client = api as PayfastApi & { cancelSubscription?: CancelSubscription };
  if (typeof client.cancelSubscription === "function") return (token) => client.cancelSubscription?.(token) as never;
  return async () => {
    throw new Error("PayFast's API client cannot cancel a subscription token yet");
  };
}

/**
 * The cancel sweep (every few minutes, and at once after a cancel): each cancelled plan whose token
 * PayFast has not confirmed ended is cancelled there ("already cancelled" counts as done). A call
 * that fails leaves the plan for the next run: idempotent, one plan at a time. It also ends the
 * plans whose first order was never paid (cancelled or expired), and starts again paused plans whose
 * pause is over.
 */
export async function sweepPlans(db: Database, api: PayfastApi, log: FastifyBaseLogger): Promise<number> {
  await db.execute(sql`
    update plans set status = 'cancelled', cancelled_at = now(), cancel_reason = 'unpaid', updated_at = now()
    where status = 'pending_first_payment'
      and exists (select from ${orders} o where o.id = plans.created_from_order_id and o.status = 'cancelled')`);
  await db.execute(sql`
    update plans set status = case when payfast_token is not null or mode = 'reminder' then 'active' else 'needs_card' end,
      paused_until = null, updated_at = now()
    where status = 'paused' and paused_until <= (now() at time zone 'Africa/Johannesburg')::date`);
  const due = await db
    .select({ id: plans.id, token: plans.payfastToken })
    .from(plans)
    .where(and(eq(plans.status, "cancelled"), isNotNull(plans.payfastToken), isNull(plans.tokenCancelledAt)))
    .limit(100);
  const cancel = cancelSubscriptionOf(api);
  let ended = 0;
  for (const plan of due) {
    try {
      const outcome = await cancel(plan.token as string);
      await db.update(plans).set({ tokenCancelledAt: sql`now()` }).where(eq(plans.id, plan.id));
      log.info({ planId: plan.id, outcome }, "plan's PayFast token cancelled");
      ended += 1;
    } catch (error) {
      log.warn({ err: error, planId: plan.id }, "plan's PayFast token not cancelled yet; the next run tries again");
    }
  }
  return ended;
}
