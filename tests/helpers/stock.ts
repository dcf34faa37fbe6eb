import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "#server/platform/db/client.js";
import { productStock, products } from "#server/platform/db/schema.js";

/** A product row with what each size can sell now (stock minus holds). */
export type StockedProduct = typeof products.$inferSelect & { sellable: Record<string, number> };

/** The catalogue straight from the database, by name, with each size's sellable units. */
export async function stockedCatalog(db: Database): Promise<StockedProduct[]> {
  const rows = await db.select().from(products).orderBy(asc(products.name));
  const stock = await db.select().from(productStock);
  return rows.map((row) => ({
    ...row,
    sellable: Object.fromEntries(
      stock.filter((line) => line.productId === row.id).map((line) => [line.size, line.quantity - line.held]),
    ),
  }));
}

export const inStockSizes = (product: StockedProduct) =>
  product.sizes.filter((size) => (product.sellable[size] ?? 0) > 0);

/** Sets a size's units in stock (and clears nothing else), as an admin's stock count would. */
export async function setStock(db: Database, productId: string, size: string, quantity: number): Promise<void> {
  await db
    .insert(productStock)
    .values({ productId, size, quantity })
    .onConflictDoUpdate({ target: [productStock.productId, productStock.size], set: { quantity } });
}

/** A size's stock row: units in stock and units held. */
export async function stockOf(db: Database, productId: string, size: string) {
  const [row] = await db
    .select({ quantity: productStock.quantity, held: productStock.held })
    .from(productStock)
    .where(sql`${productStock.productId} = ${productId} and ${productStock.size} = ${size}`);
  return row ?? null;
}

/** Every stock row of a product, by size. */
export async function stockRowsOf(db: Database, productId: string) {
  return db.select().from(productStock).where(eq(productStock.productId, productId)).orderBy(productStock.size);
}

/** What a size of a product costs in cents: its own price, or the product's (docs/decisions/022-prices-per-size.md). */
export const sizePriceCents = (product: Pick<StockedProduct, "priceCents" | "sizePrices">, size: string): number =>
  product.sizePrices[size] ?? product.priceCents;
