import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { Database, Transaction } from "../platform/db/client.js";
import { orderItems, planCharges, planLines, plans } from "../platform/db/schema.js";

/**
 * A box's order became paid (payments/mark-paid.ts, whichever way: the charge's own answer, its
 * notification, reconciliation): its charge row is paid, the plan's next date moves on by its
 * cadence from that box's date, and each line remembers the unit price paid (the next-box e-mail
 * says a rise). A plan that waited for a card is active again. Nothing for an order that is no box.
 */
export async function settlePlanChargeOfOrder(tx: Transaction, orderId: string): Promise<void> {
  const [charge] = await tx
    .update(planCharges)
    .set({ status: "paid", retryAt: null, settledAt: sql`now()` })
    .where(and(eq(planCharges.orderId, orderId), inArray(planCharges.status, ["charging", "unknown", "declined"])))
    .returning({ planId: planCharges.planId, date: planCharges.deliveryDate });
  if (!charge) return;
  await tx
    .update(plans)
    .set({
      nextDate: sql`(${charge.date}::date + ${plans.cadenceWeeks} * 7)`,
      status: sql`case when ${plans.status} = 'needs_card' then 'active' else ${plans.status} end`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(plans.id, charge.planId), lte(plans.nextDate, charge.date)));
  await tx.execute(sql`
    update ${planLines} l set last_unit_price_cents = i.unit_price_cents
    from ${orderItems} i
    where l.plan_id = ${charge.planId} and i.order_id = ${orderId} and i.product_id = l.product_id and i.size = l.size`);
}

/**
 * The box's order a notification is about, by its pf_payment_id (the charge's answer carried it):
 * PayFast may echo an older m_payment_id on an ad hoc charge's notification, so the payment's own id
 * is matched first (payments/itn.ts), then the m_payment_id.
 */
export async function orderOfChargedPayment(db: Database, pfPaymentId: string): Promise<string | null> {
  const [row] = await db
    .select({ orderId: planCharges.orderId })
    .from(planCharges)
    .where(eq(planCharges.pfPaymentId, pfPaymentId))
    .limit(1);
  return row?.orderId ?? null;
}
