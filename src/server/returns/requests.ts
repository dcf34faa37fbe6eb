import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import {
  CUSTOMER_REASONS,
  type CustomerReason,
  canExchange,
  canMoveRequest,
  declineRefusal,
  isOpenRequest,
  offeredRefundCents,
  REASONS_WITH_LINES,
  RETURN_REASON_LABELS,
  RETURN_STATUS_LABELS,
  type Receipt,
  type ReturnReason,
  type ReturnStatus,
  receiptDay,
  requestDeadline,
  returnReferenceText,
  returnWindows,
  shopPaysReturn,
  statedReceiptRefusal,
  WHOLE_ORDER_REASONS,
} from "#domain/returns.js";
import { saDay } from "#domain/sa-calendar.js";
import type { ReturnUpdateStep } from "../mail/messages.js";
import { nextDocumentNumber } from "../orders/document-numbers.js";
import type { Database, Transaction } from "../platform/db/client.js";
import {
  orderItems,
  orders,
  refunds,
  returnRequestEvents,
  returnRequestLines,
  returnRequests,
} from "../platform/db/schema.js";
import { badRequest, conflict, notFound } from "../platform/errors.js";
import { returnUnits } from "../stock/holds.js";
import { auditReturnStep } from "./audit.js";
import { enqueueReturnUpdate } from "./email.js";
import { unitsAskedBack } from "./queries.js";

/**
 * Cancellations, returns and complaints (docs/returns.md). Every write locks the order row first,
 * so requests of one order are decided one after another: a unit is never asked back, received,
 * or refunded twice, whatever the race. Every step writes its history row, its audit record and
 * the customer's e-mail in the same transaction.
 */

type OrderRow = typeof orders.$inferSelect;
type RequestRow = typeof returnRequests.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;
const OPEN_STATUSES: ReturnStatus[] = ["requested", "accepted", "received"];

async function lockOrder(tx: Transaction, orderId: string): Promise<OrderRow | undefined> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  return order;
}

async function refundedCents(tx: Transaction, orderId: string): Promise<number> {
  const [{ cents = 0 } = {}] = await tx
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.status, "completed")));
  return cents;
}

/** The reasons still open, for a message that refuses a closed one. */
function routesStillOpen(windows: ReturnType<typeof returnWindows>): string {
  const open = CUSTOMER_REASONS.filter((reason) => windows[reason].open).map((reason) =>
    RETURN_REASON_LABELS[reason].toLowerCase(),
  );
  return open.length > 0 ? `Still open for this order: ${open.join("; ")}.` : "";
}

interface NewRequest {
  order: OrderRow;
  reason: ReturnReason;
  details: string;
  openedBy: "customer" | "shop";
  lines: { orderItemId: number; quantity: number }[];
  offeredCents: number;
  actor: { id: string; username: string } | null;
  /** The receipt day the windows counted from, for requests that send goods back. */
  received?: Receipt | null;
}

async function insertRequest(tx: Transaction, created: NewRequest): Promise<RequestRow> {
  const today = saDay(new Date());
  const deadline = requestDeadline(created.reason, today);
  const number = await nextDocumentNumber(tx, "return_request");
  const [row] = await tx
    .insert(returnRequests)
    .values({
      number,
      orderId: created.order.id,
      reason: created.reason,
      details: created.details,
      openedBy: created.openedBy,
      deadlineKind: deadline.kind,
      deadlineDay: deadline.lastDay,
      offeredRefundCents: created.offeredCents,
      receivedOn: created.received?.day ?? null,
      receivedBasis: created.received?.basis ?? null,
    })
    .returning();
  if (!row) throw new Error("return request insert returned nothing");
  if (created.lines.length > 0) {
    await tx.insert(returnRequestLines).values(created.lines.map((line) => ({ requestId: row.id, ...line })));
  }
  await tx.insert(returnRequestEvents).values({
    requestId: row.id,
    status: "requested",
    note: created.details || null,
    actorId: created.actor?.id ?? null,
    actorUsername: created.actor?.username ?? null,
  });
  return row;
}

