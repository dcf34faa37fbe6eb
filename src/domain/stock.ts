import { DEFAULT_MAX_PER_ORDER, MAX_LINE_QUANTITY } from "./limits.js";

/**
 * Stock as the public and the cart see it (docs/product.md §10). The server counts units per size;
 * the public sees only whether a size can be sold and, when few are left, how many.
 */

/**
 * What an order did to stock: "held" its lines (unpaid), "sold" them (paid), "released" them
 * (cancelled), "short" (paid after being cancelled when the stock was gone: the admin sees it),
 * "none" (placed before stock was counted), or "returned" (a refund put its units back on the shelf).
 */
export const ORDER_STOCK_STATES = ["held", "sold", "released", "short", "none", "returned"] as const;
export type OrderStockState = (typeof ORDER_STOCK_STATES)[number];

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

/**
 * How many of a size a shopper may put in the cart: what is left when few are, otherwise the
 * product's limit per order (a cart saved before products had one falls back to the default).
 */
export function maxOrderable(product: PublicStock & { maxPerOrder?: number }, size: string): number {
  if (product.outOfStock || product.sizeOutOfStock[size]) return 0;
  const limit = Math.min(product.maxPerOrder ?? DEFAULT_MAX_PER_ORDER, MAX_LINE_QUANTITY);
  return Math.min(product.sizeLowStock[size] ?? limit, limit);
}

/** The product and size as a refusal names them: "Snug & Dry Pull-Up Pants (5)". */
export function productWithSize(name: string, size: string): string {
  return `${name} (${size})`;
}

/**
 * Why one line of an order cannot be held: "Only 2 left of Snug & Dry Pull-Up Pants (5)". Above
 * LOW_STOCK_LIMIT it says "Only a few left": a refusal never tells more than the shop shows.
 */
export function shortLineMessage(name: string, size: string, left: number): string {
  const what = productWithSize(name, size);
  if (left <= 0) return `${what} is sold out.`;
  return left <= LOW_STOCK_LIMIT ? `Only ${left} left of ${what}.` : `Only a few left of ${what}.`;
}

/** Why a line asks for more than one order may take: "You can order at most 20 of ... per order." */
export function lineLimitMessage(name: string, size: string, limit: number): string {
  return `You can order at most ${limit} of ${productWithSize(name, size)} per order.`;
}
