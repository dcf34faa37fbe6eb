import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { centsToDecimal, formatRand } from "#domain/money.js";
import { UNPAID_STATUSES } from "#domain/order-status.js";
import type { ItnOutcome } from "#domain/schemas/payments.js";
import type { DocumentIssuer } from "../orders/issued-documents.js";
import { statusList } from "../orders/status.js";
import { type HistoryRow, type PayfastApi, sastDate } from "../payfast/api-client.js";
import type { Database } from "../platform/db/client.js";
import { saDaySql } from "../platform/db/sa-time.js";
import { orders, payfastItns } from "../platform/db/schema.js";
import { alreadyBooked, bookPayment, recordPayment } from "./book-payment.js";

/**
 * How far back reconciliation looks for unpaid orders: a pending or cancelled order of the last
 * 30 days may still be paid (a shopper who left PayFast's page open, a slow EFT), and so may an
 * older one whose signed notification the shop could not confirm.
 */
const LOOKBACK_DAYS = 30;
/** An order pending for less than this may still get its notification. */
const MAX_QUIET_MS = 5 * 60_000;
/** Refunds made in PayFast's dashboard are looked for in at least this many days of history. */
const REFUND_LOOKBACK_DAYS = 3;
/** History rows are matched against orders this many at a time. */
const MATCH_CHUNK = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ReconcileContext {
  db: Database;
  api: PayfastApi;
  log: FastifyBaseLogger;
  /** The job's interval: an order is asked about once it has waited this long (at most five minutes). */
  everyMs: number;
  /** The seller's details its invoice is issued with, and a refund's credit note. */
  issuer: DocumentIssuer;
}

export interface ReconcileFinding {
  orderId: string;
  pfPaymentId: string;
  outcome: ItnOutcome;
}

/** An order PayFast may still have been paid for: unpaid, and recent or with a notification the shop could not confirm. */
function couldStillBePaid(quietMs: number): SQL {
  return sql`${orders.status} in ${statusList(UNPAID_STATUSES)}
    and ${orders.createdAt} < now() - ${`${quietMs} milliseconds`}::interval
    and (${orders.createdAt} > now() - ${`${LOOKBACK_DAYS} days`}::interval
      or exists (select 1 from payfast_itns i where i.order_id = "orders"."id"
        and i.outcome in ('unconfirmed', 'source_refused') and i.resolved_at is null))`;
}

/** A refund in PayFast's history: money going back out of a payment. */
function isRefundRow(row: HistoryRow): boolean {
  return row.type.includes("REFUND") || (row.sign === "DEBIT" && (row.grossCents ?? 0) < 0);
}

/**
 * Asks PayFast's transaction history about every order that could still be paid, and books every
 * payment it shows for them, exactly as a notification would have (book-payment.ts): the right
 * amount pays the order (`paidBy: "reconcile"`), anything else is flagged for the admin. It also
 * proposes, in "Needs attention", the refunds PayFast's history shows that the shop has not booked
 * (made in PayFast's dashboard). `orderIds` checks those orders whatever their age (the admin's
 * "Check with PayFast"). Idempotent: a payment already booked is skipped, so two runs, or a run
 * and a late notification, book it once. The window is computed by the database, so the number
 * of unpaid orders costs nothing here.
 */
export async function reconcilePayfast(context: ReconcileContext, orderIds?: readonly string[]) {
  const { db, api, log } = context;
  const quietMs = Math.min(MAX_QUIET_MS, context.everyMs);
  const candidate = orderIds
    ? and(inArray(orders.id, [...orderIds]), inArray(orders.status, [...UNPAID_STATUSES]))
    : couldStillBePaid(quietMs);
  const [window] = await db
    .select({
      checked: sql<number>`count(*)::int`,
      oldestMs: sql<number | null>`(extract(epoch from min(${orders.createdAt})) * 1000)::float8`,
    })
    .from(orders)
    .where(candidate);
  const checked = window?.checked ?? 0;
  const findings: ReconcileFinding[] = [];
  if (checked === 0 && orderIds) return { checked, findings };

  const refundHorizon = Date.now() - REFUND_LOOKBACK_DAYS * 86_400_000;
  const oldestMs = window?.oldestMs;
  const oldest =
    oldestMs === null || oldestMs === undefined ? refundHorizon : Math.min(Number(oldestMs), refundHorizon);
  // A day either side: an order made near midnight may be booked on PayFast's next day.
  const from = sastDate(new Date(oldest - 86_400_000));
  const to = sastDate(new Date(Date.now() + 86_400_000));
  const history = await api.transactionHistory(from, to);

  const received = history.filter(
    (row) => row.type === "FUNDS_RECEIVED" && row.pfPaymentId && UUID.test(row.mPaymentId),
  );
  const wanted = new Set<string>();
  const ids = [...new Set(received.map((row) => row.mPaymentId.toLowerCase()))];
  for (let start = 0; start < ids.length; start += MATCH_CHUNK) {
    const chunk = ids.slice(start, start + MATCH_CHUNK);
    const rows = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(inArray(orders.id, chunk), candidate));
    for (const row of rows) wanted.add(row.id);
  }

  for (const row of received) {
    const orderId = row.mPaymentId.toLowerCase();
    if (!wanted.has(orderId)) continue;
    if (await alreadyBooked(db, row.pfPaymentId)) continue;
    const { outcome, reason } = await bookPayment(
      db,
      {
        via: "reconcile",
        orderId,
        pfPaymentId: row.pfPaymentId,
        paymentStatus: "COMPLETE",
        amountGross: row.gross,
        sourceIp: "PayFast API",
        referer: null,
        rawBody: JSON.stringify(row),
      },
      row.grossCents ?? -1,
      context.issuer,
    );
    findings.push({ orderId, pfPaymentId: row.pfPaymentId, outcome });
    log.info({ orderId, pfPaymentId: row.pfPaymentId, outcome, reason }, "PayFast reconciliation booked a payment");
  }

  await proposeDashboardRefunds(context, history.filter(isRefundRow), from);
  return { checked, findings };
}

