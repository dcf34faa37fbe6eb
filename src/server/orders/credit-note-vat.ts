import { and, asc, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import type { CreditableOrder, RefundBasis } from "#domain/refund-lines.js";
import {
  type CreditNoteCredit,
  creditedPerLine,
  creditNoteVats,
  type DocumentVat,
  invoiceVatLines,
  type OrderForVat,
} from "#domain/vat.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { inTurn } from "../platform/db/in-turn.js";
import { orderItems, orders, refundLines, refunds } from "../platform/db/schema.js";

type Line = OrderForVat["lines"][number] & { id: number; name: string; size: string };

/**
 * The orders `where` selects, as their VAT is worked out (src/domain/vat.ts): each line's class and
 * rate as stored when the order was placed, and the delivery fee's rate; never today's rates.
 */
export async function ordersForVat(
  db: Database | Transaction,
  where: SQL,
): Promise<Map<string, Omit<OrderForVat, "lines"> & { lines: Line[] }>> {
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
          id: orderItems.id,
          name: orderItems.name,
          size: orderItems.size,
          unitPriceCents: orderItems.unitPriceCents,
          quantity: orderItems.quantity,
          vatClass: orderItems.vatClass,
          vatRateBp: orderItems.vatRateBp,
          discountCents: orderItems.discountCents,
          multibuyDiscountCents: orderItems.multibuyDiscountCents,
        })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(where)
        .orderBy(asc(orderItems.orderId), asc(orderItems.position)),
  );
  const found = new Map<string, Omit<OrderForVat, "lines"> & { lines: Line[] }>();
  for (const head of heads) found.set(head.id, { ...head, lines: [] });
  for (const { orderId, ...line } of lines) found.get(orderId)?.lines.push(line);
  return found;
}

interface CreditedRefund {
  id: string;
  orderId: string;
  amountCents: number;
  vatBasis: RefundBasis;
  deliveryCents: number;
  /** By order line id: what the refund credited of it and how many units. */
  lines: Map<number, { quantity: number; amountCents: number }>;
}

/** The completed refunds with credit notes of the orders `where` selects, in the order of their numbers, with their lines. */
async function creditedRefunds(db: Database | Transaction, where: SQL): Promise<Map<string, CreditedRefund[]>> {
  const rows = await db
    .select({
      id: refunds.id,
      orderId: refunds.orderId,
      amountCents: refunds.amountCents,
      vatBasis: refunds.vatBasis,
      deliveryCents: refunds.deliveryCents,
    })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(where, eq(refunds.status, "completed"), isNotNull(refunds.creditNoteNumber)))
    .orderBy(asc(refunds.creditNoteNumber));
  const withLines = rows.filter((row) => row.vatBasis !== "legacy").map((row) => row.id);
  const lines =
    withLines.length === 0
      ? []
      : await db
          .select({
            refundId: refundLines.refundId,
            orderItemId: refundLines.orderItemId,
            quantity: refundLines.quantity,
            amountCents: refundLines.amountCents,
          })
          .from(refundLines)
          .where(inArray(refundLines.refundId, withLines));
  const byId = new Map<string, CreditedRefund>();
  const byOrder = new Map<string, CreditedRefund[]>();
  for (const row of rows) {
    const refund = { ...row, lines: new Map() };
    byId.set(row.id, refund);
    const list = byOrder.get(row.orderId) ?? [];
    list.push(refund);
    byOrder.set(row.orderId, list);
  }
  for (const { refundId, orderItemId, ...line } of lines) byId.get(refundId)?.lines.set(orderItemId, line);
  return byOrder;
}

/**
 * What a refund credits of each invoice line (creditNoteVats): a refund made before lines were
 * recorded, its amount (apportioned as decision 017 did); any other, its recorded parts, the
 * delivery fee's last.
 */
function creditOf(order: Omit<OrderForVat, "lines"> & { lines: Line[] }, refund: CreditedRefund): CreditNoteCredit {
  if (refund.vatBasis === "legacy") return refund.amountCents;
  const partsCents = order.lines.map((line) => refund.lines.get(line.id)?.amountCents ?? 0);
  if (order.deliveryFeeCents > 0) partsCents.push(refund.deliveryCents);
  return { partsCents };
}

/**
 * THE function every credit note's VAT goes through (docs/decisions/017-vat-per-line.md and
 * 036-credit-notes-per-line.md): the VAT of each completed refund of the orders `where` selects, by
 * refund id. A credit note reverses each invoice line it credits at that line's stored rate, and
 * the delivery fee only for the part of it refunded, in the order the credit notes were numbered
 * (creditNoteVats in src/domain/vat.ts). A refund made before refunds recorded their lines keeps
 * what its credit note said: its amount apportioned over the lines still uncredited. Derived from
 * the stored lines and refunds alone, so an issued credit note always reads the same, and the
 * credit notes of a whole invoice reverse exactly its VAT.
 */
export async function creditNotesVat(db: Database | Transaction, where: SQL): Promise<Map<string, DocumentVat>> {
  const [byOrder, refundsOf] = await inTurn(
    () => ordersForVat(db, where),
    () => creditedRefunds(db, where),
  );
  const byRefund = new Map<string, DocumentVat>();
  for (const [orderId, list] of refundsOf) {
    const order = byOrder.get(orderId);
    if (!order) continue;
    const vats = creditNoteVats(
      invoiceVatLines(order),
      list.map((refund) => creditOf(order, refund)),
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

/**
 * An order as a new refund sees it (src/domain/refund-lines.ts): each line with what was paid for
 * it and what its credit notes have credited, in cents and units, and the delivery fee likewise.
 */
export async function creditableOrder(db: Database | Transaction, orderId: string): Promise<CreditableOrder | null> {
  const where = sql`${orders.id} = ${orderId}`;
  const [byOrder, refundsOf] = await inTurn(
    () => ordersForVat(db, where),
    () => creditedRefunds(db, where),
  );
  const order = byOrder.get(orderId);
  if (!order) return null;
  const list = refundsOf.get(orderId) ?? [];
  const invoiceLines = invoiceVatLines(order);
  const credited = creditedPerLine(
    invoiceLines,
    list.map((refund) => creditOf(order, refund)),
  );
  return {
    lines: order.lines.map((line, index) => ({
      orderItemId: line.id,
      label: `${line.name} (${line.size})`,
      quantity: line.quantity,
      paidCents: invoiceLines[index]?.amountCents ?? 0,
      creditedCents: credited[index] ?? 0,
      creditedUnits: list.reduce((sum, refund) => sum + (refund.lines.get(line.id)?.quantity ?? 0), 0),
    })),
    deliveryFeeCents: order.deliveryFeeCents,
    deliveryCreditedCents: order.deliveryFeeCents > 0 ? (credited[order.lines.length] ?? 0) : 0,
  };
}