/**
 * The receipt day a request of `reason` counts from: for a return or a defect, the recorded
 * delivery, else the day the customer states (required then: not after today, not before the
 * order was sent); null for the reasons that name no received goods.
 */
function receiptFor(
  order: OrderRow,
  reason: CustomerReason,
  stated: string | undefined,
  today: string,
): Receipt | null {
  if (!REASONS_WITH_LINES.includes(reason)) return null;
  const recorded = receiptDay(order, null);
  if (recorded) return recorded;
  // Not shipped: the window refuses it below, with its own message.
  if (order.status !== "processed") return null;
  if (!stated) {
    throw badRequest(
      "Tell us the day you received the goods (receivedOn): no delivery date was recorded for this order.",
      "RETURN_RECEIPT_DAY_INVALID",
    );
  }
  const shippedOn = saDay(order.shippedAt ?? order.paidAt ?? order.createdAt);
  const refusal = statedReceiptRefusal(stated, { today, shippedOn });
  if (refusal) throw badRequest(refusal, "RETURN_RECEIPT_DAY_INVALID");
  return receiptDay(order, stated);
}

/**
 * POST /api/orders/{id}/returns: the customer's request on their own order (another's is a 404).
 * The server decides the window (returnWindows, from the recorded delivery or the receipt day the
 * customer states), which lines and how many units can still be asked back, the refund offered and
 * the deadline.
 */
export async function createReturnRequest(
  db: Database,
  request: FastifyRequest,
  user: { id: string; username: string },
  orderId: string,
  input: CustomerRequestInput,
): Promise<string> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order || order.userId !== user.id) throw notFound("Order not found");
    const received = receiptInOpenWindow(order, input);
    const returnable = await returnableOf(tx, orderId);
    const lines = REASONS_WITH_LINES.includes(input.reason)
      ? await chosenLines(tx, input.lines, returnable)
      : linesOfWholeOrderReason(input, returnable);
    const offeredCents = await offerFor(tx, order, input.reason, lines, returnable);
    const row = await insertRequest(tx, {
      order,
      reason: input.reason,
      details: input.details,
      openedBy: "customer",
      lines,
      offeredCents,
      actor: user,
      received,
    });
    await auditReturnStep(tx, request, {
      action: "return.requested",
      orderId,
      actor: user,
      after: {
        reference: returnReferenceText(row.number),
        reason: input.reason,
        ...(received ? { receivedOn: received.day, receivedBasis: received.basis } : {}),
        lines,
        offeredRefundCents: offeredCents,
        deadline: row.deadlineDay,
      },
    });
    await enqueueReturnUpdate(tx, row.id, "requested", {
      amountCents: WHOLE_ORDER_REASONS.includes(input.reason) ? offeredCents : null,
    });
    return row.id;
  });
}

/** What the customer asks on their order (createReturnRequest). */
interface CustomerRequestInput {
  reason: CustomerReason;
  lines: { lineId: number; quantity: number }[];
  details: string;
  receivedOn?: string | undefined;
}

/** What a new request is checked against: the order's lines, the units already asked back per line, its open requests. */
interface Returnable {
  items: OrderItemRow[];
  asked: Map<number, number>;
  openRequests: { id: string; number: number; reason: ReturnReason }[];
}

type RequestLine = { orderItemId: number; quantity: number };

/** Refuses a request whose window is closed, naming the ones still open; returns the receipt day it counted from. */
function receiptInOpenWindow(order: OrderRow, input: CustomerRequestInput): Receipt | null {
  const today = saDay(new Date());
  const received = receiptFor(order, input.reason, input.receivedOn, today);
  const windows = returnWindows(order, today, received?.day ?? null);
  const window = windows[input.reason];
  if (!window.open) {
    throw conflict(`${window.closedBecause} ${routesStillOpen(windows)}`.trim(), "RETURN_WINDOW_CLOSED");
  }
  return received;
}

