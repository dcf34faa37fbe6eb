import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { orderNumber, PAID_STATUSES } from "#domain/order-status.js";
import { legalEntityName } from "#domain/seller.js";
import { creditNoteNumberText, invoiceNumberText } from "#domain/tax-documents.js";
import { invoiceVat } from "#domain/vat.js";
import type { ShopDetails } from "../documents/pdf.js";
import type { CreditNoteData, DocumentCustomer, InvoiceData, PackingSlipOrder } from "../documents/types.js";
import type { Config } from "../platform/config.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { saDayStartSql } from "../platform/db/sa-time.js";
import { orderItems, orders, refundLines, refunds } from "../platform/db/schema.js";
import { policyVersionLabel, policyVersionsById } from "../policies/publish.js";
import { creditNoteVat } from "./credit-note-vat.js";
import { printedAddress } from "./delivery-address.js";
import { orderPolicyIds } from "./queries.js";

type OrderRow = typeof orders.$inferSelect;

/** The shop's details as its documents print them: its trading name beside its registered name (CPA s26(3)). */
export function shopDetails(config: Config): ShopDetails {
  const { name, address, phone, email, vatNumber } = config.shop;
  const legalName = legalEntityName(config.seller.legalName, config.seller.legalStatus);
  return { name, legalName, address, phone, email, vatNumber };
}

function customerOf(order: OrderRow): DocumentCustomer {
  return {
    ...printedAddress(order),
    companyName: order.companyName,
    vatNumber: order.vatNumber,
    email: order.customerEmail,
  };
}

async function linesOf(db: Database | Transaction, orderId: string) {
  return db
    .select({
      name: orderItems.name,
      size: orderItems.size,
      quantity: orderItems.quantity,
      unitPriceCents: orderItems.unitPriceCents,
      vatClass: orderItems.vatClass,
      vatRateBp: orderItems.vatRateBp,
      discountCents: orderItems.discountCents,
      multibuyDiscountCents: orderItems.multibuyDiscountCents,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position));
}

/** The order with its invoice number, or null when it has none (never paid). */
export async function invoicedOrder(db: Database, orderId: string): Promise<OrderRow | null> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  return order && order.invoiceNumber !== null ? order : null;
}

export async function invoiceData(
  db: Database | Transaction,
  order: OrderRow,
  shop: ShopDetails,
  publicUrl: string,
): Promise<InvoiceData> {
  if (order.invoiceNumber === null) throw new Error(`order ${order.id} has no invoice`);
  return { ...(await invoiceContent(db, order, shop, publicUrl)), number: invoiceNumberText(order.invoiceNumber) };
}

/** What an order's invoice says but its number: built in the paying transaction before the number is taken. */
export async function invoiceContent(
  db: Database | Transaction,
  order: OrderRow,
  shop: ShopDetails,
  publicUrl: string,
): Promise<Omit<InvoiceData, "number">> {
  const policies = await policyVersionsById(db, orderPolicyIds(order));
  const lines = await linesOf(db, order.id);
  return {
    shop,
    issuedAt: order.paidAt ?? order.createdAt,
    orderNumber: orderNumber(order.id),
    customer: customerOf(order),
    lines,
    subtotalCents: order.subtotalCents,
    promoCode: order.promoCode,
    discountCents: order.discountCents,
    multibuyDiscountCents: order.multibuyDiscountCents,
    deliveryDiscountCents: order.deliveryDiscountCents,
    deliveryFeeCents: order.deliveryFeeCents,
    deliveryVatRateBp: order.deliveryVatRateBp,
    totalCents: order.totalCents,
    policies: [...policies.values()].map((policy) => ({
      label: policyVersionLabel(policy),
      url: `${publicUrl}${policy.path}`,
    })),
    vat: invoiceVat({
      lines,
      deliveryFeeCents: order.deliveryFeeCents,
      deliveryVatRateBp: order.deliveryVatRateBp,
      vatRounding: order.vatRounding,
    }),
  };
}

/** A completed refund's credit note, or null when the refund is not one of this order's completed ones. */
export async function creditNoteData(
  db: Database | Transaction,
  order: OrderRow,
  refundId: string,
  shop: ShopDetails,
): Promise<CreditNoteData | null> {
  const [refund] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.id, refundId), eq(refunds.orderId, order.id), isNotNull(refunds.creditNoteNumber)));
  if (!refund || refund.creditNoteNumber === null || order.invoiceNumber === null) return null;
  const vat = await creditNoteVat(db, order.id, refund.id);
  const lines =
    refund.vatBasis === "lines"
      ? await db
          .select({
            name: orderItems.name,
            size: orderItems.size,
            quantity: refundLines.quantity,
            amountCents: refundLines.amountCents,
            vatRateBp: orderItems.vatRateBp,
          })
          .from(refundLines)
          .innerJoin(orderItems, eq(orderItems.id, refundLines.orderItemId))
          .where(eq(refundLines.refundId, refund.id))
          .orderBy(asc(orderItems.position))
      : undefined;
  return {
    shop,
    number: creditNoteNumberText(refund.creditNoteNumber),
    issuedAt: refund.completedAt ?? refund.createdAt,
    invoiceNumber: invoiceNumberText(order.invoiceNumber),
    orderNumber: orderNumber(order.id),
    customer: customerOf(order),
    amountCents: refund.amountCents,
    reason: refund.reason,
    restocked: refund.restock,
    vat,
    vatBasis: refund.vatBasis,
    ...(lines ? { lines, deliveryCents: refund.deliveryCents } : {}),
  };
}

/** The orders paid on a South African day (YYYY-MM-DD) that are still to ship or shipped, oldest first. */
export async function paidOrdersOfDay(db: Database, date: string): Promise<PackingSlipOrder[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(
      and(
        inArray(orders.status, [...PAID_STATUSES]),
        sql`${orders.paidAt} >= ${saDayStartSql(date)}`,
        sql`${orders.paidAt} < ${saDayStartSql(sql`${date}::date + 1`)}`,
      ),
    )
    .orderBy(asc(orders.paidAt), asc(orders.id));
  return Promise.all(
    rows.map(async (order) => ({
      orderNumber: orderNumber(order.id),
      paidAt: order.paidAt ?? order.createdAt,
      customer: customerOf(order),
      lines: (await linesOf(db, order.id)).map(({ name, size, quantity }) => ({ name, size, quantity })),
    })),
  );
}