/**
 * Refunds PayFast's history shows beyond what the shop booked for a payment (completed, or still
 * in doubt) were made in PayFast's dashboard: each becomes one "Needs attention" item, with the
 * amount the shop is missing, until the admin records it (or marks it resolved).
 *
 * The history covers only the days from `from`, while a payment's refunds may span months: the
 * window's refunds are compared with the shop's refunds of the same days (a shop refund by the
 * day it was asked, a recorded one by the day PayFast made it). Where PayFast shows more, its
 * refund query (what it has refunded from the payment in all) says exactly how much the shop is
 * missing, so a refund booked just before the window, or long ago, neither hides a new one nor
 * is proposed twice.
 */
async function proposeDashboardRefunds(context: ReconcileContext, rows: readonly HistoryRow[], from: string) {
  const { db, log } = context;
  const refundedByPayment = new Map<string, { cents: number; rows: HistoryRow[] }>();
  for (const row of rows) {
    if (!row.pfPaymentId || row.grossCents === null) continue;
    const entry = refundedByPayment.get(row.pfPaymentId) ?? { cents: 0, rows: [] };
    entry.cents += Math.abs(row.grossCents);
    entry.rows.push(row);
    refundedByPayment.set(row.pfPaymentId, entry);
  }
  if (refundedByPayment.size === 0) return;
  const paid = await db
    .select({
      id: orders.id,
      pfPaymentId: orders.pfPaymentId,
      // Written out in full: inside a one-table select Drizzle leaves column names unqualified.
      booked: sql<number>`coalesce((select sum(r.amount_cents) from refunds r
        where r.order_id = "orders"."id" and r.status in ('completed', 'requested')), 0)::int`,
      bookedInWindow: sql<number>`coalesce((select sum(r.amount_cents) from refunds r
        where r.order_id = "orders"."id" and r.status in ('completed', 'requested')
          and coalesce(r.refunded_on, ${saDaySql(sql`r.created_at`)}) >= ${from}::date), 0)::int`,
    })
    .from(orders)
    .where(inArray(orders.pfPaymentId, [...refundedByPayment.keys()]));
  for (const order of paid) {
    const pfPaymentId = order.pfPaymentId as string;
    const inPayfast = refundedByPayment.get(pfPaymentId);
    if (!inPayfast) continue;
    const missing = await missingRefundCents(context, pfPaymentId, inPayfast.cents, order);
    const [open] = await db
      .select({ id: payfastItns.id, amountGross: payfastItns.amountGross })
      .from(payfastItns)
      .where(
        and(
          eq(payfastItns.pfPaymentId, pfPaymentId),
          eq(payfastItns.outcome, "refund_in_payfast"),
          isNull(payfastItns.resolvedAt),
        ),
      );
    if (open && open.amountGross === centsToDecimal(Math.max(missing, 0))) continue;
    if (open) {
      await db.update(payfastItns).set({ resolvedAt: sql`now()` }).where(eq(payfastItns.id, open.id));
    }
    if (missing <= 0) continue;
    await recordPayment(
      db,
      {
        via: "reconcile",
        orderId: order.id,
        pfPaymentId,
        paymentStatus: "REFUND",
        amountGross: centsToDecimal(missing),
        sourceIp: "PayFast API",
        referer: null,
        rawBody: JSON.stringify(inPayfast.rows),
      },
      "refund_in_payfast",
      `PayFast's records show ${formatRand(inPayfast.cents)} refunded from this payment; the shop has booked ${formatRand(order.booked)}. Record the refund made in PayFast on the order, so its credit note is issued.`,
    );
    log.info(
      { orderId: order.id, pfPaymentId, missing },
      "PayFast reconciliation found a refund the shop has not booked",
    );
  }
}

/**
 * How much PayFast has refunded from a payment that the shop has not booked. Nothing when the
 * window's refunds are all booked; otherwise PayFast's refund query (amount paid less what is
 * left to refund) against every refund the shop booked, or, if the query gives no balance or does
 * not answer, the window's figures alone (the next run asks again).
 */
async function missingRefundCents(
  context: ReconcileContext,
  pfPaymentId: string,
  inWindowCents: number,
  order: { id: string; booked: number; bookedInWindow: number },
): Promise<number> {
  if (inWindowCents <= order.bookedInWindow) return 0;
  try {
    const query = await context.api.refundQuery(pfPaymentId);
    // NOT_AVAILABLE (a payment PayFast will not refund now) says nothing of what was refunded.
    if (query.status === "REFUNDABLE" || query.status === "COMPLETED") {
      return query.originalCents - query.availableCents - order.booked;
    }
    context.log.warn(
      { orderId: order.id, pfPaymentId, status: query.status },
      "PayFast reconciliation: the refund query gave no balance; proposing the refunds of the history's window",
    );
  } catch (error) {
    context.log.warn(
      { err: error, orderId: order.id, pfPaymentId },
      "PayFast reconciliation: the refund query did not answer; proposing the refunds of the history's window",
    );
  }
  return inWindowCents - order.bookedInWindow;
}