/** Reads the order's lines, units asked back and open requests, under the order's lock. */
async function returnableOf(tx: Transaction, orderId: string): Promise<Returnable> {
  const items = await tx
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position));
  const asked = await unitsAskedBack(tx, orderId);
  const openRequests = await tx
    .select({ id: returnRequests.id, number: returnRequests.number, reason: returnRequests.reason })
    .from(returnRequests)
    .where(and(eq(returnRequests.orderId, orderId), inArray(returnRequests.status, OPEN_STATUSES)));
  return { items, asked, openRequests };
}

/**
 * A return or a defect names its lines: each a line of the order, named once, in no open request,
 * and no more units than are left to send back.
 */
async function chosenLines(
  tx: Transaction,
  chosen: CustomerRequestInput["lines"],
  { items, asked, openRequests }: Returnable,
): Promise<RequestLine[]> {
  if (chosen.length === 0) {
    throw badRequest("Choose the lines and how many units to send back.", "RETURN_LINE_UNKNOWN");
  }
  const openLines = openRequests.length
    ? await tx
        .select({ requestId: returnRequestLines.requestId, lineId: returnRequestLines.orderItemId })
        .from(returnRequestLines)
        .where(
          inArray(
            returnRequestLines.requestId,
            openRequests.map((open) => open.id),
          ),
        )
    : [];
  const seen = new Set<number>();
  for (const line of chosen) {
    const item = items.find((candidate) => candidate.id === line.lineId);
    if (!item) throw badRequest(`Line ${line.lineId} is not a line of this order.`, "RETURN_LINE_UNKNOWN");
    if (seen.has(line.lineId)) {
      throw badRequest(`${item.name} (${item.size}) is named twice; give it once.`, "RETURN_LINE_UNKNOWN");
    }
    seen.add(line.lineId);
    const open = openLines.find((candidate) => candidate.lineId === line.lineId);
    if (open) {
      const reference = returnReferenceText(openRequests.find((r) => r.id === open.requestId)?.number ?? 0);
      throw conflict(
        `${item.name} (${item.size}) is already in the open request ${reference}; wait for it to be settled.`,
        "RETURN_ALREADY_REQUESTED",
      );
    }
    const left = item.quantity - (asked.get(item.id) ?? 0);
    if (line.quantity > left) {
      throw conflict(
        `${item.name} (${item.size}): ${item.quantity} bought, ${left} can still be sent back; you asked for ${line.quantity}.`,
        "RETURN_QUANTITY_TOO_LARGE",
      );
    }
  }
  return chosen.map((line) => ({ orderItemId: line.lineId, quantity: line.quantity }));
}

/**
 * A complaint names no lines (one open at a time, in words of at least 10 characters); a
 * cancellation takes back every unit not yet asked back, with nothing else open.
 */
function linesOfWholeOrderReason(
  input: CustomerRequestInput,
  { items, asked, openRequests }: Returnable,
): RequestLine[] {
  if (input.lines.length > 0) {
    throw badRequest(`"${RETURN_REASON_LABELS[input.reason]}" names no lines: leave them out.`, "RETURN_LINE_UNKNOWN");
  }
  if (input.reason === "complaint") {
    if (input.details.length < 10) {
      throw badRequest("Tell us what went wrong (at least 10 characters).", "VALIDATION_FAILED");
    }
    const open = openRequests.find((candidate) => candidate.reason === "complaint");
    if (open) {
      throw conflict(
        `Your complaint ${returnReferenceText(open.number)} about this order is still open; we will answer it first.`,
        "RETURN_ALREADY_REQUESTED",
      );
    }
    return [];
  }
  // A cancellation takes the whole order back: nothing else may be open on it.
  const [open] = openRequests;
  if (open) {
    throw conflict(
      `The request ${returnReferenceText(open.number)} on this order is still open.`,
      "RETURN_ALREADY_REQUESTED",
    );
  }
  return items
    .map((item) => ({ orderItemId: item.id, quantity: item.quantity - (asked.get(item.id) ?? 0) }))
    .filter((line) => line.quantity > 0);
}

