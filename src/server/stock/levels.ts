import { and, eq, notInArray, sql } from "drizzle-orm";
import { productWithSize } from "#domain/stock.js";
import type { Transaction } from "../platform/db/client.js";
import { productStock } from "../platform/db/schema.js";
import { conflict } from "../platform/errors.js";

/**
 * Sets a product's stock rows to its sizes, from the admin's form: the sizes it names get the
 * quantity given (a size not named keeps what it has, or starts at 0 when new), and sizes the
 * product no longer has lose their row (with any holds on them: those orders are paid or expire
 * without counting it). A quantity below what unpaid orders hold is refused with the number: a
 * hold is a promise to a shopper who is paying now.
 */
export async function setStockLevels(
  tx: Transaction,
  productId: string,
  product: { name: string; sizes: readonly string[] },
  stock: Readonly<Record<string, number>>,
): Promise<void> {
  const { sizes } = product;
  // Every row of the product, locked in place-order.ts's order before any change.
  const rows = await tx
    .select({ size: productStock.size, held: productStock.held })
    .from(productStock)
    .where(eq(productStock.productId, productId))
    .orderBy(productStock.size)
    .for("update");
  for (const { size, held } of rows) {
    const quantity = stock[size];
    if (sizes.includes(size) && quantity !== undefined && quantity < held) {
      throw conflict(
        `${held} of ${productWithSize(product.name, size)} are held by unpaid orders, so its stock cannot be set below ${held}.`,
        "STOCK_HELD",
      );
    }
  }
  await tx
    .delete(productStock)
    .where(and(eq(productStock.productId, productId), notInArray(productStock.size, [...sizes])));
  const named = sizes.filter((size) => stock[size] !== undefined);
  if (named.length > 0) {
    await tx
      .insert(productStock)
      .values(named.map((size) => ({ productId, size, quantity: stock[size] as number })))
      .onConflictDoUpdate({
        target: [productStock.productId, productStock.size],
        set: { quantity: sql`excluded.quantity` },
      });
  }
  // A new size the form gave no quantity starts with none; an existing one keeps what it has.
  await tx
    .insert(productStock)
    .values(sizes.map((size) => ({ productId, size, quantity: 0 })))
    .onConflictDoNothing();
}
