import { parseRandToCents } from "./money.js";
import type { Product } from "./schemas/catalog.js";

/** A cart line: the product's fields plus the chosen size and quantity; keyed by product id + size. */
export interface CartLine extends Product {
  size: string;
  quantity: number;
}

export function cartKey(userId: string | null | undefined): string {
  return userId ? `cart_${userId}` : "cart_guest";
}

/**
 * The most of one product and size a cart line holds: what create-order takes per line
 * (`orderLineInput`'s quantity, src/domain/schemas/orders.ts). Adding more, in one go or by
 * adding the same product and size again, stops at this many.
 */
export const MAX_LINE_QUANTITY = 999;

const capQuantity = (quantity: number) => Math.min(quantity, MAX_LINE_QUANTITY);

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
 * line is capped at MAX_LINE_QUANTITY like a single one. Adding nothing (0 or less) changes nothing.
 */
export function addLine(cart: readonly CartLine[], product: Product, size: string, quantity: number): CartLine[] {
  if (!(quantity > 0)) return [...cart];
  const existing = cart.find((line) => sameLine(line, { id: product.id, size }));
  if (existing) {
    return cart.map((line) =>
      line === existing ? { ...line, quantity: capQuantity(line.quantity + quantity) } : line,
    );
  }
  return [...cart, { ...product, size, quantity: capQuantity(quantity) }];
}

/** A quantity of 0 or less removes the line; more than MAX_LINE_QUANTITY sets the maximum. */
export function setLineQuantity(cart: readonly CartLine[], id: string, size: string, quantity: number): CartLine[] {
  if (quantity <= 0) return cart.filter((line) => !sameLine(line, { id, size }));
  return cart.map((line) => (sameLine(line, { id, size }) ? { ...line, quantity: capQuantity(quantity) } : line));
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
