import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { formatRand } from "#domain/money.js";
import { orderNumber, REFUNDABLE_STATUSES } from "#domain/order-status.js";
import { fitRefundToUnits, type RefundLineChoice, type RefundSplitRefusal, splitRefund } from "#domain/refund-lines.js";
import { refundableCents } from "#domain/refunds.js";
import { creditNoteNumberText } from "#domain/tax-documents.js";
import { greetsByName } from "../mail/greeting.js";
import { enqueueEmail } from "../mail/outbox.js";
import { creditableOrder } from "../orders/credit-note-vat.js";
import { nextDocumentNumber } from "../orders/document-numbers.js";
import { type DocumentIssuer, documentIssuer, storeIssuedCreditNote } from "../orders/issued-documents.js";
import { moveOrderStatus } from "../orders/status.js";
import type { PayfastApi } from "../payfast/api-client.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { pgErrorCode, UNIQUE_VIOLATION } from "../platform/db/errors.js";
import { orders, payfastItns, refundLines, refunds } from "../platform/db/schema.js";
import { badRequest, conflict, HttpError, notFound } from "../platform/errors.js";
import type { ShopApp } from "../platform/feature.js";
import { settleReturnRefund } from "../returns/settle-refund.js";
import { returnSold } from "../stock/holds.js";

/**
 * Refunds through PayFast's Refunds API (docs/decisions/009). The order row is locked only while
 * the shop decides and records; PayFast is called outside any transaction:
 * 1. lock the order, check the amount against what was paid less what was refunded, and write the
 *    refund as `requested` (a partial unique index allows one per order: two admins at once refund once);
 * 2. ask PayFast what can be refunded (the query), then create the refund;
 * 3. PayFast took it: lock the order again, mark the refund `completed` with its credit note number,
 *    restock if asked, make a fully refunded order `refunded`, and write the customer's e-mail.
 *    PayFast refused it: mark it `failed` with PayFast's reason; nothing else changes.
 * A crash (or PayFast not answering) after step 2's create leaves the refund `requested`, which
 * blocks further refunds of the order; after STALE_MS the next refund attempt settles it from
 * PayFast's own balance for the payment, so a refund PayFast made is never made twice.
 */

export interface RefundContext {
  db: Database;
  api: PayfastApi;
  log: FastifyBaseLogger;
  /** The seller's details a credit note is issued with (issued-documents.ts). */
  issuer: DocumentIssuer;
}

/** A refund's context as the shop runs it: its database, PayFast's API, the seller of this moment. */
export function refundContextOf(app: ShopApp, log: FastifyBaseLogger): RefundContext {
  const { config } = app;
  return { db: app.db, api: app.payfastApi, log, issuer: documentIssuer(config) };
}

/**
 * What a refund credits (docs/decisions/036): the lines, units and delivery fee chosen (the amount
 * is their sum, or must equal it when given), or, with none chosen, an amount spread over the order
 * in proportion; a return request's units, with the amount fitted to them (fitRefundToUnits).
 */
export interface RefundRequest {
  amountCents?: number | undefined;
  reason: string;
  restock: boolean;
  lines?: readonly RefundLineChoice[] | undefined;
  deliveryCents?: number | undefined;
  /** The return request this refund settles (src/server/returns): refunded once, whatever the race. */
  returnRequestId?: string | null;
  /** The units the return request names: its refund credits them. */
  returnUnits?: readonly { orderItemId: number; quantity: number }[] | undefined;
}

/** A refund the admin made in PayFast's dashboard, to be booked like the shop's own: no lines chosen, spread in proportion. */
export interface DashboardRefund {
  amountCents: number;
  reason: string;
  restock: boolean;
  /** PayFast's reference for the refund, as its dashboard shows it. */
  payfastReference: string;
  /** The South African day it was made (YYYY-MM-DD). */
  refundedOn: string;
}

/** Longer than the API client's timeout: a `requested` refund older than this is no longer in flight. */
const STALE_MS = 60_000;

const payfastUnavailable = (message: string) => new HttpError(502, message, "PAYFAST_UNAVAILABLE");
const payfastRefused = (message: string) => conflict(`PayFast refused the refund: ${message}`, "PAYFAST_REFUSED");

/** A choice of lines the order does not have: the admin's input (400), or more than is left of it (409). */
function refusedSplit(refusal: RefundSplitRefusal): HttpError {
  return refusal.code === "REFUND_LINE_TOO_LARGE" || refusal.code === "REFUND_TOO_LARGE"
    ? conflict(refusal.message, refusal.code)
    : badRequest(refusal.message, refusal.code);
}

