import { MAX_LINE_QUANTITY } from "./limits.js";
import { parseRandToCents } from "./money.js";
import { sizePrice } from "./packs.js";
import type { Product } from "./schemas/catalog.js";

/** A cart line: the product's fields plus the chosen size and quantity; keyed by product id + size; `price` is the size's. */
export interface CartLine extends Product {
  size: string;
  quantity: number;
}

export function cartKey(userId: string | null | undefined): string {
  return userId ? `cart_${userId}` : "cart_guest";
}

/** A line's quantity never passes `max` (what is left of the size) nor a cart line's limit. */
const capQuantity = (quantity: number, max: number) => Math.min(quantity, max, MAX_LINE_QUANTITY);

/** The key an earlier version stored the cart under; moved once to the current key. */
export const LEGACY_CART_KEY = "nappiesCart";

export function isCartLine(value: unknown): value is CartLine {
  if (typeof value !== "object" || value === null) return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.id === "string" &&
    typeof line.name === "string" &&
    typeof line.size === "string" &&
    typeof line.price === "string" &&
    parseRandToCents(line.price) !== null &&
    typeof line.quantity === "number" &&
    Number.isInteger(line.quantity) &&
    line.quantity > 0
  );
}

export function isCart(value: unknown): value is CartLine[] {
  return Array.isArray(value) && value.every(isCartLine);
}

const sameLine = (a: { id: string; size: string }, b: { id: string; size: string }) =>
  a.id === b.id && a.size === b.size;

/**
 * Adding merges the quantity into an existing line of the same product and size; the merged
 * line is capped at `max` (what is left of that size: maxOrderable in stock.ts) and at
 * MAX_LINE_QUANTITY like a single one. Adding nothing (0 or less), or to a size with nothing
 * left, changes nothing.
 */
export function addLine(
  cart: readonly CartLine[],
  product: Product,
  size: string,
  quantity: number,
  max: number = MAX_LINE_QUANTITY,
): CartLine[] {
  if (!(quantity > 0) || !(max > 0)) return [...cart];
  const existing = cart.find((line) => sameLine(line, { id: product.id, size }));
  if (existing) {
    return cart.map((line) =>
      line === existing ? { ...line, quantity: capQuantity(line.quantity + quantity, max) } : line,
    );
  }
  // The line costs its size's price (docs/decisions/022-prices-per-size.md), not the product's "from" price.
  return [...cart, { ...product, price: sizePrice(product, size), size, quantity: capQuantity(quantity, max) }];
}

/**
 * A quantity of 0 or less removes the line; more than `max` (what is left of the size) or
 * MAX_LINE_QUANTITY sets that maximum. A line only leaves the cart when asked to: a `max` below 1
 * (the size sold out meanwhile) keeps it at 1, for the shopper to remove.
 */
export function setLineQuantity(
  cart: readonly CartLine[],
  id: string,
  size: string,
  quantity: number,
  max: number = MAX_LINE_QUANTITY,
): CartLine[] {
  if (quantity <= 0) return cart.filter((line) => !sameLine(line, { id, size }));
  const capped = Math.max(1, capQuantity(quantity, max));
  return cart.map((line) => (sameLine(line, { id, size }) ? { ...line, quantity: capped } : line));
}

/** How many of a product and size the cart holds (0 when it holds none). */
export function lineQuantity(
  cart: readonly Pick<CartLine, "id" | "size" | "quantity">[],
  id: string,
  size: string,
): number {
  return cart.find((line) => sameLine(line, { id, size }))?.quantity ?? 0;
}

export function removeLine(cart: readonly CartLine[], id: string, size: string): CartLine[] {
  return cart.filter((line) => !sameLine(line, { id, size }));
}

export function cartCount(cart: readonly CartLine[]): number {
  return cart.reduce((sum, line) => sum + line.quantity, 0);
}

export function cartSubtotalCents(cart: readonly CartLine[]): number {
  return cart.reduce((sum, line) => sum + (parseRandToCents(line.price) ?? 0) * line.quantity, 0);
}

/** Why a product and size cannot be added, in the words of docs/product.md §5, or null when it can. */
export function addToCartProblem(product: Product, size: string | null | undefined): string | null {
  if (product.outOfStock) return "This product is currently out of stock";
  if (!size) return "Please select a size before adding to cart";
  if (product.sizeOutOfStock[size]) return `${size} size is currently out of stock`;
  return null;
}
