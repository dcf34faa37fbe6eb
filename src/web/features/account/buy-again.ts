import { type CartLine, lineQuantity } from "#domain/cart.js";
import { DEFAULT_MAX_PER_ORDER, MAX_LINE_QUANTITY } from "#domain/limits.js";
import type { Product } from "#domain/schemas/catalog.js";
import type { OrderItem } from "#domain/schemas/orders.js";
import { maxOrderable, productWithSize } from "#domain/stock.js";
import type { ToastMessage } from "#web/components/ui/toast.js";
import type { CartAddition } from "../cart";

interface Line {
  name: string;
  size: string;
}

export interface BuyAgainPlan {
  /** What goes into the cart, at today's product (price, stock), within what is left of each size. */
  additions: CartAddition[];
  /**
   * Lines that get fewer than were ordered: `left` of the size (null: the product's limit per
   * order, `limit`), `added` of them.
   */
  short: (Line & { left: number | null; added: number; limit: number })[];
  /** Lines whose product or size is gone, or sold out, named as the order names them. */
  unavailable: Line[];
}

/**
 * Buy again: an order's lines from today's catalogue, as the cart `cart` can take them. A line is
 * skipped when its product was deleted (productId null) or is not in the catalogue, when its size
 * no longer exists, or when that size is sold out; it is capped when fewer are left than ordered,
 * counting what the cart already holds.
 */
export function planBuyAgain(
  items: readonly OrderItem[],
  catalogue: readonly Product[],
  cart: readonly Pick<CartLine, "id" | "size" | "quantity">[],
): BuyAgainPlan {
  const plan: BuyAgainPlan = { additions: [], short: [], unavailable: [] };
  for (const item of items) {
    const product = item.productId ? catalogue.find((candidate) => candidate.id === item.productId) : undefined;
    const max = product?.sizes.includes(item.size) ? maxOrderable(product, item.size) : 0;
    if (!product || max === 0) {
      plan.unavailable.push({ name: item.name, size: item.size });
      continue;
    }
    const planned = plan.additions
      .filter((addition) => addition.product.id === product.id && addition.size === item.size)
      .reduce((sum, addition) => sum + addition.quantity, 0);
    const held = lineQuantity(cart, product.id, item.size) + planned;
    const quantity = Math.max(0, Math.min(item.quantity, max - held));
    if (quantity > 0) plan.additions.push({ product, size: item.size, quantity });
    if (quantity < item.quantity) {
      const limit = Math.min(product.maxPerOrder ?? DEFAULT_MAX_PER_ORDER, MAX_LINE_QUANTITY);
      const left = max < limit ? max : null;
      plan.short.push({ name: product.name, size: item.size, left, added: quantity, limit });
    }
  }
  return plan;
}

const units = (count: number) => `${count} ${count === 1 ? "item" : "items"}`;

function shortNote({ name, size, left, added, limit }: BuyAgainPlan["short"][number]): string {
  const what = productWithSize(name, size);
  if (left === null) return `Your cart holds as many of ${what} as one order can take (${limit}).`;
  if (added === 0) return `Only ${left} left of ${what}, and your cart already holds ${left === 1 ? "it" : "them"}.`;
  return `Only ${left} left of ${what}, so we added ${added}.`;
}

/** The toast after Buy again: what was added, what fell short and what is not available any more. */
export function buyAgainToast(plan: BuyAgainPlan): ToastMessage {
  const added = plan.additions.reduce((sum, addition) => sum + addition.quantity, 0);
  const notes = plan.short.map(shortNote);
  if (plan.unavailable.length > 0) {
    const names = plan.unavailable.map((line) => productWithSize(line.name, line.size)).join(", ");
    notes.push(`Not available any more: ${names}.`);
  }
  return {
    title: added > 0 ? `Added ${units(added)} to your cart` : "Nothing was added to your cart",
    description: notes.length > 0 ? notes.join(" ") : undefined,
    variant: added > 0 ? "success" : "error",
  };
}
