import type { Pool } from "pg";
import { shortLineMessage } from "../../domain/stock.js";
import type { PricedOrderLine } from "./pricing.js";

export interface NewOrder {
  id: string;
  userId: string;
  subtotalCents: number;
  deliveryFeeCents: number;
  totalCents: number;
  /** A promo code's (src/server/promo/): the code, off the goods (the lines' discounts), the waived delivery fee. */
  promoCode: string | null;
  discountCents: number;
  deliveryDiscountCents: number;
  customerEmail: string;
  deliveryName: string;
  deliveryPhone: string;
  deliveryAddress: string;
  deliveryCity: string;
  deliveryProvince: string;
  deliveryZipCode: string;
  deliverySuburb: string;
  deliveryComplex: string;
  deliveryInstructions: string;
  deliveryAltPhone: string;
  /** A business buyer's, for the tax invoice. */
  companyName: string | null;
  vatNumber: string | null;
  /** The client network that places it (auth/client-network.ts): the per-address cap. */
  placedFrom: string;
  /** Priced and merged: one line per product and size (pricing.ts). */
  lines: readonly PricedOrderLine[];
  /** The policy versions in force as it is placed (src/server/policies/): the agreement it was made under. */
  policyVersionIds: { terms: number; returnPolicy: number; privacy: number };
}

/** A line that could not be held, and how many of it are left to sell. */
export interface ShortLine {
  name: string;
  size: string;
  wanted: number;
  left: number;
}

/** The most unpaid orders one account, and one client network, may hold at once. */
export interface UnpaidCaps {
  perAccount: number;
  perAddress: number;
}

export type PlaceOrderResult =
  | { ok: true }
  | { ok: false; short: ShortLine[] }
  | { ok: false; capped: "account" | "address" };

/**
 * Creates an order and holds the stock of every line, in ONE statement (data-modifying CTEs, which
 * PostgreSQL runs atomically): either every line is held and the order and its lines exist, or
 * nothing is written and the answer lists the short lines with what is left of each, or the cap
 * on unpaid orders that the account or its network has reached.
 *
 * - `holder` locks the network's and the account's rows of order_holders (creating them when
 *   new), in key order, before any stock row: an upsert reads the row's latest committed count
 *   even when it had to wait, so two orders of one holder never both pass its cap. The counts are
 *   kept by triggers on orders (migration 0009); `capped` names a holder at its cap, and then
 *   nothing is locked or written.
 *
 * - `locked` takes the lines' stock rows FOR UPDATE in the one order every writer of stock uses
 *   (product id, then size; stock/settle.ts and stock/levels.ts too), so carts naming the same
 *   sizes wait for each other instead of deadlocking. Having waited, it reads the rows as the
 *   transaction before it committed them, so `left` is what can be sold now.
 * - `short` is every line asking for more than is left (a size without a stock row has none).
 * - `held`, `new_order` and `items` write only when nothing is short; `held` needs `short`, which
 *   needs `locked`, so the rows are locked and checked before anything is written.
 * Correct with any number of concurrent buyers and app instances: the row locks decide who gets
 * the last unit, and the table's checks (held <= quantity) refuse an oversell even if this
 * statement were wrong. The lines go in as arrays, so its shape does not change with their number,
 * and it is prepared once per connection by name (Drizzle cannot prepare a raw statement, so this
 * one goes to the driver, on the pool Drizzle uses). Lines are merged per product and size (pricing.ts).
 * Each line stores its product's VAT class and that class's rate today, and the order the standard
 * rate of its delivery fee, from vat_rate(class, day) (docs/decisions/017-vat-per-line.md).
 * A promo code's discount is stored per line and on the order (docs/decisions/023-promo-codes.md).
 */