async function completedCents(tx: Database | Transaction, orderId: string): Promise<number> {
  const [{ cents = 0 } = {}] = await tx
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.status, "completed")));
  return cents;
}

async function markFailed(db: Database, refundId: string, message: string): Promise<void> {
  await db
    .update(refunds)
    .set({ status: "failed", payfastMessage: message.slice(0, 500) })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "requested")));
}

/** Step 1: in one transaction with the order locked, the refund is written as `requested`. */
async function requestRefund(
  db: Database,
  orderId: string,
  request: RefundRequest,
  adminId: string | null,
  dashboard?: Pick<DashboardRefund, "payfastReference" | "refundedOn">,
) {
  try {
    return await db.transaction(async (tx) => {
      const [order] = await tx
        .select({ status: orders.status, totalCents: orders.totalCents, pfPaymentId: orders.pfPaymentId })
        .from(orders)
        .where(eq(orders.id, orderId))
        .for("update");
      if (!order) throw notFound("Order not found");
      if (!REFUNDABLE_STATUSES.includes(order.status)) {
        throw conflict(
          `Only a paid or shipped order can be refunded; this one is ${order.status}.`,
          "ORDER_STATUS_CONFLICT",
        );
      }
      if (!order.pfPaymentId && !dashboard) {
        throw conflict(
          "This order was marked paid by hand and has no PayFast payment to refund: refund it outside the shop.",
          "ORDER_STATUS_CONFLICT",
        );
      }
      const refunded = await completedCents(tx, orderId);
      const left = refundableCents(order.totalCents, refunded);
      const tooLarge = () =>
        conflict(
          `At most ${formatRand(left)} can be refunded: ${formatRand(order.totalCents)} was paid and ${formatRand(refunded)} already refunded.`,
          "REFUND_TOO_LARGE",
        );
      if (request.amountCents !== undefined && request.amountCents > left) throw tooLarge();
      const creditable = await creditableOrder(tx, orderId);
      if (!creditable) throw notFound("Order not found");
      const { returnUnits, lines: chosen, deliveryCents, ...rest } = request;
      const result = returnUnits
        ? fitRefundToUnits(creditable, returnUnits, request.amountCents ?? 0)
        : splitRefund(creditable, { amountCents: request.amountCents, lines: chosen, deliveryCents });
      if (!result.ok) throw refusedSplit(result);
      const { split } = result;
      if (split.amountCents > left) throw tooLarge();
      const [refund] = await tx
        .insert(refunds)
        .values({
          orderId,
          ...rest,
          amountCents: split.amountCents,
          vatBasis: split.basis,
          deliveryCents: split.deliveryCents,
          status: "requested",
          requestedBy: adminId,
          ...(dashboard ? { madeIn: "payfast_dashboard" as const, ...dashboard } : {}),
        })
        .returning({ id: refunds.id });
      if (!refund) throw new Error("refund insert returned nothing");
      if (split.lines.length > 0) {
        await tx.insert(refundLines).values(split.lines.map((line) => ({ refundId: refund.id, ...line })));
      }
      return { refundId: refund.id, pfPaymentId: order.pfPaymentId ?? "", amountCents: split.amountCents };
    });
  } catch (error) {
    if (pgErrorCode(error) !== UNIQUE_VIOLATION) throw error;
    if (dashboard && (await referenceTaken(db, dashboard.payfastReference))) {
      throw conflict(
        `A refund with PayFast's reference ${dashboard.payfastReference} is already recorded.`,
        "REFUND_ALREADY_RECORDED",
      );
    }
    throw conflict("Another refund of this order is under way. Try again in a minute.", "REFUND_IN_PROGRESS");
  }
}

async function referenceTaken(db: Database, payfastReference: string): Promise<boolean> {
  const [row] = await db.select({ id: refunds.id }).from(refunds).where(eq(refunds.payfastReference, payfastReference));
  return row !== undefined;
}

