import { and, inArray, isNotNull, isNull } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { PayfastApi } from "../payfast/api-client.js";
import type { Database } from "../platform/db/client.js";
import { plans } from "../platform/db/schema.js";
import { cancelPlansOfToken } from "./start.js";

export const PLAN_TOKEN_CHECK_JOB = "plan-token-check";

/**
 * Daily: each open card plan's agreement as PayFast's fetch shows it. One cancelled in PayFast's
 * dashboard (whose CANCELLED notification may have been lost) cancels the plan, as the notification
 * does (start.ts cancelPlansOfToken). A fetch that fails leaves the plan for tomorrow. Answers how
 * many plans it ended.
 */
export async function checkPlanTokens(db: Database, api: PayfastApi, log: FastifyBaseLogger): Promise<number> {
  const open = await db
    .select({ id: plans.id, token: plans.payfastToken })
    .from(plans)
    .where(
      and(
        inArray(plans.status, ["active", "paused", "needs_card"]),
        isNotNull(plans.payfastToken),
        isNull(plans.tokenCancelledAt),
      ),
    );
  let ended = 0;
  for (const plan of open) {
    try {
      const info = await api.fetchSubscription(plan.token as string);
      if (info.status !== "cancelled") continue;
      ended += await cancelPlansOfToken(db, plan.token as string);
      log.info({ planId: plan.id }, "plan's PayFast agreement shown cancelled: plan cancelled");
    } catch (error) {
      log.warn({ err: error, planId: plan.id }, "plan's PayFast agreement not fetched; tomorrow's check tries again");
    }
  }
  return ended;
}