export const PLACE_ORDER = {
  name: "place_order",
  text: `
    with line as (
      select * from unnest($13::uuid[], $14::int[], $15::text[], $16::text[], $17::int[], $18::int[], $21::text[], $26::int[])
        as line(product_id, position, name, size, quantity, unit_price_cents, vat_class, discount_cents)
    ), today as (
      select (now() at time zone 'Africa/Johannesburg')::date as day
    ), holder as materialized (
      insert into order_holders (key, unpaid) values ('net:' || $25::text, 0), ('user:' || $2::uuid, 0)
      on conflict (key) do update set unpaid = order_holders.unpaid
      returning key, unpaid
    ), capped as materialized (
      select key from holder where unpaid >= case when key like 'user:%' then $34::int else $35::int end
    ), locked as materialized (
      select product_id, size, quantity - held as left
      from product_stock
      where (product_id, size) in (select product_id, size from line) and not exists (select from capped)
      order by product_id, size
      for update
    ), short as materialized (
      select line.name, line.size, line.quantity as wanted, greatest(coalesce(locked.left, 0), 0) as left
      from line left join locked using (product_id, size)
      where coalesce(locked.left, 0) < line.quantity
    ), held as (
      update product_stock set held = product_stock.held + line.quantity
      from line
      where product_stock.product_id = line.product_id and product_stock.size = line.size
        and not exists (select from short) and not exists (select from capped)
    ), new_order as (
      insert into orders (
        id, user_id, status, stock_state, subtotal_cents, delivery_fee_cents, total_cents, customer_email,
        delivery_name, delivery_phone, delivery_address, delivery_city, delivery_province, delivery_zip_code,
        company_name, vat_number, delivery_vat_rate_bp, terms_version_id, return_policy_version_id, privacy_version_id,
        placed_from, promo_code, discount_cents, delivery_discount_cents,
        delivery_suburb, delivery_complex, delivery_instructions, delivery_alt_phone
      ) select $1, $2, 'pending', 'held', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $19::text, $20::text,
        vat_rate('standard', today.day), $22::int, $23::int, $24::int, $25::text, $27::text, $28::int, $29::int,
        $30::text, $31::text, $32::text, $33::text
      from today
      where not exists (select from short) and not exists (select from capped)
      returning id
    ), items as (
      insert into order_items (order_id, product_id, position, name, size, quantity, unit_price_cents, vat_class, vat_rate_bp, discount_cents)
      select new_order.id, line.product_id, line.position, line.name, line.size, line.quantity, line.unit_price_cents,
        line.vat_class, vat_rate(line.vat_class, today.day), line.discount_cents
      from new_order cross join line cross join today
    )
    select 'capped' as kind, capped.key as name, null as size, null::int as wanted, null::int as left from capped
    union all
    select 'short', short.name, short.size, short.wanted, short.left from short where not exists (select from capped)`,
};

export async function placeOrder(pool: Pool, order: NewOrder, caps: UnpaidCaps): Promise<PlaceOrderResult> {
  const { rows } = await pool.query<ShortLine & { kind: "capped" | "short" }>({
    ...PLACE_ORDER,
    values: [...orderValues(order), caps.perAccount, caps.perAddress],
  });
  const capped = rows.filter((row) => row.kind === "capped");
  if (capped.length > 0) {
    return { ok: false, capped: capped.some((row) => row.name.startsWith("user:")) ? "account" : "address" };
  }
  return rows.length > 0
    ? { ok: false, short: rows.map(({ name, size, wanted, left }) => ({ name, size, wanted, left })) }
    : { ok: true };
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
    order.companyName,
    order.vatNumber,
    lines.map((line) => line.vatClass),
    order.policyVersionIds.terms,
    order.policyVersionIds.returnPolicy,
    order.policyVersionIds.privacy,
    order.placedFrom,
    lines.map((line) => line.discountCents ?? 0),
    order.promoCode,
    order.discountCents,
    order.deliveryDiscountCents,
    order.deliverySuburb,
    order.deliveryComplex,
    order.deliveryInstructions,
    order.deliveryAltPhone,
  ];
}

/** The 409's message: each short line, then what to do. */
export function shortMessage(short: readonly ShortLine[]): string {
  const lines = short.map((line) => shortLineMessage(line.name, line.size, line.left));
  return `${lines.join(" ")} Please update your cart and try again.`;
}
