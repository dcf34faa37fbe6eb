import { eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { canMoveOrder, type OrderStatus } from "../../domain/order-status.js";
import {
  adminOrderDetail as adminOrderDetailAnswer,
  adminOrderListQuery,
  adminOrderPage,
  orderRangeQuery,
  orderSummary as orderSummaryAnswer,
} from "../../domain/schemas/admin-orders.js";
import { uuidParam } from "../../domain/schemas/common.js";
import { type AdminOrder, adminOrder, orderStatusInput } from "../../domain/schemas/orders.js";
import { type AuditAction, recordAudit } from "../audit/record.js";
import type { Database } from "../db/client.js";
import { orders } from "../db/schema.js";
import { conflict, notFound } from "../errors.js";
import { enqueueOrderShipped } from "../mail/order-emails.js";
import { markOrderPaid } from "../orders/mark-paid.js";
import { findAdminOrder } from "../orders/queries.js";
import { openWholeOrderRequest } from "../returns/requests.js";
import { adminOrderDetail, listAdminOrderPage, orderSummary } from "./order-queries.js";

interface MoveOptions {
  /** The audit record's action: a status change, or a payment confirmed in Payment Verification. */
  action?: AuditAction;
  refuse?: (from: OrderStatus) => Error;
  shipping?: { courier: string | null; trackingNumber: string | null };
}

const cannotMove = (from: OrderStatus, to: OrderStatus) =>
  conflict(`Cannot move an order from ${from} to ${to}`, "ORDER_STATUS_CONFLICT");

/**
 * Moves an order one step forward, in one transaction with the order row locked: of many
 * concurrent requests exactly one makes the move, and the others see the status it made. Marking
 * an order paid is orders/mark-paid.ts, as for a PayFast payment (invoice number, stock,
 * confirmation), and keeps which admin did (paid_by_user_id); marking it shipped keeps the courier
 * and tracking number and writes the shipped message. The audit record of the move is written in
 * the same transaction.
 */
async function moveOrder(
  { db, shopName }: { db: Database; shopName: string },
  request: FastifyRequest,
  id: string,
  to: OrderStatus,
  {
    action = "order.status_changed",
    refuse = (from) => cannotMove(from, to),
    shipping = { courier: null, trackingNumber: null },
  }: MoveOptions = {},
): Promise<AdminOrder> {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: orders.status, stockState: orders.stockState })
      .from(orders)
      .where(eq(orders.id, id))
      .for("update");
    if (!current) throw notFound("Order not found");
    if (!canMoveOrder(current.status, to)) throw refuse(current.status);
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
        { orderId: id, stockState: current.stockState, paidBy: "admin", paidByUserId: request.user?.id ?? null },
        shopName,
      );
    } else {
      await tx
        .update(orders)
        .set({ status: to, ...(to === "processed" ? { shippedAt: sql`now()`, ...shipping } : {}) })
        .where(eq(orders.id, id));
    }
    if (to === "processed") await enqueueOrderShipped(tx, id, shopName);
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

/**
 * /api/admin/orders: pages of orders (searched, filtered), the pending ones awaiting payment, one
 * order with its payments and e-mails, a range's figures, and the status machine's moves.
 */
export const adminOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  const listSchema = { querystring: adminOrderListQuery, response: { 200: adminOrderPage } };
  app.get("/orders", { schema: listSchema }, async (request) => listAdminOrderPage(app.db, request.query));

  app.get("/orders/preparing", { schema: listSchema }, async (request) =>
    listAdminOrderPage(app.db, { ...request.query, status: "pending" }),
  );

  app.get(
    "/orders/summary",
    { schema: { querystring: orderRangeQuery, response: { 200: orderSummaryAnswer } } },
    async (request) => orderSummary(app.db, request.query),
  );

  app.get(
    "/orders/:id",
    { schema: { params: uuidParam, response: { 200: adminOrderDetailAnswer } } },
    async (request) => {
      const detail = await adminOrderDetail(app.db, request.params.id);
      if (!detail) throw notFound("Order not found");
      return detail;
    },
  );

  const context = { db: app.db, shopName: app.config.shop.name };
  app.patch(
    "/orders/:id/status",
    { schema: { params: uuidParam, body: orderStatusInput, response: { 200: adminOrder } } },
    async (request) => {
      const { status, courier, trackingNumber } = request.body;
      const moved = await moveOrder(context, request, request.params.id, status, {
        shipping: { courier, trackingNumber },
      });
      app.mail.wake();
      return moved;
    },
  );

  app.patch(
    "/orders/:id/confirm-payment",
    { schema: { params: uuidParam, response: { 200: adminOrder } } },
    async (request) => {
      const moved = await moveOrder(context, request, request.params.id, "completed", {
        action: "order.payment_confirmed",
        refuse: (from) =>
          conflict(`Cannot confirm payment: the order is ${from}, not pending`, "ORDER_STATUS_CONFLICT"),
      });
      app.mail.wake();
      return moved;
    },
  );
};
