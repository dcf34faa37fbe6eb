import type { Pool } from "pg";
import type { PricedOrderLine } from "#domain/order-pricing.js";
import { ORDER_START_STATUS } from "#domain/order-status.js";
import { shortLineMessage } from "#domain/stock.js";
import type { OrderDeliveryChoice } from "../delivery/order-delivery.js";
import { namedStatement } from "../platform/db/named-statement.js";
import { SA_ZONE_LITERAL } from "../platform/db/sa-time.js";
import { copyAddress, DELIVERY_ADDRESS_COLUMNS, type DeliveryAddress } from "./delivery-address.js";

/** An order as checkout (or a plan's charging round) writes it, with its address (delivery-address.ts). */
export interface NewOrder extends DeliveryAddress {
  id: string;
  userId: string;
  subtotalCents: number;
  deliveryFeeCents: number;
  totalCents: number;
  /** A promo code's (src/server/promo/): the code, off the goods (the lines' discounts), the waived delivery fee. */
  promoCode: string | null;
  discountCents: number;
  deliveryDiscountCents: number;
  /** Off the goods by multi-buy tiers: the sum of the lines' multibuyDiscountCents (docs/decisions/047). */
  multibuyDiscountCents: number;
  customerEmail: string;
  /** A business buyer's, for the tax invoice. */
  companyName: string | null;
  vatNumber: string | null;
  /** The client network that places it (platform/client-network.ts): the per-address cap. */
  placedFrom: string;
  /** The delivery option chosen and priced by the server (delivery/order-delivery.ts); absent: door economy at the flat price. */
  delivery?: Omit<OrderDeliveryChoice, "feeOf">;
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

/** PLACE_ORDER's parameters, by name (its text says `:name`; named-statement.ts numbers them). */
const PLACE_ORDER_PARAMETERS = [
  "orderId",
  "userId",
  "status",
  "subtotalCents",
  "deliveryFeeCents",
  "totalCents",
  "customerEmail",
  ...DELIVERY_ADDRESS_COLUMNS,
  "companyName",
  "vatNumber",
  "termsVersionId",
  "returnPolicyVersionId",
  "privacyVersionId",
  "placedFrom",
  "promoCode",
  "discountCents",
  "deliveryDiscountCents",
  "multibuyDiscountCents",
  "deliveryService",
  "deliveryPointCode",
  "deliveryPointName",
  "deliveryPointAddress",
  "deliveryQuotedCents",
  "deliveryPriceSource",
  "deliveryRateRevisionId",
  "deliveryExpectedDay",
  "lineProductIds",
  "linePositions",
  "lineNames",
  "lineSizes",
  "lineQuantities",
  "lineUnitPriceCents",
  "lineVatClasses",
  "lineDiscountCents",
  "lineMultibuyDiscountCents",
  "unpaidCapPerAccount",
  "unpaidCapPerAddress",
] as const;
type PlaceOrderParameter = (typeof PLACE_ORDER_PARAMETERS)[number];

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
 *   (product id, then size; stock/holds.ts and stock/levels.ts too), so carts naming the same
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
 * A promo code's discount is stored per line and on the order (docs/decisions/023-promo-codes.md),
 * and so is the multi-buy saving (docs/decisions/047-multi-buy-tiers.md).
 */
export const PLACE_ORDER = namedStatement(
  "place_order",
  PLACE_ORDER_PARAMETERS,
  `
    with line as (
      select * from unnest(:lineProductIds::uuid[], :linePositions::int[], :lineNames::text[], :lineSizes::text[], :lineQuantities::int[], :lineUnitPriceCents::int[], :lineVatClasses::text[], :lineDiscountCents::int[], :lineMultibuyDiscountCents::int[])
        as line(product_id, position, name, size, quantity, unit_price_cents, vat_class, discount_cents, multibuy_discount_cents)
    ), today as (
      select (now() at time zone ${SA_ZONE_LITERAL})::date as day
    ), holder as materialized (
      insert into order_holders (key, unpaid) values ('net:' || :placedFrom::text, 0), ('user:' || :userId::uuid, 0)
      on conflict (key) do update set unpaid = order_holders.unpaid
      returning key, unpaid
    ), capped as materialized (
      select key from holder where unpaid >= case when key like 'user:%' then :unpaidCapPerAccount::int else :unpaidCapPerAddress::int end
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
        placed_from, promo_code, discount_cents, delivery_discount_cents, multibuy_discount_cents,
        delivery_suburb, delivery_complex, delivery_instructions, delivery_alt_phone,
        delivery_service, delivery_point_code, delivery_point_name, delivery_point_address, delivery_quoted_cents,
        delivery_price_source, delivery_rate_revision_id, delivery_expected_day
      ) select :orderId, :userId, :status::text, 'held', :subtotalCents, :deliveryFeeCents, :totalCents, :customerEmail, :deliveryName, :deliveryPhone, :deliveryAddress, :deliveryCity, :deliveryProvince, :deliveryZipCode, :companyName::text, :vatNumber::text,
        vat_rate('standard', today.day), :termsVersionId::int, :returnPolicyVersionId::int, :privacyVersionId::int, :placedFrom::text, :promoCode::text, :discountCents::int, :deliveryDiscountCents::int, :multibuyDiscountCents::int,
        :deliverySuburb::text, :deliveryComplex::text, :deliveryInstructions::text, :deliveryAltPhone::text,
        :deliveryService::text, :deliveryPointCode::text, :deliveryPointName::text, :deliveryPointAddress::text, :deliveryQuotedCents::int,
        :deliveryPriceSource::text, :deliveryRateRevisionId::text, :deliveryExpectedDay::date
      from today
      where not exists (select from short) and not exists (select from capped)
      returning id
    ), items as (
      insert into order_items (order_id, product_id, position, name, size, quantity, unit_price_cents, vat_class, vat_rate_bp, discount_cents, multibuy_discount_cents)
      select new_order.id, line.product_id, line.position, line.name, line.size, line.quantity, line.unit_price_cents,
        line.vat_class, vat_rate(line.vat_class, today.day), line.discount_cents, line.multibuy_discount_cents
      from new_order cross join line cross join today
    )
    select 'capped' as kind, capped.key as name, null as size, null::int as wanted, null::int as left from capped
    union all
    select 'short', short.name, short.size, short.wanted, short.left from short where not exists (select from capped)`,
);

export async function placeOrder(pool: Pool, order: NewOrder, caps: UnpaidCaps): Promise<PlaceOrderResult> {
  const { rows } = await pool.query<ShortLine & { kind: "capped" | "short" }>({
    ...PLACE_ORDER.bind(placeOrderParameters(order, caps)),
  });
  const capped = rows.filter((row) => row.kind === "capped");
  if (capped.length > 0) {
    return { ok: false, capped: capped.some((row) => row.name.startsWith("user:")) ? "account" : "address" };
  }
  return rows.length > 0
    ? { ok: false, short: rows.map(({ name, size, wanted, left }) => ({ name, size, wanted, left })) }
    : { ok: true };
}

/** Each parameter of PLACE_ORDER by name, from the order and the caps. */
function placeOrderParameters(order: NewOrder, caps: UnpaidCaps): Record<PlaceOrderParameter, unknown> {
  const { lines } = order;
  return {
    orderId: order.id,
    userId: order.userId,
    status: ORDER_START_STATUS,
    subtotalCents: order.subtotalCents,
    deliveryFeeCents: order.deliveryFeeCents,
    totalCents: order.totalCents,
    customerEmail: order.customerEmail,
    ...copyAddress(order),
    companyName: order.companyName,
    vatNumber: order.vatNumber,
    termsVersionId: order.policyVersionIds.terms,
    returnPolicyVersionId: order.policyVersionIds.returnPolicy,
    privacyVersionId: order.policyVersionIds.privacy,
    placedFrom: order.placedFrom,
    promoCode: order.promoCode,
    discountCents: order.discountCents,
    deliveryDiscountCents: order.deliveryDiscountCents,
    multibuyDiscountCents: order.multibuyDiscountCents,
    deliveryService: order.delivery?.service ?? "door_economy",
    deliveryPointCode: order.delivery?.pointCode ?? null,
    deliveryPointName: order.delivery?.pointName ?? null,
    deliveryPointAddress: order.delivery?.pointAddress ?? null,
    deliveryQuotedCents: order.delivery?.quotedCents ?? null,
    deliveryPriceSource: order.delivery?.source ?? "flat",
    deliveryRateRevisionId: order.delivery?.rateRevisionId ?? null,
    deliveryExpectedDay: order.delivery?.expectedDay ?? null,
    lineProductIds: lines.map((line) => line.productId),
    linePositions: lines.map((_, index) => index),
    lineNames: lines.map((line) => line.name),
    lineSizes: lines.map((line) => line.size),
    lineQuantities: lines.map((line) => line.quantity),
    lineUnitPriceCents: lines.map((line) => line.unitPriceCents),
    lineVatClasses: lines.map((line) => line.vatClass),
    lineDiscountCents: lines.map((line) => line.discountCents ?? 0),
    lineMultibuyDiscountCents: lines.map((line) => line.multibuyDiscountCents ?? 0),
    unpaidCapPerAccount: caps.perAccount,
    unpaidCapPerAddress: caps.perAddress,
  };
}

/** The 409's message: each short line, then what to do. */
export function shortMessage(short: readonly ShortLine[]): string {
  const lines = short.map((line) => shortLineMessage(line.name, line.size, line.left));
  return `${lines.join(" ")} Please update your cart and try again.`;
}
