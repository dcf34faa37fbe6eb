import { type PricedOrderLine, type ProductForOrder, priceOrder } from "#domain/order-pricing.js";
import type { PromoCheckInput } from "#domain/schemas/promo.js";
import type { productsForOrderQuery } from "../orders/queries.js";
import { conflict } from "../platform/errors.js";

/**
 * A cart priced as create-order prices it (src/domain/order-pricing.ts: merged per product and size, the
 * database's prices), for a code check that has no figures of its own to compare: the figures it
 * "shows" are whatever the lines come to. A product or size that is gone is a 409 CART_CHANGED.
 */
export async function priceLinesForCheck(
  findProducts: ReturnType<typeof productsForOrderQuery>,
  items: PromoCheckInput["items"],
): Promise<{ lines: PricedOrderLine[]; products: ProductForOrder[] }> {
  const products = await findProducts(items.map((item) => item.id));
  const none = { subtotal: 0, deliveryFee: 0, total: 0 };
  const priced = priceOrder(items, none, products, () => ({ subtotalCents: 0, deliveryFeeCents: 0, totalCents: 0 }));
  if (!priced.ok) throw conflict(priced.message, "CART_CHANGED");
  return { lines: priced.lines, products };
}
