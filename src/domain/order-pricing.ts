import { formatRand, parseRandToCents } from "#domain/money.js";
import type { MultibuyTier } from "#domain/multibuy.js";
import { orderTotals } from "#domain/pricing.js";
import { lineLimitMessage } from "#domain/stock.js";
import type { VatClass } from "#domain/vat.js";

/** The message every refused order starts with: the shopper's next step is to review the cart. */
export const REVIEW_CART_MESSAGE =
  "Some items in your cart have changed or are unavailable. Please review your cart and try again.";

/** A product as create-order needs it, read from the database. */
export interface ProductForOrder {
  id: string;
  name: string;
  priceCents: number;
  sizes: string[];
  /** Each size's price in cents; a size missing here costs `priceCents` (docs/decisions/022-prices-per-size.md). */
  sizePrices: Record<string, number>;
  vatClass: VatClass;
  /** The most of one size an order may take. */
  maxPerOrder: number;
  /** Its multi-buy tiers (src/domain/multibuy.ts); empty: none. */
  multibuyTiers: MultibuyTier[];
  /** Its nappy plan saving in basis points; null: the owner's default (src/domain/plans.ts). */
  planSavingBp?: number | null;
}

/** A cart line as the browser sent it (docs/product.md §7). */
export interface ClientLine {
  id: string;
  name?: string | undefined;
  size: string;
  quantity: number;
  price?: number | string | undefined;
}

export interface ClientFigures {
  subtotal: number;
  deliveryFee: number;
  total: number;
}

/** An order line priced by the server. */
export interface PricedOrderLine {
  productId: string;
  name: string;
  size: string;
  quantity: number;
  unitPriceCents: number;
  /** Its rate is the class's rate on the day the order is placed (place-order.ts). */
  vatClass: VatClass;
  /** Its share of a promo code's discount (src/server/promo/); 0 or absent without one. */
  discountCents?: number;
  /** Its share of its product's multi-buy saving (savings.ts); 0 or absent without one. */
  multibuyDiscountCents?: number;
}

/** An order's figures in cents: the goods, the delivery fee and the total (orderTotals, or a promo's). */
export interface OrderFigures {
  subtotalCents: number;
  deliveryFeeCents: number;
  totalCents: number;
}

export type PricedOrder =
  | {
      ok: true;
      lines: PricedOrderLine[];
      subtotalCents: number;
      deliveryFeeCents: number;
      totalCents: number;
    }
  | { ok: false; message: string; code: "CART_CHANGED" | "LINE_LIMIT" };

/** True when a client's amount in rand (249.99 or "249.99") is within half a cent of `cents`. */
function sameAmount(client: number | string, cents: number): boolean {
  const clientCents = typeof client === "number" ? client * 100 : parseRandToCents(client);
  return clientCents !== null && Number.isFinite(clientCents) && Math.abs(clientCents - cents) <= 0.5;
}

const quoted = (name: string) => `"${name}"`;

const changed = (problems: readonly string[]): PricedOrder => ({
  ok: false,
  code: "CART_CHANGED",
  message: `${REVIEW_CART_MESSAGE} ${problems.join(" ")}`,
});

/**
 * Prices a cart from the database's products: merges duplicate lines of the same product and
 * size, refuses unknown products and sizes (whether there is stock is place-order.ts's question), and refuses when any figure the client shows
 * (a line price, the subtotal, the delivery fee, the total) differs from the server's.
 */
export function priceOrder(
  clientLines: readonly ClientLine[],
  figures: ClientFigures,
  products: readonly ProductForOrder[],
  /** The figures the client must show for these lines: orderTotals, or with a promo code's discount. */
  totalsOf: (lines: PricedOrderLine[]) => OrderFigures = orderTotals,
): PricedOrder {
  const byId = new Map(products.map((product) => [product.id, product]));
  const merged = new Map<string, PricedOrderLine>();
  const problems: string[] = [];
  const note = (problem: string) => {
    if (!problems.includes(problem)) problems.push(problem);
  };

  for (const line of clientLines) {
    const product = byId.get(line.id);
    if (!product) {
      note(`${line.name ? quoted(line.name) : "An item"} is no longer available.`);
      continue;
    }
    const name = quoted(product.name);
    if (!product.sizes.includes(line.size)) {
      note(`${name} is not available in size ${quoted(line.size)}.`);
      continue;
    }
    const unitPriceCents = product.sizePrices[line.size] ?? product.priceCents;
    if (line.price !== undefined && !sameAmount(line.price, unitPriceCents)) {
      note(`The price of ${name} is now ${formatRand(unitPriceCents)} in size ${quoted(line.size)}.`);
    }
    const key = `${product.id}\u0000${line.size}`;
    const existing = merged.get(key);
    if (existing) existing.quantity += line.quantity;
    else
      merged.set(key, {
        productId: product.id,
        name: product.name,
        size: line.size,
        quantity: line.quantity,
        unitPriceCents,
        vatClass: product.vatClass,
      });
  }
  if (problems.length > 0) return changed(problems);

  const lines = [...merged.values()];
  // Merged first, so the same size split over several lines counts as one.
  const overLimit = lines.flatMap((line) => {
    const limit = byId.get(line.productId)?.maxPerOrder ?? 0;
    return line.quantity > limit ? [lineLimitMessage(line.name, line.size, limit)] : [];
  });
  if (overLimit.length > 0) {
    return {
      ok: false,
      code: "LINE_LIMIT",
      message: `${overLimit.join(" ")} Please lower the quantity and try again.`,
    };
  }
  const totals = totalsOf(lines);
  if (!sameAmount(figures.subtotal, totals.subtotalCents)) {
    note(`The subtotal is now ${formatRand(totals.subtotalCents)}.`);
  }
  if (!sameAmount(figures.deliveryFee, totals.deliveryFeeCents)) {
    note(`The delivery fee is now ${formatRand(totals.deliveryFeeCents)}.`);
  }
  if (!sameAmount(figures.total, totals.totalCents)) {
    note(`The total is now ${formatRand(totals.totalCents)}.`);
  }
  if (problems.length > 0) return changed(problems);
  return {
    ok: true,
    lines,
    subtotalCents: totals.subtotalCents,
    deliveryFeeCents: totals.deliveryFeeCents,
    totalCents: totals.totalCents,
  };
}
