import { and, eq, gt, inArray, lt, or, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../db/client.js";
import { type ItnOutcome, orders } from "../db/schema.js";
import { type PayfastApi, sastDate } from "../payfast/api-client.js";
import { alreadyBooked, bookPayment } from "../payfast/book-payment.js";

/** How far back reconciliation looks for pending orders (older ones are left to the admin). */
const LOOKBACK_DAYS = 30;
/** An order pending for less than this may still get its notification. */
const MAX_QUIET_MS = 5 * 60_000;

export interface ReconcileContext {
  db: Database;
  api: PayfastApi;
  log: FastifyBaseLogger;
  /** The job's interval: an order is asked about once it has waited this long (at most five minutes). */
  everyMs: number;
  /** For the order confirmation a booked payment writes. */
  shopName: string;
}

export interface ReconcileFinding {
  orderId: string;
  pfPaymentId: string;
  outcome: ItnOutcome;
}

/**
 * Asks PayFast's transaction history about unpaid (pending or cancelled) orders, and books every payment it shows for
 * them, exactly as a notification would have (book-payment.ts): the right amount pays the order
 * (`paidBy: "reconcile"`), anything else is flagged for the admin. `orderIds` checks those orders
 * whatever their age (the admin's "Check with PayFast"). Idempotent: a payment already booked is
 * skipped, so two runs, or a run and a late notification, book it once.
 */
export async function reconcilePayfast(context: ReconcileContext, orderIds?: readonly string[]) {
  const { db, api, log } = context;
  const quietMs = Math.min(MAX_QUIET_MS, context.everyMs);
  // A cancelled order still takes a payment (it expired while the shopper paid): ask about those
  // cancelled in the last day too; a payment cannot start later than that after the order.
  const unpaid = or(
    eq(orders.status, "pending"),
    and(eq(orders.status, "cancelled"), gt(orders.cancelledAt, sql`now() - interval '1 day'`)),
  );
  const candidates = await db
    .select({ id: orders.id, createdAt: orders.createdAt })
    .from(orders)
    .where(
      orderIds
        ? and(inArray(orders.id, [...orderIds]), inArray(orders.status, ["pending", "cancelled"]))
        : and(
            unpaid,
            lt(orders.createdAt, sql`now() - ${`${quietMs} milliseconds`}::interval`),
            gt(orders.createdAt, sql`now() - ${`${LOOKBACK_DAYS} days`}::interval`),
          ),
    );
  const findings: ReconcileFinding[] = [];
  if (candidates.length === 0) return { checked: 0, findings };

  const oldest = Math.min(...candidates.map((order) => order.createdAt.getTime()));
  // A day either side: an order made near midnight may be booked on PayFast's next day.
  const from = sastDate(new Date(oldest - 86_400_000));
  const to = sastDate(new Date(Date.now() + 86_400_000));
  const history = await api.transactionHistory(from, to);
  const wanted = new Set(candidates.map((order) => order.id));

  for (const row of history) {
    const orderId = row.mPaymentId.toLowerCase();
    if (!wanted.has(orderId) || row.type !== "FUNDS_RECEIVED" || !row.pfPaymentId) continue;
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
      context.shopName,
    );
    findings.push({ orderId, pfPaymentId: row.pfPaymentId, outcome });
    log.info({ orderId, pfPaymentId: row.pfPaymentId, outcome, reason }, "PayFast reconciliation booked a payment");
  }
  return { checked: candidates.length, findings };
}
