import { LOW_STOCK_LIMIT } from "#domain/stock.js";

/** What the admin's stock views read of a product. */
type StockedProduct = {
  id: string;
  name: string;
  sizes: string[];
  stock: Record<string, number>;
  held: Record<string, number>;
};

export type StockLevel = "sold-out" | "low" | "in-stock";

export interface SizeStock {
  size: string;
  /** Units not yet sold, held ones included: what the form edits. */
  stock: number;
  /** Units unpaid orders hold. */
  held: number;
  /** Units that can still be sold: stock minus held, never below 0. */
  left: number;
  level: StockLevel;
}

export function stockLevel(left: number): StockLevel {
  if (left <= 0) return "sold-out";
  return left <= LOW_STOCK_LIMIT ? "low" : "in-stock";
}

/** One size's units; a size missing from the maps has none. */
export function sizeStock(product: StockedProduct, size: string): SizeStock {
  const stock = Math.max(0, product.stock[size] ?? 0);
  const held = Math.max(0, product.held[size] ?? 0);
  const left = Math.max(0, stock - held);
  return { size, stock, held, left, level: stockLevel(left) };
}

/** Every size of a product in its own order. */
export function productStock(product: StockedProduct): SizeStock[] {
  return product.sizes.map((size) => sizeStock(product, size));
}

/** How a size's units read in a list: "12", "Only 3", "Sold out". */
export function leftText({ left, level }: Pick<SizeStock, "left" | "level">): string {
  if (level === "sold-out") return "Sold out";
  return level === "low" ? `Only ${left}` : String(left);
}

/** "2 held by unpaid orders", or null when none are. */
export function heldText(held: number): string | null {
  if (held <= 0) return null;
  return `${held} held by unpaid ${held === 1 ? "order" : "orders"}`;
}
