import { asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { trackingUrl } from "#domain/couriers.js";
import { DELIVERY_SERVICE_LABELS } from "#domain/delivery.js";
import { centsToDecimal } from "#domain/money.js";
import type { ProductForOrder } from "#domain/order-pricing.js";
import type { AdminOrder, Order, OrderPolicy, Refund } from "#domain/schemas/orders.js";
import { creditNoteNumberText, invoiceNumberText } from "#domain/tax-documents.js";
import type { Database } from "../platform/db/client.js";
import { orderItems, orders, products, refundLines, refunds, users } from "../platform/db/schema.js";
import { policyVersionsById } from "../policies/publish.js";
import { copyAddress } from "./delivery-address.js";

type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;
type RefundRow = typeof refunds.$inferSelect;
type RefundLineRow = typeof refundLines.$inferSelect;

export function toRefund(row: RefundRow, lines: readonly RefundLineRow[] = []): Refund {
  return {
    id: row.id,
    amount: centsToDecimal(row.amountCents),
    reason: row.reason,
    restock: row.restock,
    status: row.status,
    payfastMessage: row.payfastMessage,
    madeIn: row.madeIn,
    payfastReference: row.payfastReference,
    refundedOn: row.refundedOn,
    creditNoteNumber: row.creditNoteNumber === null ? null : creditNoteNumberText(row.creditNoteNumber),
    createdAt: row.createdAt.toISOString(),
    vatBasis: row.vatBasis,
    lines: lines.map((line) => ({
      lineId: line.orderItemId,
      quantity: line.quantity,
      amount: centsToDecimal(line.amountCents),
    })),
    delivery: centsToDecimal(row.deliveryCents),
  };
}

/** The wire shape of an order (docs/product.md §3), amounts as "579.00". */
export function toOrder(
  row: OrderRow,
  items: readonly OrderItemRow[],
  refundRows: readonly RefundRow[] = [],
  policyLinks: ReadonlyMap<number, OrderPolicy> = new Map(),
  linesOfRefunds: ReadonlyMap<string, readonly RefundLineRow[]> = new Map(),
): Order {
  const refunded = refundRows
    .filter((refund) => refund.status === "completed")
    .reduce((sum, refund) => sum + refund.amountCents, 0);
  return {
    id: row.id,
    userId: row.userId,
    status: row.status,
    subtotal: centsToDecimal(row.subtotalCents),
    deliveryFee: centsToDecimal(row.deliveryFeeCents),
    total: centsToDecimal(row.totalCents),
    promoCode: row.promoCode,
    discount: centsToDecimal(row.discountCents),
    deliveryDiscount: centsToDecimal(row.deliveryDiscountCents),
    multibuyDiscount: centsToDecimal(row.multibuyDiscountCents),
    customerEmail: row.customerEmail,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    payfastStatus: row.status === "pending" ? row.payfastStatus : null,
    holdUntil: row.status === "pending" && row.holdUntil ? row.holdUntil.toISOString() : null,
    cancelReason: row.status === "cancelled" ? row.cancelReason : null,
    cancelledAt: row.status === "cancelled" ? (row.cancelledAt?.toISOString() ?? null) : null,
    cancelNote: row.status === "cancelled" ? row.cancelNote : null,
    invoiceNumber: row.invoiceNumber === null ? null : invoiceNumberText(row.invoiceNumber),
    companyName: row.companyName,
    vatNumber: row.vatNumber,
    refunds: [...refundRows]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
      .map((refund) => toRefund(refund, linesOfRefunds.get(refund.id))),
    refunded: centsToDecimal(refunded),
    courier: row.courier,
    trackingNumber: row.trackingNumber,
    trackingUrl: trackingUrl(row.courier, row.trackingNumber),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    items: [...items]
      .sort((a, b) => a.position - b.position)
      .map((item) => ({
        productId: item.productId,
        name: item.name,
        size: item.size,
        quantity: item.quantity,
        price: centsToDecimal(item.unitPriceCents),
        discount: centsToDecimal(item.discountCents),
        multibuyDiscount: centsToDecimal(item.multibuyDiscountCents),
        lineId: item.id,
      })),
    ...copyAddress(row),
    delivery: {
      service: row.deliveryService,
      label: DELIVERY_SERVICE_LABELS[row.deliveryService],
      pointCode: row.deliveryPointCode,
      pointName: row.deliveryPointName,
      pointAddress: row.deliveryPointAddress,
      quotedPrice: row.deliveryQuotedCents === null ? null : centsToDecimal(row.deliveryQuotedCents),
      source: row.deliveryPriceSource,
      rateRevisionId: row.deliveryRateRevisionId,
      expectedDay: row.deliveryExpectedDay,
    },
    policies: orderPolicyIds(row)
      .map((id) => policyLinks.get(id))
      .filter((policy): policy is OrderPolicy => policy !== undefined),
  };
}

/** The policy versions an order was placed under, terms first; none for an order placed before versioning. */
export function orderPolicyIds(
  row: Pick<OrderRow, "termsVersionId" | "returnPolicyVersionId" | "privacyVersionId">,
): number[] {
  return [row.termsVersionId, row.returnPolicyVersionId, row.privacyVersionId].filter(
    (id): id is number => id !== null,
  );
}

/** Orders matching `where`, newest first, each with its lines and refunds (three queries, whatever the count). */
export async function listOrders(db: Database, where?: SQL, limit?: number): Promise<Order[]> {
  const base = db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id));
  const rows = limit ? await base.limit(limit) : await base;
  if (rows.length === 0) return [];
  const items = await db
    .select()
    .from(orderItems)
    .where(
      inArray(
        orderItems.orderId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(orderItems.orderId), asc(orderItems.position));
  const refundRows = await db
    .select()
    .from(refunds)
    .where(
      inArray(
        refunds.orderId,
        rows.map((row) => row.id),
      ),
    );
  const withLines = refundRows.filter((refund) => refund.vatBasis !== "legacy").map((refund) => refund.id);
  const linesOfRefunds = new Map<string, RefundLineRow[]>();
  if (withLines.length > 0) {
    for (const line of await db.select().from(refundLines).where(inArray(refundLines.refundId, withLines))) {
      linesOfRefunds.set(line.refundId, [...(linesOfRefunds.get(line.refundId) ?? []), line]);
    }
  }
  const byOrder = groupByOrder(items);
  const refundsByOrder = groupByOrder(refundRows);
  const policyLinks = await policyVersionsById(db, rows.flatMap(orderPolicyIds));
  return rows.map((row) =>
    toOrder(row, byOrder.get(row.id) ?? [], refundsByOrder.get(row.id) ?? [], policyLinks, linesOfRefunds),
  );
}

