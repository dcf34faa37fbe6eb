import type { Pool, PoolClient } from "pg";
import { shortLineMessage } from "../../domain/stock.js";
import type { PricedOrderLine } from "./pricing.js";

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
  /** Priced and merged: one line per product and size (pricing.ts). */
  lines: readonly PricedOrderLine[];
}

/** A line that could not be held, and how many of it are left to sell. */
export interface ShortLine {
  name: string;
  size: string;
  wanted: number;
  left: number;
}

export type PlaceOrderResult = { ok: true } | { ok: false; short: ShortLine[] };

/**
 * Locks the stock rows an order names in the one order every writer of stock uses (product id,
 * then size; stock/settle.ts too), so two carts naming the same sizes wait for each other instead
 * of deadlocking, and answers what each can still sell.
 */
export const LOCK_STOCK = {
  name: "lock_stock",
  text: `
    select product_id, size, quantity - held as left
    from product_stock
    where (product_id, size) in (select * from unnest($1::uuid[], $2::text[]))
    order by product_id, size
    for update`,
};

/**
 * Holds every line's units, writes the order and writes its lines, in one statement (data-modifying
 * CTEs). The lines go in as arrays, so the statement's shape does not change with their number,
 * and it is prepared once per connection by name (Drizzle cannot prepare a raw statement, so this
 * one goes to the driver, on the pool Drizzle uses).
 */
export const PLACE_ORDER = {
  name: "place_order",
  text: `
    with line as (
      select * from unnest($13::uuid[], $14::int[], $15::text[], $16::text[], $17::int[], $18::int[])
        as line(product_id, position, name, size, quantity, unit_price_cents)
    ), held as (
      update product_stock set held = product_stock.held + line.quantity
      from line
      where product_stock.product_id = line.product_id and product_stock.size = line.size
    ), new_order as (
      insert into orders (
        id, user_id, status, stock_state, subtotal_cents, delivery_fee_cents, total_cents, customer_email,
        delivery_name, delivery_phone, delivery_address, delivery_city, delivery_province, delivery_zip_code
      ) values ($1, $2, 'pending', 'held', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
      returning id
    )
    insert into order_items (order_id, product_id, position, name, size, quantity, unit_price_cents)
    select new_order.id, line.product_id, line.position, line.name, line.size, line.quantity, line.unit_price_cents
    from new_order cross join line`,
};

/**
 * Creates an order and holds the stock of every line, in one transaction: either every line is
 * held and the order exists, or nothing changed and the answer names the short lines. Correct
 * with any number of concurrent buyers and app instances: the row locks decide who gets the last
 * unit, and the table's checks (held <= quantity) refuse an oversell even if this code were wrong.
 */
export async function placeOrder(pool: Pool, order: NewOrder): Promise<PlaceOrderResult> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    const short = await shortLines(client, order);
    if (short.length > 0) {
      await client.query("rollback");
      return { ok: false, short };
    }
    await client.query({ ...PLACE_ORDER, values: orderValues(order) });
    await client.query("commit");
    return { ok: true };
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function shortLines(client: PoolClient, order: NewOrder): Promise<ShortLine[]> {
  const { rows } = await client.query<{ product_id: string; size: string; left: number }>({
    ...LOCK_STOCK,
    values: [order.lines.map((line) => line.productId), order.lines.map((line) => line.size)],
  });
  const left = new Map(rows.map((row) => [`${row.product_id}\u0000${row.size}`, row.left]));
  return order.lines.flatMap((line) => {
    // A size without a stock row has nothing to sell.
    const available = Math.max(0, left.get(`${line.productId}\u0000${line.size}`) ?? 0);
    if (available >= line.quantity) return [];
    return [{ name: line.name, size: line.size, wanted: line.quantity, left: available }];
  });
}

function orderValues(order: NewOrder): unknown[] {
  const { lines } = order;
  return [
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
  ];
}

/** The 409's message: each short line, then what to do. */
export function shortMessage(short: readonly ShortLine[]): string {
  const lines = short.map((line) => shortLineMessage(line.name, line.size, line.left));
  return `${lines.join(" ")} Please update your cart and try again.`;
}
