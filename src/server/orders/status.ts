import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { canMoveOrder, type OrderMover, type OrderStatus } from "#domain/order-status.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { orders } from "../platform/db/schema.js";
import { conflict } from "../platform/errors.js";

/** What else a move writes on the order row with its new status (when it was paid, shipped, cancelled...). */
export type OrderMoveColumns = Omit<PgUpdateSetSource<typeof orders>, "id" | "status">;

export interface OrderMove {
  orderId: string;
  /** The status the caller saw (with the row locked), or every status it may move from. */
  from: OrderStatus | readonly OrderStatus[];
  to: OrderStatus;
  by: OrderMover;
}

export const cannotMoveOrder = (from: OrderStatus, to: OrderStatus) =>
  conflict(`Cannot move an order from ${from} to ${to}`, "ORDER_STATUS_CONFLICT");

/**
 * The one place an order's status is written (docs/decisions/028; src/server/orders/status-writes.test.ts
 * fails on a write anywhere else). The move must be in the domain's transition table for `by`, or
 * it is refused with 409 before anything is written. The UPDATE matches the order only while it is
 * still in a status it may move from, so of two concurrent moves one wins; the rows it moved
 * answer (none when the order had moved on meanwhile).
 */
export async function moveOrderStatus(
  db: Database | Transaction,
  { orderId, from, to, by }: OrderMove,
  columns: OrderMoveColumns = {},
) {
  const froms: readonly OrderStatus[] = typeof from === "string" ? [from] : from;
  const refused = froms.find((status) => !canMoveOrder(status, to, by));
  if (refused !== undefined) throw cannotMoveOrder(refused, to);
  return db
    .update(orders)
    .set({ ...columns, status: to })
    .where(and(eq(orders.id, orderId), inArray(orders.status, [...froms])))
    .returning({ id: orders.id, stockState: orders.stockState });
}

/**
 * A list of statuses as SQL (`('completed', 'processed')`), written into the query's text as a
 * literal list would be, so the planner matches partial indexes as before. Only the table's own
 * constants (PAID_STATUSES, UNPAID_STATUSES), never a client's value.
 */
export function statusList(statuses: readonly OrderStatus[]): SQL {
  return sql.raw(`(${statuses.map((status) => `'${status}'`).join(", ")})`);
}
