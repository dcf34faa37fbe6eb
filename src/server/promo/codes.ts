import { and, eq, inArray, sql } from "drizzle-orm";
import { centsToDecimal } from "#domain/money.js";
import type { PricedOrderLine } from "#domain/order-pricing.js";
import {
  checkPromo,
  type DeliveryFeeRule,
  normalisePromoCode,
  PROMO_FAILURE_STATUS,
  type PromoCheck,
  type PromoFailure,
  type PromoFigures,
  type PromoLine,
  type PromoRule,
  type PromoUses,
} from "#domain/promo.js";
import type { PromoAgainst } from "../orders/savings.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { products, promoCodes, promoRedemptions } from "../platform/db/schema.js";
import { HttpError } from "../platform/errors.js";

export type StoredPromo = PromoRule & { id: string };
type Db = Database | Transaction;

/** The code a shopper typed, or null when there is none by that name. */
export async function findPromo(db: Db, typed: string): Promise<StoredPromo | null> {
  const code = normalisePromoCode(typed);
  if (code.length === 0 || code.length > 32) return null;
  const [row] = await db.select().from(promoCodes).where(eq(promoCodes.code, code));
  return row ?? null;
}

/** Who is using a code: the account, and its address when proven its own (auth/accounts.ts provenEmail). */
export interface PromoCustomer {
  userId: string | null;
  provenEmail: string | null;
}

/**
 * Its held and paid uses, in all and by this customer. Under the code's row lock, they are exact.
 * A held use counts only while its order still holds its stock: the order is unpaid, its stock held,
 * and its hold (ORDER_HOLD_MINUTES, or a PayFast PENDING's hold_until) not lapsed; so a use is free
 * the moment the hold lapses, whether or not the expiry job has run yet. A hold written just before
 * its order (no order yet) counts for the hold time. A customer's uses are the account's and those
 * of any account that had this address proven when it used the code (docs/decisions/041).
 */
export async function promoUses(
  db: Db,
  promoCodeId: string,
  customer: PromoCustomer,
  holdMinutes: number,
): Promise<PromoUses> {
  const hold = `${holdMinutes * 60} seconds`;
  const { rows } = await db.execute<{ total: number; by_customer: number }>(sql`
    select count(*)::int as total,
      (count(*) filter (where r.user_id = ${customer.userId}::uuid
        or (${customer.provenEmail}::text is not null and r.email = lower(${customer.provenEmail}::text))))::int as by_customer
    from promo_redemptions r
    left join orders o on o.id = r.order_id
    where r.promo_code_id = ${promoCodeId}
      and (r.state = 'used' or (r.state = 'held' and (
        (o.id is null and r.created_at > now() - ${hold}::interval)
        or (o.status = 'pending' and o.stock_state = 'held'
          and (o.created_at > now() - ${hold}::interval or o.hold_until > now())))))`);
  const [row] = rows;
  return { total: row?.total ?? 0, byCustomer: row?.by_customer ?? 0 };
}

/** Each product's category, for the codes limited to categories. */
export async function productCategories(db: Db, productIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: products.id, categoryId: products.categoryId })
    .from(products)
    .where(inArray(products.id, ids));
  return new Map(rows.map((row) => [row.id, row.categoryId]));
}

/** Priced order lines as a promo reads them: with each product's category. */
export function toPromoLines(lines: readonly PricedOrderLine[], categoryOf: ReadonlyMap<string, string>): PromoLine[] {
  return lines.map((line) => ({
    productId: line.productId,
    categoryId: categoryOf.get(line.productId) ?? null,
    amountCents: line.unitPriceCents * line.quantity,
  }));
}

/**
 * A code at create-order: `against` checks it on the priced lines, with what the multi-buy tiers
 * already took off each (orders/savings.ts). Limits are counted here without a lock, for the
 * message; reservePromo decides under the lock.
 */
export async function promoForOrder(
  db: Db,
  typed: string,
  productIds: readonly string[],
  customer: PromoCustomer,
  holdMinutes: number,
) {
  const promo = await findPromo(db, typed);
  const categoryOf = await productCategories(db, productIds);
  const uses = promo ? await promoUses(db, promo.id, customer, holdMinutes) : { total: 0, byCustomer: 0 };
  const now = new Date();
  const against: PromoAgainst = (lines, alreadyOffCents, feeOf) =>
    checkPromo(promo, toPromoLines(lines, categoryOf), now, uses, alreadyOffCents, feeOf);
  return { promo, against, promoLines: (lines: readonly PricedOrderLine[]) => toPromoLines(lines, categoryOf) };
}

