import { asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Pool } from "pg";
import { centsToDecimal } from "../../domain/money.js";
import type { Order } from "../../domain/schemas/orders.js";
import type { Database } from "../db/client.js";
import { orderItems, orders, products } from "../db/schema.js";
import type { PricedOrderLine, ProductForOrder } from "./pricing.js";

type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;

/** The wire shape of an order (docs/product.md §3), amounts as "579.00". */
export function toOrder(row: OrderRow, items: readonly OrderItemRow[]): Order {
  return {
    id: row.id,
    userId: row.userId,
    status: row.status,
    subtotal: centsToDecimal(row.subtotalCents),
    deliveryFee: centsToDecimal(row.deliveryFeeCents),
    total: centsToDecimal(row.totalCents),
    customerEmail: row.customerEmail,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    payfastStatus: row.status === "pending" ? row.payfastStatus : null,
    items: [...items]
      .sort((a, b) => a.position - b.position)
      .map((item) => ({
        name: item.name,
        size: item.size,
        quantity: item.quantity,
        price: centsToDecimal(item.unitPriceCents),
      })),
    deliveryName: row.deliveryName,
    deliveryPhone: row.deliveryPhone,
    deliveryAddress: row.deliveryAddress,
    deliveryCity: row.deliveryCity,
    deliveryProvince: row.deliveryProvince,
    deliveryZipCode: row.deliveryZipCode,
  };
}

/** Orders matching `where`, newest first, each with its lines (two queries, whatever the count). */
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
  const byOrder = new Map<string, OrderItemRow[]>();
  for (const item of items) {
    const list = byOrder.get(item.orderId) ?? [];
    list.push(item);
    byOrder.set(item.orderId, list);
  }
  return rows.map((row) => toOrder(row, byOrder.get(row.id) ?? []));
}

export async function findOrder(db: Database, id: string): Promise<Order | null> {
  const [order] = await listOrders(db, eq(orders.id, id));
  return order ?? null;
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
      sizeOutOfStock: products.sizeOutOfStock,
      outOfStock: products.outOfStock,
    })
    .from(products)
    .where(sql`${products.id} = any(${sql.placeholder("ids")}::uuid[])`)
    .prepare("products_for_order");
  return (ids: readonly string[]): Promise<ProductForOrder[]> => query.execute({ ids: [...new Set(ids)] });
}

export interface NewOrder {
  id: string;
  userId: string;
  subtotalCents: number;
  deliveryFeeCents: number;
  totalCents: number;
  customerEmail: string;
  deliveryName: string;
  deliveryPhone: string;
  deliveryAddress: string;
  deliveryCity: string;
  deliveryProvince: string;
  deliveryZipCode: string;
  lines: readonly PricedOrderLine[];
}

/**
 * Writes an order and all its lines in ONE statement (a data-modifying CTE), which PostgreSQL
 * runs atomically: either both are stored or neither. The lines go in as arrays, so the
 * statement's shape does not change with the number of lines, and it is prepared once per
 * connection by name. Drizzle cannot prepare a raw statement, so this one goes to the driver
 * (the same pool Drizzle uses) as a named query.
 */
export const INSERT_ORDER = {
  name: "insert_order",
  text: `
    with new_order as (
      insert into orders (
        id, user_id, status, subtotal_cents, delivery_fee_cents, total_cents, customer_email,
        delivery_name, delivery_phone, delivery_address, delivery_city, delivery_province, delivery_zip_code
      ) values ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
      returning id
    )
    insert into order_items (order_id, product_id, position, name, size, quantity, unit_price_cents)
    select new_order.id, line.product_id, line.position, line.name, line.size, line.quantity, line.unit_price_cents
    from new_order
    cross join unnest($13::uuid[], $14::int[], $15::text[], $16::text[], $17::int[], $18::int[])
      as line(product_id, position, name, size, quantity, unit_price_cents)`,
};

export async function insertOrder(pool: Pool, order: NewOrder): Promise<void> {
  const { lines } = order;
  await pool.query({
    ...INSERT_ORDER,
    values: [
      order.id,
      order.userId,
      order.subtotalCents,
      order.deliveryFeeCents,
      order.totalCents,
      order.customerEmail,
      order.deliveryName,
      order.deliveryPhone,
      order.deliveryAddress,
      order.deliveryCity,
      order.deliveryProvince,
      order.deliveryZipCode,
      lines.map((line) => line.productId),
      lines.map((_, index) => index),
      lines.map((line) => line.name),
      lines.map((line) => line.size),
      lines.map((line) => line.quantity),
      lines.map((line) => line.unitPriceCents),
    ],
  });
}
