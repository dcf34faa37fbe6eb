import { and, asc, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import { centsToDecimal } from "#domain/money.js";
import { orderNumber } from "#domain/order-status.js";
import { returnReferenceText } from "#domain/returns.js";
import { endOfSaDay } from "#domain/sa-calendar.js";
import type { AdminReturnRequest, ReturnRequest } from "#domain/schemas/returns.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { inTurn } from "../platform/db/in-turn.js";
import { orderItems, orders, returnRequestEvents, returnRequestLines, returnRequests } from "../platform/db/schema.js";

type Db = Database | Transaction;

/** Requests matching `where`, oldest first, each with its lines, history and customer (three queries). */
export async function listReturnRequests(db: Db, where?: SQL, limit = 500): Promise<AdminReturnRequest[]> {
  const rows = await db
    .select({
      request: returnRequests,
      customerName: orders.deliveryName,
      customerEmail: orders.customerEmail,
      orderStatus: orders.status,
    })
    .from(returnRequests)
    .innerJoin(orders, eq(orders.id, returnRequests.orderId))
    .where(where)
    .orderBy(asc(returnRequests.createdAt), asc(returnRequests.number))
    .limit(limit);
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.request.id);
  const [lines, events] = await inTurn(
    () =>
      db
        .select({
          requestId: returnRequestLines.requestId,
          lineId: returnRequestLines.orderItemId,
          quantity: returnRequestLines.quantity,
          restocked: returnRequestLines.restocked,
          name: orderItems.name,
          size: orderItems.size,
          unitPriceCents: orderItems.unitPriceCents,
          position: orderItems.position,
        })
        .from(returnRequestLines)
        .innerJoin(orderItems, eq(orderItems.id, returnRequestLines.orderItemId))
        .where(inArray(returnRequestLines.requestId, ids))
        .orderBy(asc(orderItems.position)),
    () =>
      db
        .select()
        .from(returnRequestEvents)
        .where(inArray(returnRequestEvents.requestId, ids))
        .orderBy(asc(returnRequestEvents.id)),
  );
  return rows.map(({ request, customerName, customerEmail, orderStatus }) => ({
    id: request.id,
    reference: returnReferenceText(request.number),
    orderId: request.orderId,
    orderNumber: orderNumber(request.orderId),
    reason: request.reason,
    details: request.details,
    status: request.status,
    openedBy: request.openedBy,
    createdAt: request.createdAt.toISOString(),
    deadlineKind: request.deadlineKind,
    deadlineDay: request.deadlineDay,
    deadlineAt: endOfSaDay(request.deadlineDay).toISOString(),
    offeredRefund: centsToDecimal(request.offeredRefundCents),
    instructions: request.instructions,
    decision: request.decision,
    decidedAt: request.decidedAt?.toISOString() ?? null,
    closedAt: request.closedAt?.toISOString() ?? null,
    lines: lines
      .filter((line) => line.requestId === request.id)
      .map((line) => ({
        lineId: line.lineId,
        name: line.name,
        size: line.size,
        quantity: line.quantity,
        unitPrice: centsToDecimal(line.unitPriceCents),
        restocked: line.restocked,
      })),
    history: events
      .filter((event) => event.requestId === request.id)
      .map((event) => ({
        status: event.status,
        note: event.note,
        at: event.at.toISOString(),
        by: event.actorUsername,
      })),
    receivedOn: request.receivedOn,
    receivedBasis: request.receivedBasis,
    customerName,
    customerEmail,
    orderStatus,
  }));
}

/** The customer's view: without the admin's fields. */
export function forCustomer({
  customerName,
  customerEmail,
  orderStatus,
  ...request
}: AdminReturnRequest): ReturnRequest {
  return { ...request, history: request.history.map((event) => ({ ...event, by: null })) };
}

export async function findReturnRequest(db: Db, id: string): Promise<AdminReturnRequest | null> {
  const [found] = await listReturnRequests(db, eq(returnRequests.id, id), 1);
  return found ?? null;
}

/** Units of each line of an order already in a request that was not declined (what cannot be asked back again). */
export async function unitsAskedBack(db: Db, orderId: string): Promise<Map<number, number>> {
  const rows = await db
    .select({
      lineId: returnRequestLines.orderItemId,
      quantity: sql<number>`sum(${returnRequestLines.quantity})::int`,
    })
    .from(returnRequestLines)
    .innerJoin(returnRequests, eq(returnRequests.id, returnRequestLines.requestId))
    .where(and(eq(returnRequests.orderId, orderId), ne(returnRequests.status, "declined")))
    .groupBy(returnRequestLines.orderItemId);
  return new Map(rows.map((row) => [row.lineId, row.quantity]));
}
