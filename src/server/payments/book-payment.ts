import { and, eq, inArray, isNull } from "drizzle-orm";
import { formatRand } from "#domain/money.js";
import { UNPAID_STATUSES } from "#domain/order-status.js";
import { ITN_FLAGGED_OUTCOMES, type ItnOutcome } from "#domain/schemas/payments.js";
import type { DocumentIssuer } from "../orders/issued-documents.js";
import type { Database } from "../platform/db/client.js";
import { pgErrorCode, UNIQUE_VIOLATION } from "../platform/db/errors.js";
import { orders, payfastItns } from "../platform/db/schema.js";
import { storable } from "../platform/db/storable.js";
import { markOrderPaid } from "./mark-paid.js";

/** What the audit record of a payment keeps, whichever way the payment reached us. */
export interface PaymentRecord {
  via: "itn" | "reconcile";
  orderId: string | null;
  pfPaymentId: string | null;
  paymentStatus: string | null;
  amountGross: string | null;
  sourceIp: string;
  referer: string | null;
  rawBody: string;
  /** A signed notification's `token` (tokenization), checked as PayFast's form (plans/start.ts payfastToken). */
  payfastToken?: string | null;
}

export interface BookingResult {
  outcome: ItnOutcome;
  reason: string | null;
}

const BOOKED: readonly ItnOutcome[] = ["accepted", ...ITN_FLAGGED_OUTCOMES];

function recordValues(record: PaymentRecord, outcome: ItnOutcome, reason: string | null) {
  return {
    via: record.via,
    orderId: record.orderId,
    pfPaymentId: storable(record.pfPaymentId, 100),
    paymentStatus: storable(record.paymentStatus, 100),
    amountGross: storable(record.amountGross, 100),
    sourceIp: storable(record.sourceIp, 100),
    referer: storable(record.referer, 500),
    rawBody: storable(record.rawBody),
    outcome,
    reason: storable(reason, 500),
  };
}

/** Records a notification (or a reconciliation finding) with its outcome. */
export async function recordPayment(
  db: Database,
  record: PaymentRecord,
  outcome: ItnOutcome,
  reason: string | null,
): Promise<BookingResult> {
  try {
    await db.insert(payfastItns).values(recordValues(record, outcome, reason));
  } catch (error) {
    // The same pf_payment_id was booked a moment ago by a concurrent copy.
    if (pgErrorCode(error) !== UNIQUE_VIOLATION) throw error;
    return recordPayment(db, record, "duplicate", `pf_payment_id ${record.pfPaymentId} was already booked`);
  }
  return { outcome, reason };
}

/** Whether this pf_payment_id was already booked (paid an order, or flagged for the admin). */
export async function alreadyBooked(db: Database, pfPaymentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: payfastItns.id })
    .from(payfastItns)
    .where(and(eq(payfastItns.pfPaymentId, pfPaymentId), inArray(payfastItns.outcome, [...BOOKED])))
    .limit(1);
  return row !== undefined;
}

/**
 * Books a payment PayFast has proved (a confirmed COMPLETE notification, or a COMPLETE row of its
 * transaction history) against its order, in one transaction with the order row locked:
 * - the exact total on a pending order pays it (`accepted`), its stock hold becomes a sale, and its
 *   confirmation e-mail is written to the outbox;
 * - the exact total on a cancelled order (it expired, or the shopper left PayFast) pays it too: it
 *   takes its stock again (`accepted`), or, when that stock is gone, is paid and flagged for the
 *   admin (`paid_out_of_stock`): money is never ignored;
 * - the pf_payment_id that already paid the order is a `duplicate`;
 * - another pf_payment_id on a paid order is `paid_twice`, and any amount but the exact total
 *   `wrong_amount`: recorded and left for the admin, never dropped.
 * An order an admin confirmed by hand takes this pf_payment_id as the payment it saw.
 */
export async function bookPayment(
  db: Database,
  record: PaymentRecord & { orderId: string; pfPaymentId: string },
  grossCents: number,
  /** The seller's details the invoice is issued with. */
  issuer: DocumentIssuer,
): Promise<BookingResult> {
  try {
    return await db.transaction(async (tx) => {
      const [order] = await tx
        .select({
          status: orders.status,
          totalCents: orders.totalCents,
          pfPaymentId: orders.pfPaymentId,
          stockState: orders.stockState,
          cancelReason: orders.cancelReason,
        })
        .from(orders)
        .where(eq(orders.id, record.orderId))
        .for("update");
      const decide = async (): Promise<BookingResult> => {
        if (!order) return { outcome: "unknown_order", reason: "No order has this reference." };
        if (order.pfPaymentId === record.pfPaymentId)
          return { outcome: "duplicate", reason: "order already paid by it" };
        if (grossCents !== order.totalCents) {
          const paid = grossCents >= 0 ? formatRand(grossCents) : JSON.stringify(record.amountGross);
          return {
            outcome: "wrong_amount",
            reason: `PayFast reports ${paid} paid; the order total is ${formatRand(order.totalCents)}.`,
          };
        }
        if (UNPAID_STATUSES.includes(order.status)) {
          const stock = await markOrderPaid(
            tx,
            {
              orderId: record.orderId,
              from: order.status,
              stockState: order.stockState,
              paidBy: record.via,
              pfPaymentId: record.pfPaymentId,
              payfastToken: record.payfastToken ?? null,
            },
            issuer,
          );
          const revived =
            order.status === "cancelled"
              ? `The order had been cancelled (${order.cancelReason}) before this payment. `
              : "";
          if (stock === "short") {
            return {
              outcome: "paid_out_of_stock",
              reason: `${revived}It is paid, but its stock is no longer there: refund it or find the stock.`,
            };
          }
          return {
            outcome: "accepted",
            reason: revived ? `${revived}It is paid, and its stock was taken again.` : null,
          };
        }
        if (order.pfPaymentId === null) {
          await tx
            .update(orders)
            .set({ pfPaymentId: record.pfPaymentId })
            .where(and(eq(orders.id, record.orderId), isNull(orders.pfPaymentId)));
          return { outcome: "accepted", reason: "An admin had confirmed the order by hand; this is its payment." };
        }
        return {
          outcome: "paid_twice",
          reason: `PayFast payment ${order.pfPaymentId} had already paid the order; ${record.pfPaymentId} is a second payment.`,
        };
      };
      const { outcome, reason } = await decide();
      await tx.insert(payfastItns).values(recordValues(record, outcome, reason));
      return { outcome, reason };
    });
  } catch (error) {
    if (pgErrorCode(error) !== UNIQUE_VIOLATION) throw error;
    // A concurrent copy booked this pf_payment_id first (the partial unique index decided).
    return recordPayment(db, record, "duplicate", `pf_payment_id ${record.pfPaymentId} was already booked`);
  }
}