function groupByOrder<T extends { orderId: string }>(rows: readonly T[]): Map<string, T[]> {
  const byOrder = new Map<string, T[]>();
  for (const row of rows) {
    const list = byOrder.get(row.orderId) ?? [];
    list.push(row);
    byOrder.set(row.orderId, list);
  }
  return byOrder;
}

export async function findOrder(db: Database, id: string): Promise<Order | null> {
  const [order] = await listOrders(db, eq(orders.id, id));
  return order ?? null;
}

/** The admin's view of orders: each with how it was paid and which admin marked it paid (one query). */
export async function withPaidBy(db: Database, list: readonly Order[]): Promise<AdminOrder[]> {
  if (list.length === 0) return [];
  const rows = await db
    .select({ id: orders.id, paidBy: orders.paidBy, paidByAdmin: users.username })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.paidByUserId))
    .where(
      inArray(
        orders.id,
        list.map((order) => order.id),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return list.map((order) => {
    const row = byId.get(order.id);
    return {
      ...order,
      paidBy: row?.paidBy ?? null,
      paidByAdmin: row?.paidBy === "admin" ? (row.paidByAdmin ?? null) : null,
    };
  });
}

export async function findAdminOrder(db: Database, id: string): Promise<AdminOrder | null> {
  const order = await findOrder(db, id);
  if (!order) return null;
  const [answer] = await withPaidBy(db, [order]);
  return answer ?? null;
}

export function listOrdersForUser(db: Database, userId: string): Promise<Order[]> {
  return listOrders(db, eq(orders.userId, userId));
}

/**
 * The products a cart names, in one query, with what create-order checks. Create-order is the
 * shop's hottest write: its statements are built once and prepared by name, so neither Drizzle
 * nor PostgreSQL parses and plans them again for each order (bench/README.md, orders).
 */
export function productsForOrderQuery(db: Database) {
  const query = db
    .select({
      id: products.id,
      name: products.name,
      priceCents: products.priceCents,
      sizes: products.sizes,
      sizePrices: products.sizePrices,
      vatClass: products.vatClass,
      maxPerOrder: products.maxPerOrder,
      multibuyTiers: products.multibuyTiers,
      planSavingBp: products.planSavingBp,
    })
    .from(products)
    .where(sql`${products.id} = any(${sql.placeholder("ids")}::uuid[])`)
    .prepare("products_for_order");
  return (ids: readonly string[]): Promise<ProductForOrder[]> => query.execute({ ids: [...new Set(ids)] });
}
