import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { CancelReason, OrderMover, OrderStatus } from "#domain/order-status.js";
import { recordAudit } from "../platform/audit.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { orders } from "../platform/db/schema.js";
import { conflict } from "../platform/errors.js";
import { releasePromo, releaseStrandedPromoHolds } from "../promo/codes.js";
import { releaseHeld } from "../stock/holds.js";
import { moveOrderStatus } from "./status.js";

const CANCELLED_BY: Record<CancelReason, OrderMover> = { expired: "expiry", shopper: "shopper", admin: "admin" };

/**
 * Cancels an unpaid order and releases what it holds (stock, a promo code's use), in one transaction. Only a pending order
 * can be cancelled: the move (status.ts) matches it only while it is pending, so a payment booked a moment
 * earlier (which locks the same row) wins, and false says so.
 */
export async function cancelOrder(
  db: Database,
  orderId: string,
  reason: CancelReason,
  {
    note = null,
    onCancelled,
  }: {
    /** What an admin wrote when cancelling by hand. */
    note?: string | null;
    /** Runs in the cancel's transaction once it is made (the audit record of a person's cancel). */
    onCancelled?: (tx: Transaction) => Promise<void>;
  } = {},
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [cancelled] = await moveOrderStatus(
      tx,
      { orderId, from: "pending", to: "cancelled", by: CANCELLED_BY[reason] },
      { cancelReason: reason, cancelledAt: sql`now()`, cancelNote: note },
    );
    if (!cancelled) return false;
    if (cancelled.stockState === "held") await releaseHeld(tx, orderId);
    await releasePromo(tx, orderId);
    await onCancelled?.(tx);
    return true;
  });
}

/**
 * A person cancels an order (its shopper, or an admin with a reason): the cancel and its audit
 * record in one transaction. Answers false when the order was no longer pending.
 */
export async function cancelOrderByPerson(
  db: Database,
  request: FastifyRequest,
  orderId: string,
  reason: "shopper" | "admin",
  /** The admin's reason, kept on the order and in the audit record. */
  note?: string,
): Promise<boolean> {
  return cancelOrder(db, orderId, reason, {
    note: note ?? null,
    onCancelled: (tx) =>
      recordAudit(tx, request, {
        action: "order.cancelled",
        subject: { type: "order", id: orderId },
        before: { status: "pending" },
        after: { status: "cancelled", cancelReason: reason, ...(note === undefined ? {} : { note }) },
      }),
  });
}

/** The 409 of a cancel that found the order no longer pending. */
export const cannotCancel = (status: OrderStatus, hint = "") =>
  conflict(`Only an unpaid order can be cancelled; this one is ${status}.${hint}`, "ORDER_STATUS_CONFLICT");

/** How many orders one expiry run cancels at most; the next run takes the rest. */
const EXPIRE_BATCH = 500;

/**
 * Cancels the orders left unpaid for longer than the hold (reason "expired"), or past the longer
 * hold a PENDING notification gave them (`hold_until`), releasing their stock. Each order is its own transaction, so a payment for one of them is never blocked for long.
 */
export async function expireOrders(db: Database, holdMinutes: number): Promise<number> {
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, "pending"),
        lt(orders.createdAt, sql`now() - ${`${holdMinutes * 60} seconds`}::interval`),
        // A PENDING notification from PayFast holds the order longer (ORDER_PENDING_HOLD_HOURS).
        or(isNull(orders.holdUntil), lt(orders.holdUntil, sql`now()`)),
      ),
    )
    .orderBy(orders.createdAt)
    .limit(EXPIRE_BATCH);
  let expired = 0;
  for (const { id } of due) {
    if (await cancelOrder(db, id, "expired")) expired += 1;
  }
  await releaseStrandedPromoHolds(db, holdMinutes);
  return expired;
}