/** Step 3, PayFast took it: everything that follows a refund, once, with the order locked. */
export async function completeRefund(
  db: Database,
  refundId: string,
  issuer: DocumentIssuer,
  /** Runs in the completing transaction (the audit record of the admin's refund). */
  onCompleted?: (
    tx: Transaction,
    refund: { amountCents: number; restock: boolean; orderStatus: string; vatBasis: string; deliveryCents: number },
  ) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [ref] = await tx.select().from(refunds).where(eq(refunds.id, refundId));
    if (!ref) return;
    const [order] = await tx.select().from(orders).where(eq(orders.id, ref.orderId)).for("update");
    const [refund] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.id, refundId), eq(refunds.status, "requested")))
      .for("update");
    if (!order || !refund) return;
    if (refund.restock) await returnSold(tx, { id: order.id, stockState: order.stockState });
    // Last, as for invoices: the series' row is held for as short a time as possible.
    const creditNoteNumber = await nextDocumentNumber(tx, "credit_note");
    const [done] = await tx
      .update(refunds)
      .set({ status: "completed", creditNoteNumber, completedAt: sql`now()` })
      .where(eq(refunds.id, refundId))
      .returning({ completedAt: refunds.completedAt });
    // What the credit note says is stored as issued, as its builder gives it now: downloads read that.
    await storeIssuedCreditNote(tx, order, refundId, issuer);
    const refundedCents = await completedCents(tx, order.id);
    const fully = refundedCents >= order.totalCents;
    if (fully) await moveOrderStatus(tx, { orderId: order.id, from: order.status, to: "refunded", by: "refund" });
    if (refund.returnRequestId) {
      await settleReturnRefund(tx, { ...refund, returnRequestId: refund.returnRequestId });
    }
    await onCompleted?.(tx, {
      amountCents: refund.amountCents,
      restock: refund.restock,
      orderStatus: fully ? "refunded" : order.status,
      vatBasis: refund.vatBasis,
      deliveryCents: refund.deliveryCents,
    });
    await enqueueEmail(tx, {
      kind: "order_refunded",
      eventKey: refundId,
      to: order.customerEmail,
      data: {
        orderId: order.id,
        orderNumber: orderNumber(order.id),
        refundId,
        customerName: order.deliveryName,
        greetByName: await greetsByName(tx, order.userId, order.customerEmail),
        amountCents: refund.amountCents,
        refundedCents,
        totalCents: order.totalCents,
        reason: refund.reason,
        creditNoteNumber: creditNoteNumberText(creditNoteNumber),
        refundedAt: (done?.completedAt ?? new Date()).toISOString(),
      },
    });
  });
}

/**
 * "Record a refund made in PayFast": the admin refunded in PayFast's dashboard (a payment PayFast
 * can only refund to a bank account, or one the shop sent there); it is booked exactly as the
 * shop's own refunds are (steps 1 and 3: the same checks, credit note, status, e-mail and audit),
 * with PayFast's reference and the day, and no call to PayFast. Open "refund in PayFast" items of
 * the order's payment in "Needs attention" are resolved by it.
 */
export async function recordDashboardRefund(
  context: Pick<RefundContext, "db" | "log" | "issuer">,
  orderId: string,
  refund: DashboardRefund,
  adminId: string | null,
  onCompleted?: Parameters<typeof completeRefund>[3],
): Promise<void> {
  const { payfastReference, refundedOn, ...request } = refund;
  if (await referenceTaken(context.db, payfastReference)) {
    throw conflict(
      `A refund with PayFast's reference ${payfastReference} is already recorded.`,
      "REFUND_ALREADY_RECORDED",
    );
  }
  const { refundId, pfPaymentId } = await requestRefund(context.db, orderId, request, adminId, {
    payfastReference,
    refundedOn,
  });
  await completeRefund(context.db, refundId, context.issuer, onCompleted);
  if (pfPaymentId) {
    await context.db
      .update(payfastItns)
      .set({ resolvedAt: sql`now()`, resolvedBy: adminId })
      .where(
        and(
          eq(payfastItns.pfPaymentId, pfPaymentId),
          eq(payfastItns.outcome, "refund_in_payfast"),
          isNull(payfastItns.resolvedAt),
        ),
      );
  }
  context.log.info(
    { orderId, refundId, payfastReference },
    "refund: a refund made in PayFast's dashboard was recorded",
  );
}

/**
 * The reconciliation job's part: every refund left `requested` past STALE_MS is settled from
 * PayFast's balance for its payment, so a refund in doubt never waits for the next admin's refund.
 * One payment PayFast will not answer about does not keep the others waiting: each is tried, and
 * the first failure is thrown once all have been.
 */
