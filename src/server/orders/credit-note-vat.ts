import { and, asc, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import { creditNoteVats, type DocumentVat, invoiceVatLines, type OrderForVat } from "#domain/vat.js";
import type { Database, Transaction } from "../db/client.js";
import { inTurn } from "../db/in-turn.js";
import { orderItems, orders, refunds } from "../db/schema.js";

type Line = OrderForVat["lines"][number];

/**
 * The orders `where` selects, as their VAT is worked out (src/domain/vat.ts): each line's class and
 * rate as stored when the order was placed, and the delivery fee's rate; never today's rates.
 */
export async function ordersForVat(
  db: Database | Transaction,
  where: SQL,
): Promise<Map<string, OrderForVat & { lines: Line[] }>> {
  const [heads, lines] = await inTurn(
    () =>
      db
        .select({
          id: orders.id,
          deliveryFeeCents: orders.deliveryFeeCents,
          deliveryVatRateBp: orders.deliveryVatRateBp,
          vatRounding: orders.vatRounding,
        })
        .from(orders)
        .where(where),
    () =>
      db
        .select({
          orderId: orderItems.orderId,
          unitPriceCents: orderItems.unitPriceCents,
          quantity: orderItems.quantity,
          vatClass: orderItems.vatClass,
          vatRateBp: orderItems.vatRateBp,
          discountCents: orderItems.discountCents,
        })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(where)
        .orderBy(asc(orderItems.orderId), asc(orderItems.position)),
  );
  const found = new Map<string, OrderForVat & { lines: Line[] }>();
  for (const head of heads) found.set(head.id, { ...head, lines: [] });
  for (const { orderId, ...line } of lines) found.get(orderId)?.lines.push(line);
  return found;
}

/**
 * THE function every credit note's VAT goes through (docs/decisions/017-vat-per-line.md): the VAT
 * of each completed refund of the orders `where` selects, by refund id. A credit note reverses at
 * the rates of its invoice, its amount apportioned over the invoice's lines still uncredited, in
 * the order the credit notes were numbered (creditNoteVats in src/domain/vat.ts). Derived from the
 * stored lines and refunds alone, so an issued credit note always reads the same, and the credit
 * notes of a whole invoice reverse exactly its VAT. Whatever makes a refund (the admin's refund,
 * a return, a refund found in PayFast) needs only to complete it with a credit note number.
 */
export async function creditNotesVat(db: Database | Transaction, where: SQL): Promise<Map<string, DocumentVat>> {
  const [byOrder, credited] = await inTurn(
    () => ordersForVat(db, where),
    () =>
      db
        .select({ id: refunds.id, orderId: refunds.orderId, amountCents: refunds.amountCents })
        .from(refunds)
        .innerJoin(orders, eq(orders.id, refunds.orderId))
        .where(and(where, eq(refunds.status, "completed"), isNotNull(refunds.creditNoteNumber)))
        .orderBy(asc(refunds.creditNoteNumber)),
  );
  const refundsOf = new Map<string, { id: string; amountCents: number }[]>();
  for (const refund of credited) {
    const list = refundsOf.get(refund.orderId) ?? [];
    list.push(refund);
    refundsOf.set(refund.orderId, list);
  }
  const byRefund = new Map<string, DocumentVat>();
  for (const [orderId, list] of refundsOf) {
    const order = byOrder.get(orderId);
    if (!order) continue;
    const vats = creditNoteVats(
      invoiceVatLines(order),
      list.map((refund) => refund.amountCents),
      order.vatRounding,
    );
    list.forEach((refund, index) => {
      const vat = vats[index];
      if (vat) byRefund.set(refund.id, vat);
    });
  }
  return byRefund;
}

/** The VAT of one credit note (its refund must be a completed one with a number). */
export async function creditNoteVat(
  db: Database | Transaction,
  orderId: string,
  refundId: string,
): Promise<DocumentVat> {
  const vat = (await creditNotesVat(db, sql`${orders.id} = ${orderId}`)).get(refundId);
  if (!vat) throw new Error(`refund ${refundId} of order ${orderId} has no credit note`);
  return vat;
}
