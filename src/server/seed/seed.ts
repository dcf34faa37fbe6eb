import { sql } from "drizzle-orm";
import { parseRandToCents } from "#domain/money.js";
import { slugify, uniqueSlug } from "#domain/slug.js";
import type { Database } from "../platform/db/client.js";
import { categories, productStock, products } from "../platform/db/schema.js";
import {
  SEED_STOCK,
  seedAbsorbency,
  seedCategories,
  seedMultibuyTiers,
  seedPackColumns,
  seedProducts,
} from "./seed-data.js";
import { seedParcelColumns } from "./seed-parcels.js";
import { seedSizeFitColumns } from "./seed-size-fits.js";

/**
 * Seeds the catalogue on an empty database only: once any category or product exists
 * (seeded or made by an admin), it never touches the data again.
 */
export async function seedCatalog(db: Database): Promise<{ seeded: boolean }> {
  return db.transaction(async (tx) => {
    // Two instances starting together: only one seeds.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('shop:seed'))`);
    const [existing] = await tx.select({ count: sql<number>`count(*)::int` }).from(categories);
    const [existingProducts] = await tx.select({ count: sql<number>`count(*)::int` }).from(products);
    if ((existing?.count ?? 0) > 0 || (existingProducts?.count ?? 0) > 0) return { seeded: false };

    const inserted = await tx
      .insert(categories)
      .values(seedCategories.map((category) => ({ name: category.name, description: category.description })))
      .returning({ id: categories.id, name: categories.name });
    const categoryIds = new Map(inserted.map((row) => [row.name, row.id]));

    const slugs = new Set<string>();
    const created = await tx
      .insert(products)
      .values(
        seedProducts.map((product) => {
          const slug = uniqueSlug(slugify(product.name), slugs);
          slugs.add(slug);
          const categoryId = categoryIds.get(product.category);
          const packs = seedPackColumns(product.name);
          const priceCents = packs ? Math.min(...Object.values(packs.sizePrices)) : parseRandToCents(product.price);
          if (!categoryId || priceCents === null) throw new Error(`Bad seed product: ${product.name}`);
          return {
            name: product.name,
            slug,
            categoryId,
            priceCents,
            ...packs,
            ...seedSizeFitColumns(product.name),
            ...seedParcelColumns(product),
            image: product.image,
            description: product.description,
            sizes: product.sizes,
            sizeImages: product.sizeImages,
            promoText: product.promoText,
            vatClass: product.vatClass ?? "standard",
            multibuyTiers: seedMultibuyTiers[product.name] ?? [],
            absorbency: seedAbsorbency[product.name] ?? null,
          };
        }),
      )
      .returning({ id: products.id, name: products.name });
    const productIds = new Map(created.map((row) => [row.name, row.id]));
    await tx.insert(productStock).values(
      seedProducts.flatMap((product) =>
        product.sizes.map((size) => ({
          productId: productIds.get(product.name) as string,
          size,
          quantity: product.stock[size] ?? SEED_STOCK,
        })),
      ),
    );
    return { seeded: true };
  });
}
