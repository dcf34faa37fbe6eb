import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { PayfastApi } from "../payfast/api-client.js";
import type { Database } from "../platform/db/client.js";
import { saDaySql } from "../platform/db/sa-time.js";
import { orders, plans } from "../platform/db/schema.js";

export const CANCEL_PLAN_TOKENS_JOB = "plan-tokens-cancel";

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
    where status = 'paused' and paused_until <= ${saDaySql(sql`now()`)}`);
  const due = await db
    .select({ id: plans.id, token: plans.payfastToken })
    .from(plans)
    .where(and(eq(plans.status, "cancelled"), isNotNull(plans.payfastToken), isNull(plans.tokenCancelledAt)))
    .limit(100);
  let ended = 0;
  for (const plan of due) {
    try {
      const outcome = await api.cancelSubscription(plan.token as string);
      await db.update(plans).set({ tokenCancelledAt: sql`now()` }).where(eq(plans.id, plan.id));
      log.info({ planId: plan.id, outcome }, "plan's PayFast token cancelled");
      ended += 1;
    } catch (error) {
      log.warn({ err: error, planId: plan.id }, "plan's PayFast token not cancelled yet; the next run tries again");
    }
  }
  return ended;
}
