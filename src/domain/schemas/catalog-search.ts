import { z } from "zod";
import { product } from "./catalog.js";

// The storefront's paged search (docs/decisions/026-pages-that-stay-small.md). A file of its own:
// the browser imports only its types, so these schemas stay out of the first-load bundle.

/** The storefront's page of products (docs/decisions/026-pages-that-stay-small.md): 48 cards. */
export const CATALOG_PAGE_SIZE = 48;
/** The most products one page may ask for. */
export const CATALOG_PAGE_MAX = 100;
/** The longest search the storefront sends. */
export const CATALOG_SEARCH_MAX = 100;

/** GET /api/products/search: the storefront's filter, paged by keyset. */
export const catalogSearchQuery = z.object({
  /** Part of a product's name or its category's, any case (docs/product.md §9). */
  q: z
    .string()
    .max(CATALOG_SEARCH_MAX, `q must be at most ${CATALOG_SEARCH_MAX} characters`)
    .default("")
    .transform((value) => value.trim()),
  /** A category's name; none: every category. */
  category: z.string().max(100, "category must be at most 100 characters").optional(),
  sort: z.enum(["name", "price", "unit"], { message: "sort must be name, price or unit" }).default("name"),
  order: z.enum(["asc", "desc"], { message: "order must be asc or desc" }).default("asc"),
  /** The previous page's `nextCursor`, as it was given: opaque to clients. */
  cursor: z.string().max(400, "cursor is not valid").optional(),
  limit: z.coerce
    .number({ message: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(CATALOG_PAGE_MAX, `limit must be at most ${CATALOG_PAGE_MAX}`)
    .default(CATALOG_PAGE_SIZE),
});
export type CatalogSearchQuery = z.output<typeof catalogSearchQuery>;

export const catalogPage = z.object({
  products: z.array(product),
  /** How many products match the filter in all (the count line). */
  total: z.number().int(),
  /** Give it back as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type CatalogPage = z.infer<typeof catalogPage>;

/** GET /api/products/by-slug/{slug}: a product's own page, with a few others of its category. */
export const productWithRelated = z.object({ product, related: z.array(product) });
export type ProductWithRelated = z.infer<typeof productWithRelated>;
