import { and, eq, like, ne, or, sql } from "drizzle-orm";
import { slugify, uniqueSlug } from "#domain/slug.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { inTurn } from "../platform/db/in-turn.js";
import { productSlugRedirects, products } from "../platform/db/schema.js";

/** One slug is chosen at a time (a transaction-level advisory lock), so two products never race for one. */
const SLUG_LOCK = sql`select pg_advisory_xact_lock(hashtext('product-slug'))`;

/**
 * A free slug for `name`: neither another product's slug nor another product's old one (its old
 * links must keep leading to it). `productId`'s own current and old slugs count as free.
 */
async function freeSlug(tx: Transaction, name: string, productId?: string): Promise<string> {
  await tx.execute(SLUG_LOCK);
  const base = slugify(name);
  const near = (column: typeof products.slug | typeof productSlugRedirects.slug) =>
    or(eq(column, base), like(column, `${base}-%`));
  const [current, old] = await inTurn(
    () =>
      tx
        .select({ slug: products.slug })
        .from(products)
        .where(and(near(products.slug), productId ? ne(products.id, productId) : undefined)),
    () =>
      tx
        .select({ slug: productSlugRedirects.slug })
        .from(productSlugRedirects)
        .where(
          and(near(productSlugRedirects.slug), productId ? ne(productSlugRedirects.productId, productId) : undefined),
        ),
  );
  return uniqueSlug(base, new Set([...current, ...old].map((row) => row.slug)));
}

/** The slug of a product being created. */
export function slugForNewProduct(tx: Transaction, name: string): Promise<string> {
  return freeSlug(tx, name);
}

/**
 * The slug of a product after an edit: unchanged unless the name now makes another one. The old
 * slug is kept as a redirect; a product given back one of its old slugs no longer redirects it.
 * Null when the product does not exist.
 */
export async function slugAfterRename(tx: Transaction, productId: string, name: string): Promise<string | null> {
  const [row] = await tx.select({ slug: products.slug }).from(products).where(eq(products.id, productId)).for("update");
  if (!row) return null;
  const base = slugify(name);
  if (row.slug === base || new RegExp(`^${base}-\\d+$`).test(row.slug)) return row.slug;
  const slug = await freeSlug(tx, name, productId);
  await tx.delete(productSlugRedirects).where(eq(productSlugRedirects.slug, slug));
  await tx
    .insert(productSlugRedirects)
    .values({ slug: row.slug, productId })
    .onConflictDoUpdate({ target: productSlugRedirects.slug, set: { productId } });
  return slug;
}

/** Where an old slug leads now: the product's current slug, or null. */
export async function redirectedSlug(db: Database, slug: string): Promise<string | null> {
  const [row] = await db
    .select({ slug: products.slug })
    .from(productSlugRedirects)
    .innerJoin(products, eq(products.id, productSlugRedirects.productId))
    .where(eq(productSlugRedirects.slug, slug));
  return row?.slug ?? null;
}
