import { and, eq, inArray, sql } from "drizzle-orm";
import { addDays, PLAN_PAY_LINK_DAYS } from "#domain/plans.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { planCharges, planLines, plans } from "../platform/db/schema.js";
import { badRequest, conflict, forbidden } from "../platform/errors.js";
import { readPlanPayLink, signPlanPayLink } from "./links.js";

/**
 * A reminder plan's pay link (EFT payers: PayFast charges stored cards only). The "your next box"
 * e-mail carries it; it opens the checkout with the box in the cart at plan prices, and create-order
 * with `planPayLink` makes that box's order (the plan_charges row of its date "reminded", naming the
 * order). Paid, whichever way, the row becomes "paid" and the plan moves on by its cadence, as a
 * charge would (settleRemindedBoxOfOrder, from markOrderPaid).
 */

export const PAY_LINK_INVALID =
  "This pay link has expired, was changed, or its box is paid, skipped or past. Open My plans to see your plan.";

/** Until the end of the charge day (South African), and never longer than PLAN_PAY_LINK_DAYS. */
export function payLinkFor(key: Buffer, planId: string, date: string, now = Date.now()): string {
  const expires = new Date(
    Math.min(Date.parse(`${addDays(date, 1)}T00:00:00+02:00`), now + PLAN_PAY_LINK_DAYS * 86_400_000),
  );
  return signPlanPayLink(key, { planId, date }, expires);
}

export interface PayLinkBox {
  planId: string;
  date: string;
  cadenceWeeks: number;
  lines: { productId: string; size: string; quantity: number }[];
}

/**
 * The box a pay link pays for, checked now: ours, not altered or expired, the signed-in customer's
 * plan, active in reminder mode, the date still its next one and neither paid nor skipped.
 */
export async function payLinkBox(db: Database | Transaction, key: Buffer, token: string, userId: string) {
  const link = readPlanPayLink(key, token);
  if (!link) throw badRequest(PAY_LINK_INVALID, "PLAN_LINK_INVALID");
  const [plan] = await db.select().from(plans).where(eq(plans.id, link.planId));
  if (!plan) throw badRequest(PAY_LINK_INVALID, "PLAN_LINK_INVALID");
  if (plan.userId !== userId) {
    throw forbidden("This pay link is for another account's plan. Log in with the account that has the plan.");
  }
  const [settled] = await db
    .select({ status: planCharges.status })
    .from(planCharges)
    .where(
      and(
        eq(planCharges.planId, plan.id),
        eq(planCharges.deliveryDate, link.date),
        inArray(planCharges.status, ["paid", "skipped", "charging"]),
      ),
    );
  if (plan.status !== "active" || plan.mode !== "reminder" || plan.nextDate !== link.date || settled) {
    throw badRequest(PAY_LINK_INVALID, "PLAN_LINK_INVALID");
  }
  const lines = await db
    .select({ productId: planLines.productId, size: planLines.size, quantity: planLines.quantity })
    .from(planLines)
    .where(eq(planLines.planId, plan.id));
  return { planId: plan.id, date: link.date, cadenceWeeks: plan.cadenceWeeks, lines } satisfies PayLinkBox;
}

/** The cart must be the plan's box exactly: the same products, sizes and quantities. */
export function requireCartIsBox(box: PayLinkBox, items: readonly { id: string; size: string; quantity: number }[]) {
  const key = (productId: string, size: string, quantity: number) => `${productId}\u0000${size}\u0000${quantity}`;
  const want = box.lines.map((line) => key(line.productId, line.size, line.quantity)).sort();
  const have = items.map((item) => key(item.id, item.size, item.quantity)).sort();
  if (want.length !== have.length || want.some((entry, index) => entry !== have[index])) {
    throw conflict(
      "Your cart is no longer your plan's box. Open the pay link again, or change the box in My plans first.",
      "CART_CHANGED",
    );
  }
}

/**
 * The box's order is placed: its date's row names it ("reminded"). Opening the link again and
 * placing another order moves the row to the newer order; a date already paid, skipped or charging
 * is left alone (answers false: the caller refuses).
 */
export async function recordPayLinkOrder(db: Database, box: PayLinkBox, orderId: string, amountCents: number) {
  const { rows } = await db.execute(sql`
    insert into plan_charges (plan_id, delivery_date, status, order_id, amount_cents)
    values (${box.planId}, ${box.date}, 'reminded', ${orderId}, ${amountCents})
    on conflict (plan_id, delivery_date) do update
      set order_id = excluded.order_id, amount_cents = excluded.amount_cents
      where plan_charges.status = 'reminded'
    returning id`);
  return rows.length === 1;
}

/**
 * Called by markOrderPaid for every order: when the order is a reminder plan's box, its date's row
 * becomes "paid", the plan's next date moves on by its cadence (only when that date is still next:
 * a second call changes nothing), and each line's last price is the one just paid.
 */
export async function settleRemindedBoxOfOrder(tx: Transaction, orderId: string): Promise<void> {
  const { rows } = await tx.execute<{ plan_id: string; delivery_date: string }>(sql`
    update plan_charges set status = 'paid', settled_at = now(), attempts = attempts + 1
    where order_id = ${orderId} and status = 'reminded'
    returning plan_id, delivery_date::text`);
  const [box] = rows;
  if (!box) return;
  await tx.execute(sql`
    update plans set next_date = next_date + cadence_weeks * 7, updated_at = now()
    where id = ${box.plan_id} and next_date = ${box.delivery_date}::date`);
  await tx.execute(sql`
    update plan_lines pl set last_unit_price_cents = oi.unit_price_cents
    from order_items oi
    where oi.order_id = ${orderId} and pl.plan_id = ${box.plan_id}
      and oi.product_id = pl.product_id and oi.size = pl.size`);
}
