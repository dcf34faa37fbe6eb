import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { UNPAID_STATUSES } from "#domain/order-status.js";
import { PLAN_UNKNOWN_SETTLE_MINUTES } from "#domain/plans.js";
import { cancelOrder } from "../orders/cancel.js";
import { trackPayfastProblem } from "../payfast/problems.js";
import type { Database } from "../platform/db/client.js";
import { orders, payfastItns, planCharges } from "../platform/db/schema.js";

/** A "charging" row older than this lost its runner (a crash, a restart): it is settled like an unknown one. */
const STALE_CHARGING_MINUTES = 10;

export interface SettleChargesContext {
  db: Database;
  log: FastifyBaseLogger;
  /** Reconciliation of these orders against PayFast's history (payments/reconcile.ts); throws when PayFast does not answer. */
  reconcile: (orderIds: readonly string[]) => Promise<unknown>;
}

/**
 * Charges PayFast did not answer about ("unknown", or "charging" left by a runner that died), settled
 * without charging again: each box's order is looked for in PayFast's history by its m_payment_id
 * and booked when it is there (markOrderPaid then settles the row). One still missing an hour after
 * its attempt, with no notification of it either, was not charged: its order is cancelled (stock
 * released) and the box is tried again at the next charging run, as a decline is. Those still open
 * show in the admin's "Needs attention" (the `plan_charges` problem) until settled.
 */
export async function settleUnknownCharges(
  context: SettleChargesContext,
): Promise<{ paid: number; notPaid: number; open: number }> {
  const { db, log } = context;
  const inDoubt = or(
    eq(planCharges.status, "unknown"),
    and(
      eq(planCharges.status, "charging"),
      lt(planCharges.attemptedAt, sql`now() - ${`${STALE_CHARGING_MINUTES} minutes`}::interval`),
    ),
  );
  // A runner that died before it asked PayFast (no order yet) charged nothing: the box is free to claim again.
  await db.delete(planCharges).where(and(inDoubt, isNull(planCharges.orderId), eq(planCharges.attempts, 1)));
  await db
    .update(planCharges)
    .set({ status: "declined", attempts: sql`${planCharges.attempts} - 1`, retryAt: sql`now()` })
    .where(and(inDoubt, isNull(planCharges.orderId)));

  const rows = await db
    .select({ id: planCharges.id, orderId: planCharges.orderId })
    .from(planCharges)
    .where(inDoubt)
    .limit(1_000);
  if (rows.length === 0) {
    await trackPayfastProblem(db, log, "plan_charges", { ok: true });
    return { paid: 0, notPaid: 0, open: 0 };
  }
  const orderIds = rows.map((row) => row.orderId as string);
  let answered = true;
  try {
    await context.reconcile(orderIds);
  } catch (error) {
    answered = false;
    log.warn({ err: error }, "nappy plan charges in doubt: PayFast's history did not answer");
  }
  const left = await db
    .select({
      id: planCharges.id,
      orderId: planCharges.orderId,
      orderStatus: orders.status,
      old: sql<boolean>`${planCharges.attemptedAt} < now() - ${`${PLAN_UNKNOWN_SETTLE_MINUTES} minutes`}::interval`,
      notified: sql<boolean>`exists (select from ${payfastItns} i where i.order_id = ${planCharges.orderId})`,
    })
    .from(planCharges)
    .innerJoin(orders, eq(orders.id, planCharges.orderId))
    .where(and(inDoubt, inArray(planCharges.orderId, orderIds)));
  let notPaid = 0;
  for (const row of left) {
    // PayFast's history answered without it, long enough after, and no notification of it came: not charged.
    if (!answered || !row.old || row.notified || !UNPAID_STATUSES.includes(row.orderStatus)) continue;
    if (row.orderStatus === "pending") {
      await cancelOrder(db, row.orderId as string, "expired", { note: "Nappy plan charge not in PayFast's history" });
    }
    const [settled] = await db
      .update(planCharges)
      .set({
        status: "declined",
        retryAt: sql`now()`,
        payfastResponse: "Not in PayFast's transaction history: the card was not charged.",
        settledAt: sql`now()`,
      })
      .where(and(eq(planCharges.id, row.id), inDoubt))
      .returning({ id: planCharges.id });
    if (settled) notPaid += 1;
  }
  const open = left.length - notPaid;
  const paid = rows.length - left.length;
  await trackPayfastProblem(
    db,
    log,
    "plan_charges",
    open === 0
      ? { ok: true }
      : {
          ok: false,
          detail: `${open} nappy plan box(es) charged without PayFast saying whether the card was charged (orders ${left
            .slice(0, 5)
            .map((row) => row.orderId?.slice(-8))
            .join(", ")}${open > 5 ? "…" : ""}). They are not charged again until PayFast's history settles them.`,
        },
  );
  log.info({ paid, notPaid, open }, "nappy plan charges in doubt reconciled");
  return { paid, notPaid, open };
}