export async function settleRequestedRefunds(context: RefundContext): Promise<number> {
  const waiting = await context.db
    .selectDistinct({ orderId: refunds.orderId, pfPaymentId: orders.pfPaymentId })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(
      and(
        inArray(refunds.status, ["requested"]),
        lt(refunds.createdAt, sql`now() - ${`${STALE_MS / 1000} seconds`}::interval`),
      ),
    );
  let failure: unknown = null;
  for (const { orderId, pfPaymentId } of waiting) {
    try {
      await settleStaleRefunds(context, orderId, pfPaymentId);
    } catch (error) {
      failure ??= new Error(
        `a refund in doubt on order #${orderNumber(orderId)}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (failure) throw failure;
  return waiting.length;
}

/**
 * Refunds left `requested` for longer than STALE_MS (a crash, or PayFast not answering): PayFast's
 * balance for the payment says whether it made them. What PayFast refunded beyond the shop's
 * completed refunds is matched to them oldest first; the rest never happened.
 */
async function settleStaleRefunds(context: RefundContext, orderId: string, pfPaymentId: string | null) {
  const stale = await context.db
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.orderId, orderId),
        eq(refunds.status, "requested"),
        lt(refunds.createdAt, sql`now() - ${`${STALE_MS / 1000} seconds`}::interval`),
      ),
    )
    .orderBy(refunds.createdAt);
  if (stale.length === 0 || !pfPaymentId) return;
  let query: Awaited<ReturnType<PayfastApi["refundQuery"]>>;
  try {
    query = await context.api.refundQuery(pfPaymentId);
  } catch (error) {
    context.log.warn(
      { err: error, orderId },
      "refund: PayFast's refund query failed while settling a requested refund",
    );
    throw payfastUnavailable("PayFast could not be reached to check an earlier refund. Try again in a minute.");
  }
  let unmatched = query.originalCents - query.availableCents - (await completedCents(context.db, orderId));
  for (const refund of stale) {
    if (refund.amountCents <= unmatched) {
      unmatched -= refund.amountCents;
      await completeRefund(context.db, refund.id, context.issuer);
      context.log.info({ orderId, refundId: refund.id }, "refund: PayFast had made a requested refund; completed");
    } else {
      await markFailed(context.db, refund.id, "PayFast has no record of this refund.");
    }
  }
}

/** POST /api/admin/orders/{id}/refund: the whole flow; throws an HttpError the admin can read. */
export async function refundOrder(
  context: RefundContext,
  orderId: string,
  request: RefundRequest,
  adminId: string | null,
  onCompleted?: Parameters<typeof completeRefund>[3],
): Promise<void> {
  const [order] = await context.db
    .select({ pfPaymentId: orders.pfPaymentId })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) throw notFound("Order not found");
  await settleStaleRefunds(context, orderId, order.pfPaymentId);
  const { refundId, pfPaymentId, amountCents } = await requestRefund(context.db, orderId, request, adminId);
  const log = context.log.child({ orderId, refundId, amountCents });

  // Asking first is PayFast's advice: it says whether, how and how much can be refunded.
  let query: Awaited<ReturnType<PayfastApi["refundQuery"]>>;
  try {
    query = await context.api.refundQuery(pfPaymentId);
  } catch (error) {
    log.warn({ err: error }, "refund: PayFast's refund query failed");
    await markFailed(context.db, refundId, "PayFast could not be reached.");
    throw payfastUnavailable("PayFast could not be reached. Nothing was refunded; try again in a minute.");
  }
  const method = amountCents === query.originalCents ? query.fullMethod : query.partialMethod;
  const refusal =
    query.status !== "REFUNDABLE"
      ? (query.errors[0] ?? `the payment is not refundable (${query.status}).`)
      : amountCents > query.availableCents
        ? `only ${formatRand(query.availableCents)} of this payment is left to refund.`
        : method === "BANK_PAYOUT"
          ? "this payment can only be refunded by bank payout; refund it from the PayFast dashboard."
          : method !== "PAYMENT_SOURCE"
            ? "PayFast offers no way to refund this amount."
            : null;
  if (refusal) {
    await markFailed(context.db, refundId, refusal);
    log.info({ refusal }, "refund: refused by PayFast's query");
    throw payfastRefused(refusal);
  }

  let outcome: Awaited<ReturnType<PayfastApi["createRefund"]>>;
  try {
    outcome = await context.api.createRefund(pfPaymentId, { amountCents, reason: request.reason });
  } catch (error) {
    // PayFast may or may not have refunded: the refund stays `requested` until PayFast's balance says (settleStaleRefunds).
    log.error({ err: error }, "refund: PayFast did not confirm the refund");
    throw payfastUnavailable(
      "PayFast did not confirm the refund. The shop checks with PayFast before this order can be refunded again.",
    );
  }
  if (!outcome.ok) {
    await markFailed(context.db, refundId, outcome.message);
    log.info({ refusal: outcome.message }, "refund: refused by PayFast");
    throw payfastRefused(outcome.message);
  }
  await completeRefund(context.db, refundId, context.issuer, onCompleted);
  log.info("refund: completed");
}
