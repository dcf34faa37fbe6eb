import { eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { canMoveOrder, type OrderStatus } from "../../domain/order-status.js";
import { uuidParam } from "../../domain/schemas/common.js";
import { type Order, orderStatusInput } from "../../domain/schemas/orders.js";
import type { Database } from "../db/client.js";
import { orders } from "../db/schema.js";
import { conflict, notFound } from "../errors.js";
import { findOrder, listOrders } from "../orders/queries.js";
import { settlePaidStock } from "../stock/settle.js";

const cannotMove = (from: OrderStatus, to: OrderStatus) =>
  conflict(`Cannot move an order from ${from} to ${to}`, "ORDER_STATUS_CONFLICT");

/**
 * Moves an order one step forward, in one transaction with the order row locked: of many
 * concurrent requests exactly one makes the move, and the others see the status it made. Marking
 * an order paid turns its stock hold into a sale (stock/settle.ts), as a PayFast payment does.
 */
async function moveOrder(
  db: Database,
  id: string,
  to: OrderStatus,
  refuse: (from: OrderStatus) => Error = (from) => cannotMove(from, to),
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
        ...(to === "processed" ? { shippedAt: sql`now()` } : {}),
      })
      .where(eq(orders.id, id));
    if (to === "completed") await settlePaidStock(tx, { id, stockState: current.stockState });
  });
  const order = await findOrder(db, id);
  if (!order) throw notFound("Order not found");
  return order;
}

/** /api/admin/orders: every order, the pending ones awaiting payment, and the status machine's moves. */
export const adminOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/orders", async () => listOrders(app.db));

  app.get("/orders/preparing", async () => listOrders(app.db, eq(orders.status, "pending")));

  app.patch("/orders/:id/status", { schema: { params: uuidParam, body: orderStatusInput } }, async (request) =>
    moveOrder(app.db, request.params.id, request.body.status),
  );

  app.patch("/orders/:id/confirm-payment", { schema: { params: uuidParam } }, async (request) =>
    moveOrder(app.db, request.params.id, "completed", (from) =>
      conflict(`Cannot confirm payment: the order is ${from}, not pending`, "ORDER_STATUS_CONFLICT"),
    ),
  );
};
