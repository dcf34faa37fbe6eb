import { asc, eq } from "drizzle-orm";
import { orderNumber } from "#domain/order-status.js";
import { returnReferenceText, shopPaysReturn } from "#domain/returns.js";
import { greetsByName } from "../mail/greeting.js";
import type { ReturnUpdateStep } from "../mail/messages.js";
import { enqueueEmail } from "../mail/outbox.js";
import type { Transaction } from "../platform/db/client.js";
import { orderItems, orders, returnRequestLines, returnRequests } from "../platform/db/schema.js";

/**
 * The customer's message about a step of a request (kind `return_update`), written in the step's
 * transaction: one per request and step.
 */
export async function enqueueReturnUpdate(
  tx: Transaction,
  requestId: string,
  step: ReturnUpdateStep,
  { note = null, amountCents = null }: { note?: string | null; amountCents?: number | null },
): Promise<void> {
  const [row] = await tx
    .select({ request: returnRequests, order: orders })
    .from(returnRequests)
    .innerJoin(orders, eq(orders.id, returnRequests.orderId))
    .where(eq(returnRequests.id, requestId));
  if (!row) throw new Error(`return request ${requestId} not found`);
  const { request, order } = row;
  const lines = await tx
    .select({
      name: orderItems.name,
      size: orderItems.size,
      quantity: returnRequestLines.quantity,
      unitPriceCents: orderItems.unitPriceCents,
    })
    .from(returnRequestLines)
    .innerJoin(orderItems, eq(orderItems.id, returnRequestLines.orderItemId))
    .where(eq(returnRequestLines.requestId, requestId))
    .orderBy(asc(orderItems.position));
  await enqueueEmail(tx, {
    kind: "return_update",
    eventKey: `${requestId}:${step}`,
    to: order.customerEmail,
    data: {
      orderId: order.id,
      orderNumber: orderNumber(order.id),
      customerName: order.deliveryName,
      // The delivery name is free text anyone can type: a greeting only for a proven address.
      greetByName: await greetsByName(tx, order.userId, order.customerEmail),
      requestId,
      reference: returnReferenceText(request.number),
      step,
      reason: request.reason,
      lines,
      deadlineDay: request.deadlineDay,
      note,
      shopPaysReturn: shopPaysReturn(request.reason),
      amountCents,
    },
  });
}