/** The refund offered for these lines (offeredRefundCents), given what was refunded and whether they end the order. */
async function offerFor(
  tx: Transaction,
  order: OrderRow,
  reason: CustomerReason,
  lines: RequestLine[],
  { items, asked }: Returnable,
): Promise<number> {
  const askedNow = new Map(lines.map((line) => [line.orderItemId, line.quantity]));
  const returnsWholeOrder = items.every(
    (item) => (asked.get(item.id) ?? 0) + (askedNow.get(item.id) ?? 0) >= item.quantity,
  );
  return offeredRefundCents({
    reason,
    lines: lines.map((line) => {
      const item = items.find((candidate) => candidate.id === line.orderItemId);
      return {
        quantity: line.quantity,
        unitPriceCents: item?.unitPriceCents ?? 0,
        discountCents: item?.discountCents ?? 0,
        multibuyDiscountCents: item?.multibuyDiscountCents ?? 0,
        boughtQuantity: item?.quantity ?? line.quantity,
      };
    }),
    totalCents: order.totalCents,
    deliveryFeeCents: order.deliveryFeeCents,
    refundedCents: await refundedCents(tx, order.id),
    returnsWholeOrder,
  });
}

/**
 * ECTA s46: a paid order whose stock is gone joins the requests at once, with 30 days to refund,
 * and the customer is told in the same transaction (payments/mark-paid.ts calls this with the order
 * locked). One per order.
 */
export async function openOutOfStockRequest(tx: Transaction, orderId: string): Promise<void> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!order) return;
  const [existing] = await tx
    .select({ id: returnRequests.id })
    .from(returnRequests)
    .where(
      and(
        eq(returnRequests.orderId, orderId),
        eq(returnRequests.reason, "out_of_stock"),
        inArray(returnRequests.status, OPEN_STATUSES),
      ),
    );
  if (existing) return;
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId));
  const offeredCents = order.totalCents - (await refundedCents(tx, orderId));
  const row = await insertRequest(tx, {
    order,
    reason: "out_of_stock",
    details: "Paid, but the stock is no longer there (ECTA s46): refund within 30 days unless the goods are found.",
    openedBy: "shop",
    lines: items.map((item) => ({ orderItemId: item.id, quantity: item.quantity })),
    offeredCents,
    actor: null,
  });
  await auditReturnStep(tx, null, {
    action: "return.opened_by_shop",
    orderId,
    actor: null,
    after: { reference: returnReferenceText(row.number), reason: "out_of_stock", offeredRefundCents: offeredCents },
  });
  await enqueueReturnUpdate(tx, row.id, "out_of_stock", { amountCents: offeredCents });
}

interface StepOutcome {
  set?: Partial<typeof returnRequests.$inferInsert>;
  /** The history's note and the e-mail's. */
  note: string | null;
  /** What the audit record adds. */
  audit?: Record<string, unknown>;
}

const STEP_EMAIL: Partial<Record<ReturnStatus, ReturnUpdateStep>> = {
  accepted: "accepted",
  declined: "declined",
  received: "received",
  exchanged: "exchanged",
  resolved: "resolved",
};

/**
 * One admin step on a request, in one transaction with its order locked: the move must be allowed
 * from the status read under that lock (canMoveRequest), `apply` checks and does the step's own
 * work, then the status, the history row, the audit record and the e-mail are written.
 */
