import { eq, sql } from "drizzle-orm";
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
import { type Order, orderStatusInput } from "../../domain/schemas/orders.js";
import type { Database } from "../db/client.js";
import { orders } from "../db/schema.js";
import { conflict, notFound } from "../errors.js";
import { enqueueOrderConfirmation, enqueueOrderShipped } from "../mail/order-emails.js";
import { findOrder } from "../orders/queries.js";
import { settlePaidStock } from "../stock/settle.js";
import { adminOrderDetail, listAdminOrderPage, orderSummary } from "./order-queries.js";

interface MoveOptions {
  refuse?: (from: OrderStatus) => Error;
  shipping?: { courier: string | null; trackingNumber: string | null };
}

const cannotMove = (from: OrderStatus, to: OrderStatus) =>
  conflict(`Cannot move an order from ${from} to ${to}`, "ORDER_STATUS_CONFLICT");

/**
 * Moves an order one step forward, in one transaction with the order row locked: of many
 * concurrent requests exactly one makes the move, and the others see the status it made. Marking
 * an order paid turns its stock hold into a sale (stock/settle.ts) and writes its confirmation, as
 * a PayFast payment does; marking it shipped keeps the courier and tracking number and writes the
 * shipped message.
 */
async function moveOrder(
  { db, shopName }: { db: Database; shopName: string },
  id: string,
  to: OrderStatus,
  { refuse = (from) => cannotMove(from, to), shipping = { courier: null, trackingNumber: null } }: MoveOptions = {},
): Promise<Order> {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: orders.status, stockState: orders.stockState })
      .from(orders)
      .where(eq(orders.id, id))
      .for("update");
    if (!current) throw notFound("Order not found");
    if (!canMoveOrder(current.status, to)) throw refuse(current.status);
    await tx
      .update(orders)
      .set({
        status: to,
        ...(to === "completed" ? { paidBy: "admin" as const, paidAt: sql`now()` } : {}),
        ...(to === "processed" ? { shippedAt: sql`now()`, ...shipping } : {}),
      })
      .where(eq(orders.id, id));
    if (to === "completed") {
      await settlePaidStock(tx, { id, stockState: current.stockState });
      await enqueueOrderConfirmation(tx, id, shopName);
    }
    if (to === "processed") await enqueueOrderShipped(tx, id, shopName);
  });
  const order = await findOrder(db, id);
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
  app.patch("/orders/:id/status", { schema: { params: uuidParam, body: orderStatusInput } }, async (request) => {
    const { status, courier, trackingNumber } = request.body;
    const moved = await moveOrder(context, request.params.id, status, { shipping: { courier, trackingNumber } });
    app.mail.wake();
    return moved;
  });

  app.patch("/orders/:id/confirm-payment", { schema: { params: uuidParam } }, async (request) => {
    const moved = await moveOrder(context, request.params.id, "completed", {
      refuse: (from) => conflict(`Cannot confirm payment: the order is ${from}, not pending`, "ORDER_STATUS_CONFLICT"),
    });
    app.mail.wake();
    return moved;
  });
};
