import { sql } from "drizzle-orm";
import type { OrderStatus } from "#domain/order-status.js";
import type { OrderStockState } from "#domain/stock.js";
import { assignInvoiceNumber } from "../orders/document-numbers.js";
import { type DocumentIssuer, invoiceToIssue, storeIssuedInvoice } from "../orders/issued-documents.js";
import { enqueueOrderConfirmation } from "../orders/order-emails.js";
import { moveOrderStatus } from "../orders/status.js";
import { settlePlanChargeOfOrder } from "../plans/charge-paid.js";
import { settleRemindedBoxOfOrder } from "../plans/pay-link.js";
import { activatePlanOfOrder } from "../plans/start.js";
import type { Transaction } from "../platform/db/client.js";
import { countPromoUse } from "../promo/codes.js";
import { openOutOfStockRequest } from "../returns/requests.js";
import { settlePaidStock } from "../stock/holds.js";

export interface MarkPaid {
  orderId: string;
  /** The order's status and stock state as read with its row locked. */
  from: OrderStatus;
  stockState: OrderStockState;
  /** "itn" or "reconcile" (PayFast proved it), "admin" (Mark as Paid). */
  paidBy: "itn" | "reconcile" | "admin";
  /** The admin who marked it paid by hand. */
  paidByUserId?: string | null;
  /** PayFast's id of the payment, when PayFast proved it. */
  pfPaymentId?: string;
  /** PayFast's tokenization token, when its notification carried one (a nappy plan's first box). */
  payfastToken?: string | null;
}

/**
 * Everything that happens when an order becomes paid, whichever way (a PayFast notification,
 * reconciliation, or an admin's Mark as Paid), in the caller's transaction with the order row
 * locked: the status and how it was paid, its promo code's use, the next invoice number of the gapless series
 * (document-numbers.ts), the stock hold becoming a sale (stock/holds.ts), the confirmation
 * in the outbox, and the nappy plan the order started (plans/start.ts); when the stock is gone, a request to refund it (returns/requests.ts, ECTA s46); and
 * the invoice stored as issued, with the seller's details of this moment (`issuer`,
 * issued-documents.ts). Answers whether the stock was there.
 */
export async function markOrderPaid(
  tx: Transaction,
  paid: MarkPaid,
  issuer: DocumentIssuer,
): Promise<"sold" | "short"> {
  const by = paid.paidBy === "admin" ? "admin" : "payment";
  await moveOrderStatus(
    tx,
    { orderId: paid.orderId, from: paid.from, to: "completed", by },
    {
      paidBy: paid.paidBy,
      paidByUserId: paid.paidByUserId ?? null,
      paidAt: sql`now()`,
      payfastStatus: null,
      payfastStatusAt: null,
      ...(paid.pfPaymentId ? { pfPaymentId: paid.pfPaymentId } : {}),
    },
  );
  const stock = await settlePaidStock(tx, { id: paid.orderId, stockState: paid.stockState });
  // Its promo code's use counts from now, even past the limit for a late payment (docs/decisions/023).
  await countPromoUse(tx, paid.orderId);
  await enqueueOrderConfirmation(tx, paid.orderId);
  // A nappy plan's first box: the plan starts, with the card's token when PayFast sent one.
  await activatePlanOfOrder(tx, paid.orderId, paid.payfastToken ?? null);
  // A later box of a plan: its charge is settled and the plan moves on (plans/charge.ts).
  await settlePlanChargeOfOrder(tx, paid.orderId);
  // A reminder plan's box paid through its pay link: the plan moves on as a charge would (plans/pay-link.ts).
  await settleRemindedBoxOfOrder(tx, paid.orderId);
  // ECTA s46: paid, but the goods are gone: the customer is told at once and the refund's 30 days start.
  if (stock === "short") await openOutOfStockRequest(tx, paid.orderId);
  const invoice = await invoiceToIssue(tx, paid.orderId, issuer);
  // Last, so the series' row is locked for as short a time as possible: every paying transaction
  // waits for it. Callers pass only unpaid orders (pending or cancelled), which never had a number.
  await assignInvoiceNumber(tx, paid.orderId);
  await storeIssuedInvoice(tx, paid.orderId, invoice);
  return stock;
}