async function moveRequest(
  db: Database,
  request: FastifyRequest,
  id: string,
  to: ReturnStatus,
  apply: (tx: Transaction, row: RequestRow) => Promise<StepOutcome>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [head] = await tx
      .select({ orderId: returnRequests.orderId })
      .from(returnRequests)
      .where(eq(returnRequests.id, id));
    if (!head) throw notFound("Request not found");
    await lockOrder(tx, head.orderId);
    const [row] = await tx.select().from(returnRequests).where(eq(returnRequests.id, id));
    if (!row) throw notFound("Request not found");
    const reference = returnReferenceText(row.number);
    if (!canMoveRequest(row.status, to)) {
      throw conflict(
        `${reference} is ${RETURN_STATUS_LABELS[row.status].toLowerCase()}: it cannot be marked ${RETURN_STATUS_LABELS[to].toLowerCase()} now.`,
        "RETURN_STATUS_CONFLICT",
      );
    }
    const outcome = await apply(tx, row);
    const decides = to === "accepted" || to === "declined" || !isOpenRequest(to);
    await tx
      .update(returnRequests)
      .set({
        ...outcome.set,
        status: to,
        ...(decides && !row.decidedAt ? { decidedAt: sql`now()` } : {}),
        ...(!isOpenRequest(to) ? { closedAt: sql`now()` } : {}),
      })
      .where(eq(returnRequests.id, id));
    const admin = request.user ? { id: request.user.id, username: request.user.username } : null;
    await tx.insert(returnRequestEvents).values({
      requestId: id,
      status: to,
      note: outcome.note,
      actorId: admin?.id ?? null,
      actorUsername: admin?.username ?? null,
    });
    await auditReturnStep(tx, request, {
      action: `return.${to}` as "return.accepted",
      orderId: row.orderId,
      before: { status: row.status },
      after: { status: to, reference, note: outcome.note, ...outcome.audit },
    });
    const step = STEP_EMAIL[to];
    if (step) await enqueueReturnUpdate(tx, id, step, { note: outcome.note });
  });
}

/** Accept: the return instructions (where to send, who pays for it) are kept and e-mailed. */
export function acceptReturnRequest(
  db: Database,
  request: FastifyRequest,
  id: string,
  note: string | undefined,
  shop: { address: string },
) {
  return moveRequest(db, request, id, "accepted", async (_tx, row) => {
    const sendsGoods = REASONS_WITH_LINES.includes(row.reason);
    const instructions = sendsGoods
      ? [
          `Send the goods to ${shop.address}, with ${returnReferenceText(row.number)} on the parcel.`,
          shopPaysReturn(row.reason)
            ? "We pay for sending back defective or wrong goods."
            : "Packs must be sealed and unopened; you pay only the cost of sending them back.",
          note ?? "",
        ]
          .filter(Boolean)
          .join(" ")
      : (note ?? null);
    return { set: { instructions }, note: note ?? null, audit: { instructions } };
  });
}

/** Decline, with a reason; the law's refusals (declineRefusal) come first. */
export function declineReturnRequest(db: Database, request: FastifyRequest, id: string, reason: string) {
  return moveRequest(db, request, id, "declined", async (_tx, row) => {
    const refusal = declineRefusal(row.reason, row.status);
    if (refusal) throw conflict(refusal, "RETURN_DECLINE_FORBIDDEN");
    return { set: { decision: reason }, note: reason };
  });
}

/** Goods received; `restock` puts units of chosen lines back on the shelf (never more than came back). */
export function receiveReturnRequest(
  db: Database,
  request: FastifyRequest,
  id: string,
  restock: { lineId: number; quantity: number }[],
) {
  return moveRequest(db, request, id, "received", async (tx, row) => {
    if (!REASONS_WITH_LINES.includes(row.reason)) {
      throw conflict(`"${RETURN_REASON_LABELS[row.reason]}" sends no goods back.`, "RETURN_STATUS_CONFLICT");
    }
    const [order] = await tx.select({ stockState: orders.stockState }).from(orders).where(eq(orders.id, row.orderId));
    if (order?.stockState === "returned" && restock.some((line) => line.quantity > 0)) {
      throw conflict(
        "A refund with restock already put this order's units back on the shelf: receive the goods without restocking.",
        "REFERENCE_CHANGED",
      );
    }
    const lines = await tx
      .select({
        lineId: returnRequestLines.orderItemId,
        quantity: returnRequestLines.quantity,
        productId: orderItems.productId,
        size: orderItems.size,
        name: orderItems.name,
      })
      .from(returnRequestLines)
      .innerJoin(orderItems, eq(orderItems.id, returnRequestLines.orderItemId))
      .where(eq(returnRequestLines.requestId, id));
    const seen = new Set<number>();
    const units: { productId: string; size: string; quantity: number }[] = [];
    for (const want of restock) {
      const line = lines.find((candidate) => candidate.lineId === want.lineId);
      if (!line || seen.has(want.lineId)) {
        throw badRequest(`Line ${want.lineId} is not in this request, or is named twice.`, "RETURN_LINE_UNKNOWN");
      }
      seen.add(want.lineId);
      if (want.quantity > line.quantity) {
        throw conflict(
          `${line.name} (${line.size}): ${line.quantity} came back; ${want.quantity} cannot go back on the shelf.`,
          "RETURN_QUANTITY_TOO_LARGE",
        );
      }
      if (want.quantity === 0) continue;
      if (!line.productId) {
        throw conflict(`${line.name} is no longer in the catalogue: it cannot be restocked.`, "REFERENCE_CHANGED");
      }
      units.push({ productId: line.productId, size: line.size, quantity: want.quantity });
      await tx
        .update(returnRequestLines)
        .set({ restocked: want.quantity })
        .where(and(eq(returnRequestLines.requestId, id), eq(returnRequestLines.orderItemId, want.lineId)));
    }
    await returnUnits(tx, units);
    const restocked = units.reduce((sum, unit) => sum + unit.quantity, 0);
    return {
      note: restocked > 0 ? `${restocked} unit${restocked === 1 ? "" : "s"} back in stock.` : null,
      audit: { restock: restock.filter((line) => line.quantity > 0) },
    };
  });
}

