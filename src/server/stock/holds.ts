import { sql } from "drizzle-orm";
import type { OrderStockState } from "#domain/stock.js";
import type { Transaction } from "../platform/db/client.js";
import { orders } from "../platform/db/schema.js";

/**
 * An order's stock holds, their whole life (docs/product.md §10): held by create-order
 * (orders/place-order.ts, in the statement that writes the order), kept longer while PayFast says
 * a payment is pending (`pendingHoldUntil`), then sold (`sellHeld`, `takeStock`, or short:
 * `settlePaidStock`), released (`releaseHeld`) or returned (`returnSold`, `returnUnits`). Each runs in
 * the caller's transaction, with the order row already locked by the caller (its status change is
 * what decides that this runs once), and locks the stock rows in place-order.ts's order.
 */

/**
 * PayFast says a payment is PENDING (a slow EFT or voucher): the order's holds last at least
 * `hours` from now (ORDER_PENDING_HOLD_HOURS), never less than they already did. The column's new
 * value, for the update that also notes PayFast's status (payments/itn.ts).
 */
export const pendingHoldUntil = (hours: number) => ({
  holdUntil: sql`greatest(coalesce(${orders.holdUntil}, now()), now() + ${`${hours} hours`}::interval)`,
});

/** The order's units per product and size (lines of a deleted product have none to count). */
const orderUnits = (orderId: string) => sql`
  select product_id, size, sum(quantity)::int as quantity
  from order_items
  where order_id = ${orderId} and product_id is not null
  group by product_id, size`;

async function lockStockOf(tx: Transaction, orderId: string) {
  const { rows } = await tx.execute<{ product_id: string; size: string; left: number; wanted: number }>(sql`
    select stock.product_id, stock.size, stock.quantity - stock.held as left, units.quantity as wanted
    from product_stock stock
    join (${orderUnits(orderId)}) units using (product_id, size)
    order by stock.product_id, stock.size
    for update of stock`);
  return rows;
}

async function setStockState(tx: Transaction, orderId: string, state: Exclude<OrderStockState, "held" | "none">) {
  await tx.execute(sql`update orders set stock_state = ${state} where id = ${orderId}`);
}

/**
 * A held order was paid: its holds become a sale. A size whose row an admin removed in the
 * meantime has nothing to take; greatest() keeps a row that an admin re-created from going negative.
 */
export async function sellHeld(tx: Transaction, orderId: string): Promise<void> {
  await lockStockOf(tx, orderId);
  await tx.execute(sql`
    update product_stock stock
    set quantity = greatest(stock.quantity - units.quantity, 0), held = greatest(stock.held - units.quantity, 0)
    from (${orderUnits(orderId)}) units
    where stock.product_id = units.product_id and stock.size = units.size`);
  await setStockState(tx, orderId, "sold");
}

/** A held order was cancelled: its units can be sold again at once. */
export async function releaseHeld(tx: Transaction, orderId: string): Promise<void> {
  await lockStockOf(tx, orderId);
  await tx.execute(sql`
    update product_stock stock
    set held = greatest(stock.held - units.quantity, 0)
    from (${orderUnits(orderId)}) units
    where stock.product_id = units.product_id and stock.size = units.size`);
  await setStockState(tx, orderId, "released");
}

/**
 * A refund with restock: the units an order bought go back on the shelf, once (the state becomes
 * "returned"), less those a received return already put back. Only a "sold" order has units to
 * give back; answers whether it gave them.
 */
export async function returnSold(
  tx: Transaction,
  order: { id: string; stockState: OrderStockState },
): Promise<boolean> {
  if (order.stockState !== "sold") return false;
  await lockStockOf(tx, order.id);
  // Units a received return already put back (src/server/returns) are not put back again.
  await tx.execute(sql`
    update product_stock stock
    set quantity = stock.quantity + units.quantity
    from (
      select item.product_id, item.size, sum(item.quantity - coalesce(back.restocked, 0))::int as quantity
      from order_items item
      left join (
        select order_item_id, sum(restocked)::int as restocked from return_request_lines group by order_item_id
      ) back on back.order_item_id = item.id
      where item.order_id = ${order.id} and item.product_id is not null
      group by item.product_id, item.size
    ) units
    where stock.product_id = units.product_id and stock.size = units.size`);
  await setStockState(tx, order.id, "returned");
  return true;
}

/**
 * An order that holds nothing was paid (a late payment for a cancelled order, or an order placed
 * before stock was counted): it takes its units if every line can have them, and is "short"
 * otherwise, which the caller reports to the admin. Answers whether it took them.
 */
export async function takeStock(tx: Transaction, orderId: string): Promise<boolean> {
  const rows = await lockStockOf(tx, orderId);
  const [{ lines = 0 } = {}] = (
    await tx.execute<{ lines: number }>(sql`select count(*)::int as lines from (${orderUnits(orderId)}) units`)
  ).rows;
  const enough = rows.length === lines && rows.every((row) => row.left >= row.wanted);
  if (!enough) {
    await setStockState(tx, orderId, "short");
    return false;
  }
  await tx.execute(sql`
    update product_stock stock
    set quantity = stock.quantity - units.quantity
    from (${orderUnits(orderId)}) units
    where stock.product_id = units.product_id and stock.size = units.size`);
  await setStockState(tx, orderId, "sold");
  return true;
}

/** Settles a payment's stock by the order's state: a hold becomes a sale, anything else takes stock. */
export async function settlePaidStock(
  tx: Transaction,
  order: { id: string; stockState: OrderStockState },
): Promise<"sold" | "short"> {
  if (order.stockState === "held") {
    await sellHeld(tx, order.id);
    return "sold";
  }
  if (order.stockState === "sold") return "sold";
  return (await takeStock(tx, order.id)) ? "sold" : "short";
}

/**
 * Goods a customer sent back (a return request, docs/returns.md) go back on the shelf: `units`
 * per product and size, locked in place-order.ts's order. A size whose row is gone is re-created.
 */
export async function returnUnits(
  tx: Transaction,
  units: readonly { productId: string; size: string; quantity: number }[],
): Promise<void> {
  const sorted = units
    .filter((unit) => unit.quantity > 0)
    .sort((a, b) => a.productId.localeCompare(b.productId) || a.size.localeCompare(b.size));
  for (const unit of sorted) {
    await tx.execute(sql`
      insert into product_stock (product_id, size, quantity) values (${unit.productId}, ${unit.size}, ${unit.quantity})
      on conflict (product_id, size) do update set quantity = product_stock.quantity + excluded.quantity`);
  }
}
