import { eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { nextOrderStatus, type OrderStatus } from "#domain/order-status.js";
import type { AdminOrder } from "#domain/schemas/orders.js";
import type { DocumentIssuer } from "../orders/issued-documents.js";
import { enqueueOrderShipped } from "../orders/order-emails.js";
import { findAdminOrder } from "../orders/queries.js";
import { cannotMoveOrder, moveOrderStatus } from "../orders/status.js";
import { type AuditAction, recordAudit } from "../platform/audit.js";
import type { Database } from "../platform/db/client.js";
import { orders } from "../platform/db/schema.js";
import { conflict, notFound } from "../platform/errors.js";
import { openWholeOrderRequest } from "../returns/requests.js";
import { markOrderPaid } from "./mark-paid.js";

export interface MoveForwardOptions {
  /** The audit record's action: a status change, or a payment confirmed in Payment Verification. */
  action?: AuditAction;
  refuse?: (from: OrderStatus) => Error;
  shipping?: { courier: string | null; trackingNumber: string | null };
}

/**
 * An admin moves an order one step forward (nextOrderStatus: Mark as Paid, Mark as Shipped), in
 * one transaction with the order row locked: of many concurrent requests exactly one makes the
 * move, and the others see the status it made. Marking
 * an order paid is payments/mark-paid.ts, as for a PayFast payment (invoice number, stock,
 * confirmation), and keeps which admin did (paid_by_user_id); marking it shipped keeps the courier
 * and tracking number and writes the shipped message. The audit record of the move is written in
 * the same transaction.
 */
export async function moveOrderForward(
  { db, issuer }: { db: Database; issuer: DocumentIssuer },
  request: FastifyRequest,
  id: string,
  to: OrderStatus,
  {
    action = "order.status_changed",
    refuse = (from) => cannotMoveOrder(from, to),
    shipping = { courier: null, trackingNumber: null },
  }: MoveForwardOptions = {},
): Promise<AdminOrder> {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: orders.status, stockState: orders.stockState })
      .from(orders)
      .where(eq(orders.id, id))
      .for("update");
    if (!current) throw notFound("Order not found");
    if (nextOrderStatus(current.status) !== to) throw refuse(current.status);
    if (to === "processed") {
      const cancelling = await openWholeOrderRequest(tx, id);
      if (cancelling) {
        throw conflict(
          `The order is to be refunded (${cancelling}, Requests tab): settle that request before shipping it.`,
          "ORDER_STATUS_CONFLICT",
        );
      }
    }
    if (to === "completed") {
      await markOrderPaid(
        tx,
        {
          orderId: id,
          from: current.status,
          stockState: current.stockState,
          paidBy: "admin",
          paidByUserId: request.user?.id ?? null,
        },
        issuer,
      );
    } else {
      await moveOrderStatus(
        tx,
        { orderId: id, from: current.status, to, by: "admin" },
        to === "processed" ? { shippedAt: sql`now()`, ...shipping } : {},
      );
    }
    if (to === "processed") await enqueueOrderShipped(tx, id);
    await recordAudit(tx, request, {
      action,
      subject: { type: "order", id },
      before: { status: current.status },
      after: to === "processed" ? { status: to, ...shipping } : { status: to },
    });
  });
  const order = await findAdminOrder(db, id);
  if (!order) throw notFound("Order not found");
  return order;
}