export function exchangeReturnRequest(db: Database, request: FastifyRequest, id: string, note: string) {
  return moveRequest(db, request, id, "exchanged", async (_tx, row) => {
    if (!canExchange(row.reason)) {
      throw conflict(
        `"${RETURN_REASON_LABELS[row.reason]}" is settled by a refund or a resolution, not an exchange.`,
        "RETURN_STATUS_CONFLICT",
      );
    }
    return { set: { decision: note }, note };
  });
}

export function resolveReturnRequest(db: Database, request: FastifyRequest, id: string, outcome: string) {
  return moveRequest(db, request, id, "resolved", async () => ({
    set: { decision: outcome },
    note: outcome,
  }));
}

/**
 * "Mark as delivered" on a shipped order: the cooling-off days count from this day. `deliveredOn`
 * (a South African day) may be given when the courier reports it late; not before shipping, not
 * in the future. Recorded with who and when.
 */
export async function markDelivered(
  db: Database,
  request: FastifyRequest,
  orderId: string,
  deliveredOn: string | undefined,
): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) throw notFound("Order not found");
    if (order.status !== "processed") {
      throw conflict(
        `Only a shipped order can be marked delivered; this one is ${order.status}.`,
        "ORDER_STATUS_CONFLICT",
      );
    }
    const now = new Date();
    const today = saDay(now);
    const shippedOn = saDay(order.shippedAt ?? order.createdAt);
    const day = deliveredOn ?? today;
    if (day > today) throw badRequest("deliveredOn cannot be in the future.");
    if (day < shippedOn) throw badRequest(`deliveredOn cannot be before the order shipped (${shippedOn}).`);
    // A past day is recorded at noon South African time; today at the moment it is recorded.
    const deliveredAt = day === today ? now : new Date(`${day}T10:00:00Z`);
    await tx
      .update(orders)
      .set({ deliveredAt, deliveredBy: request.user?.id ?? null })
      .where(eq(orders.id, orderId));
    await auditReturnStep(tx, request, {
      action: "order.delivered",
      orderId,
      before: { deliveredAt: order.deliveredAt?.toISOString() ?? null },
      after: { deliveredAt: deliveredAt.toISOString(), deliveredOn: day },
    });
  });
}

/** An open cancellation or out-of-stock request stops an order from shipping: it is to be refunded. */
export async function openWholeOrderRequest(tx: Transaction, orderId: string): Promise<string | null> {
  const [open] = await tx
    .select({ number: returnRequests.number })
    .from(returnRequests)
    .where(
      and(
        eq(returnRequests.orderId, orderId),
        inArray(returnRequests.reason, [...WHOLE_ORDER_REASONS]),
        inArray(returnRequests.status, OPEN_STATUSES),
      ),
    );
  return open ? returnReferenceText(open.number) : null;
}