/** The 4xx of a refused code, `{ message, code }`. */
export function promoError(check: { code: PromoFailure; message: string }): HttpError {
  return new HttpError(PROMO_FAILURE_STATUS[check.code], check.message, check.code);
}

/**
 * Holds one use of the code for an order about to be placed, or says why not (docs/decisions/023).
 * The code's row is locked FOR UPDATE, so every checkout with this code queues here; having waited,
 * each counts the uses the ones before it committed (READ COMMITTED takes a new snapshot per
 * statement), so held + paid uses never pass the limits, whatever the number of concurrent
 * checkouts or app instances. The whole code is checked again, so a code the admin changed a
 * moment ago is judged as it is now.
 */
export async function reservePromo(
  db: Database,
  {
    promo,
    lines,
    customer,
    holdMinutes,
    orderId,
    alreadyOffCents = [],
    feeOf,
    now = new Date(),
  }: {
    promo: StoredPromo;
    lines: readonly PromoLine[];
    /** Per line, what the multi-buy tiers took off first (MULTIBUY_WITH_PROMO=both). */
    alreadyOffCents?: readonly number[];
    /** What delivery costs for the chosen option (delivery/order-delivery.ts). */
    feeOf?: DeliveryFeeRule;
    customer: PromoCustomer & { userId: string };
    holdMinutes: number;
    orderId: string;
    now?: Date;
  },
): Promise<PromoCheck> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(promoCodes).where(eq(promoCodes.id, promo.id)).for("update");
    const uses = await promoUses(tx, promo.id, customer, holdMinutes);
    const check = checkPromo(locked ?? null, lines, now, uses, alreadyOffCents, feeOf);
    if (!check.ok) return check;
    await tx.insert(promoRedemptions).values({
      orderId,
      promoCodeId: promo.id,
      userId: customer.userId,
      email: customer.provenEmail?.toLowerCase() ?? null,
      discountCents: check.figures.discountCents + check.figures.deliveryDiscountCents,
    });
    return check;
  });
}

/** The order was never placed (its stock was short): its hold on the code goes. */
export async function dropPromoHold(db: Db, orderId: string): Promise<void> {
  await db
    .delete(promoRedemptions)
    .where(and(eq(promoRedemptions.orderId, orderId), eq(promoRedemptions.state, "held")));
}

/** The order was cancelled or expired unpaid: its use is free for another order. */
export async function releasePromo(tx: Db, orderId: string): Promise<void> {
  await tx
    .update(promoRedemptions)
    .set({ state: "released" })
    .where(and(eq(promoRedemptions.orderId, orderId), eq(promoRedemptions.state, "held")));
}

/**
 * The order was paid: its use counts. A payment is always honoured, so a use released when the
 * order expired becomes used again even if other orders took the code's last uses meanwhile: the
 * shopper paid the discounted amount the shop asked for (docs/decisions/023).
 */
export async function countPromoUse(tx: Db, orderId: string): Promise<void> {
  await tx
    .update(promoRedemptions)
    .set({ state: "used", usedAt: sql`now()` })
    .where(and(eq(promoRedemptions.orderId, orderId), inArray(promoRedemptions.state, ["held", "released"])));
}

/**
 * Holds written just before an order that was never placed (the app stopped between the two): after
 * the hold time, a held use whose order is not pending is released.
 */
export async function releaseStrandedPromoHolds(db: Database, holdMinutes: number): Promise<number> {
  const released = await db.execute(sql`
    update promo_redemptions set state = 'released'
    where state = 'held' and created_at < now() - ${`${holdMinutes * 60} seconds`}::interval
      and not exists (select from orders where orders.id = promo_redemptions.order_id and orders.status = 'pending')`);
  return released.rowCount ?? 0;
}

/** The figures a code gives these lines, as the checkout and the order show them (amounts "579.00"). */
export function figuresOnWire(figures: PromoFigures) {
  return {
    subtotal: centsToDecimal(figures.subtotalCents),
    discount: centsToDecimal(figures.discountCents),
    deliveryFee: centsToDecimal(figures.deliveryFeeCents),
    deliveryDiscount: centsToDecimal(figures.deliveryDiscountCents),
    total: centsToDecimal(figures.totalCents),
  };
}
