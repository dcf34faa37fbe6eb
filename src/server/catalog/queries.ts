import { asc, eq, sql } from "drizzle-orm";
import { centsToDecimal } from "../../domain/money.js";
import type { Category, Product } from "../../domain/schemas/catalog.js";
import type { Database } from "../db/client.js";
import { categories, products } from "../db/schema.js";

export const productColumns = {
  id: products.id,
  name: products.name,
  category: categories.name,
  priceCents: products.priceCents,
  image: products.image,
  description: products.description,
  sizes: products.sizes,
  sizeImages: products.sizeImages,
  sizeOutOfStock: products.sizeOutOfStock,
  outOfStock: products.outOfStock,
  promoText: products.promoText,
};

type ProductRow = {
  id: string;
  name: string;
  category: string;
  priceCents: number;
  image: string;
  description: string;
  sizes: string[];
  sizeImages: Record<string, string>;
  sizeOutOfStock: Record<string, boolean>;
  outOfStock: boolean;
  promoText: string | null;
};

/** The wire shape of docs/product.md §3: price as a string with two decimals. */
export function toProduct(row: ProductRow): Product {
  const { priceCents, ...rest } = row;
  return { ...rest, price: centsToDecimal(priceCents) };
}

export async function listProducts(db: Database): Promise<Product[]> {
  const rows = await db
    .select(productColumns)
    .from(products)
    .innerJoin(categories, eq(products.categoryId, categories.id))
    .orderBy(asc(products.name), asc(products.id));
  return rows.map(toProduct);
}

export async function findProduct(db: Database, id: string): Promise<Product | null> {
  const [row] = await db
    .select(productColumns)
    .from(products)
    .innerJoin(categories, eq(products.categoryId, categories.id))
    .where(eq(products.id, id));
  return row ? toProduct(row) : null;
}

export async function listCategories(db: Database): Promise<Category[]> {
  return db
    .select({ id: categories.id, name: categories.name, description: categories.description })
    .from(categories)
    .orderBy(asc(sql`lower(${categories.name})`));
}
