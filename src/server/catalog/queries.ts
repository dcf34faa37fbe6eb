import { asc, eq, type SQL, sql } from "drizzle-orm";
import { centsToDecimal } from "#domain/money.js";
import type { MultibuyTier } from "#domain/multibuy.js";
import { bestTierPerUnitText, tiersText } from "#domain/multibuy-tiers.js";
import { planSavingBp } from "#domain/plans.js";
import type { AdminProduct, Category, Product } from "#domain/schemas/catalog.js";
import type { FitMeasure, FitRange } from "#domain/size-fit.js";
import { LOW_STOCK_LIMIT, publicStock } from "#domain/stock.js";
import type { Database } from "../platform/db/client.js";
import { categories, productStock, products } from "../platform/db/schema.js";

/**
 * Per size, a figure from the product's stock rows as a JSON object ({} when it has none). The
 * public query asks for what can be sold, capped just above the low-stock limit, so no exact
 * count above it ever leaves the database.
 */
const perSize = (value: SQL) =>
  sql<Record<string, number>>`coalesce((
    select jsonb_object_agg(${productStock.size}, ${value}) from ${productStock}
    where ${productStock.productId} = ${products.id}
  ), '{}'::jsonb)`;

export const productColumns = {
  id: products.id,
  name: products.name,
  slug: products.slug,
  category: categories.name,
  priceCents: products.priceCents,
  image: products.image,
  description: products.description,
  sizes: products.sizes,
  sizeImages: products.sizeImages,
  sizePrices: products.sizePrices,
  sizePackCounts: products.sizePackCounts,
  packUnit: products.packUnit,
  promoText: products.promoText,
  maxPerOrder: products.maxPerOrder,
  multibuyTiers: products.multibuyTiers,
  planSavingBp: products.planSavingBp,
  absorbency: products.absorbency,
  fitMeasure: products.fitMeasure,
  sizeFits: products.sizeFits,
  sellable: perSize(sql`least(${productStock.quantity} - ${productStock.held}, ${LOW_STOCK_LIMIT + 1})`),
};

const adminProductColumns = {
  ...productColumns,
  vatClass: products.vatClass,
  sellable: perSize(sql`${productStock.quantity} - ${productStock.held}`),
  stock: perSize(sql`${productStock.quantity}`),
  held: perSize(sql`${productStock.held}`),
  sizeParcels: products.sizeParcels,
};

type ProductRow = {
  id: string;
  name: string;
  slug: string;
  category: string;
  priceCents: number;
  image: string;
  description: string;
  sizes: string[];
  sizeImages: Record<string, string>;
  sizePrices: Record<string, number>;
  sizePackCounts: Record<string, number>;
  packUnit: string | null;
  promoText: string | null;
  maxPerOrder: number;
  multibuyTiers: MultibuyTier[];
  planSavingBp: number | null;
  absorbency: number | null;
  fitMeasure: FitMeasure | null;
  sizeFits: Record<string, FitRange>;
  sellable: Record<string, number>;
};

/**
 * The wire shape of docs/product.md §3: price as a string with two decimals, stock as the public
 * may see it; every size's price (a size the row has none for costs the product's price) and the
 * pack counts of the sizes that have one.
 */
export function toProduct(row: ProductRow): Product {
  const { priceCents, sellable, sizePrices, sizePackCounts, sizeFits, planSavingBp: ownSavingBp, ...rest } = row;
  const product = {
    ...rest,
    planSavingBp: planSavingBp(ownSavingBp),
    price: centsToDecimal(priceCents),
    sizePrices: Object.fromEntries(row.sizes.map((size) => [size, centsToDecimal(sizePrices[size] ?? priceCents)])),
    sizePackCounts: Object.fromEntries(
      row.sizes.flatMap((size) => (sizePackCounts[size] ? [[size, sizePackCounts[size]]] : [])),
    ),
    sizeFits: Object.fromEntries(row.sizes.flatMap((size) => (sizeFits[size] ? [[size, sizeFits[size]]] : []))),
    ...publicStock(row.sizes, sellable),
  };
  const tiers = tiersText(product);
  if (!tiers) return { ...product, multibuyNote: null };
  const perUnit = bestTierPerUnitText(product);
  const line = `Multi-buy: ${tiers}${perUnit ? ` (${perUnit})` : ""}`;
  return { ...product, multibuyNote: { tiers, perUnit, line } };
}

/** Every size gets a figure, 0 when it has no stock row. */
function bySize(sizes: readonly string[], figures: Record<string, number>): Record<string, number> {
  return Object.fromEntries(sizes.map((size) => [size, figures[size] ?? 0]));
}

function selectProducts(db: Database) {
  return db.select(productColumns).from(products).innerJoin(categories, eq(products.categoryId, categories.id));
}

export async function listProducts(db: Database): Promise<Product[]> {
  const rows = await selectProducts(db).orderBy(asc(products.name), asc(products.id));
  return rows.map(toProduct);
}

export async function findProduct(db: Database, id: string): Promise<Product | null> {
  const [row] = await selectProducts(db).where(eq(products.id, id));
  return row ? toProduct(row) : null;
}

/** Products as the admin sees them: the public fields plus units in stock and held, per size. */
export async function listAdminProducts(db: Database, id?: string): Promise<AdminProduct[]> {
  const rows = await db
    .select(adminProductColumns)
    .from(products)
    .innerJoin(categories, eq(products.categoryId, categories.id))
    .where(id ? eq(products.id, id) : undefined)
    .orderBy(asc(products.name), asc(products.id));
  return rows.map(({ vatClass, sizeParcels, ...row }) => ({
    ...toProduct(row),
    vatClass,
    sizeParcels: Object.fromEntries(
      row.sizes.flatMap((size) => (sizeParcels[size] ? [[size, sizeParcels[size]]] : [])),
    ),
    planSavingOwnBp: row.planSavingBp,
    stock: bySize(row.sizes, row.stock),
    held: bySize(row.sizes, row.held),
  }));
}

export async function listCategories(db: Database): Promise<Category[]> {
  return db
    .select({ id: categories.id, name: categories.name, description: categories.description })
    .from(categories)
    .orderBy(asc(sql`lower(${categories.name})`));
}
