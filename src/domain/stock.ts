import { MAX_LINE_QUANTITY } from "./cart.js";

/**
 * Stock as the public and the cart see it (docs/product.md §10). The server counts units per size;
 * the public sees only whether a size can be sold and, when few are left, how many.
 */

/** At or below this many units left, the storefront says "Only N left" and the stepper stops there. */
export const LOW_STOCK_LIMIT = 5;

export interface PublicStock {
  sizeOutOfStock: Record<string, boolean>;
  outOfStock: boolean;
  sizeLowStock: Record<string, number>;
}

/**
 * What the public may know of a product's stock, from the units each size can still sell
 * (stock minus holds; a size missing from `sellable` has none).
 */
export function publicStock(sizes: readonly string[], sellable: Readonly<Record<string, number>>): PublicStock {
  const sizeOutOfStock: Record<string, boolean> = {};
  const sizeLowStock: Record<string, number> = {};
  for (const size of sizes) {
    const left = Math.max(0, sellable[size] ?? 0);
    if (left === 0) sizeOutOfStock[size] = true;
    else if (left <= LOW_STOCK_LIMIT) sizeLowStock[size] = left;
  }
  return { sizeOutOfStock, outOfStock: sizes.every((size) => sizeOutOfStock[size]), sizeLowStock };
}

/** How many of a size a shopper may put in the cart: what is left when few are, otherwise a cart line's limit. */
export function maxOrderable(product: PublicStock, size: string): number {
  if (product.outOfStock || product.sizeOutOfStock[size]) return 0;
  return product.sizeLowStock[size] ?? MAX_LINE_QUANTITY;
}

/** The product and size as a refusal names them: "Snug & Dry Pull-Up Pants (5)". */
export function productWithSize(name: string, size: string): string {
  return `${name} (${size})`;
}

/** Why one line of an order cannot be held: "Only 2 left of Snug & Dry Pull-Up Pants (5)". */
export function shortLineMessage(name: string, size: string, left: number): string {
  const what = productWithSize(name, size);
  return left > 0 ? `Only ${left} left of ${what}.` : `${what} is sold out.`;
}
