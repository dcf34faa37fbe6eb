import { z } from "zod";
import { ABSORBENCY_LEVELS } from "../absorbency.js";
import {
  CATALOG_CURSOR_MAX,
  CATALOG_PAGE_MAX,
  CATALOG_PAGE_SIZE,
  CATALOG_SEARCH_MAX,
  CATEGORY_QUERY_MAX,
  SIZE_NAME_MAX,
  WEIGHT_KG_MAX,
  WEIGHT_KG_MIN,
  WEIGHT_QUERY_MAX,
} from "../limits.js";
import { weightGramsOf } from "../shop-by-size.js";
import { product } from "./catalog.js";

// The storefront's paged search (docs/decisions/026-pages-that-stay-small.md). A file of its own:
// the browser imports only its types, so these schemas stay out of the first-load bundle.

/** GET /api/products/search: the storefront's filter, paged by keyset. */
export const catalogSearchQuery = z.object({
  /** Part of a product's name or its category's, any case (docs/product.md §9). */
  q: z
    .string()
    .max(CATALOG_SEARCH_MAX, `q must be at most ${CATALOG_SEARCH_MAX} characters`)
    .default("")
    .transform((value) => value.trim()),
  /** A category's name; none: every category. */
  category: z.string().max(CATEGORY_QUERY_MAX, `category must be at most ${CATEGORY_QUERY_MAX} characters`).optional(),
  /**
   * Shop by size (docs/decisions/048-shop-by-size.md): a baby's weight in kg ("7.5"), read as whole
   * grams; a product matches when one of its sizes' weight ranges holds it, both ends included.
   */
  weight: z
    .string()
    .max(WEIGHT_QUERY_MAX, "weight is not valid")
    .transform((value, context) => {
      if (value.trim() === "") return undefined;
      const grams = weightGramsOf(value);
      if (grams === null) {
        context.addIssue({
          code: "custom",
          message: `weight must be a weight in kg from ${WEIGHT_KG_MIN} to ${WEIGHT_KG_MAX}, at most 3 decimals (e.g. 7.5)`,
        });
        return z.NEVER;
      }
      return grams;
    })
    .optional(),
  /** A size's name, exactly as the product lists it ("M", "Super"): products that come in it. */
  size: z
    .string()
    .max(SIZE_NAME_MAX, `size must be at most ${SIZE_NAME_MAX} characters`)
    .transform((value) => value.trim() || undefined)
    .optional(),
  /** At least this absorbency level (1-6, src/domain/absorbency.ts); products without one never match. */
  absorbency: z.coerce
    .number({ message: "absorbency must be a level from 1 to 6" })
    .int("absorbency must be a level from 1 to 6")
    .min(ABSORBENCY_LEVELS[0], "absorbency must be a level from 1 to 6")
    .max(ABSORBENCY_LEVELS[ABSORBENCY_LEVELS.length - 1] ?? 6, "absorbency must be a level from 1 to 6")
    .optional(),
  sort: z.enum(["name", "price", "unit"], { message: "sort must be name, price or unit" }).default("name"),
  order: z.enum(["asc", "desc"], { message: "order must be asc or desc" }).default("asc"),
  /** The previous page's `nextCursor`, as it was given: opaque to clients. */
  cursor: z.string().max(CATALOG_CURSOR_MAX, "cursor is not valid").optional(),
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

/**
 * GET /api/products/size-facets?category=: which "Shop by size" controls a category's products can
 * answer (docs/decisions/048-shop-by-size.md), so the storefront offers only those.
 */
export const sizeFacetsQuery = z.object({
  category: z.string().max(CATEGORY_QUERY_MAX, `category must be at most ${CATEGORY_QUERY_MAX} characters`).optional(),
});
export const sizeFacets = z.object({
  /** Some product has a size with a weight range: the weight box. */
  byWeight: z.boolean(),
  /** The size names of the products not sized by weight, in a menu's order (sortSizeNames). */
  sizeNames: z.array(z.string()),
  /** Some product has an absorbency level: the absorbency menu. */
  byAbsorbency: z.boolean(),
});
export type SizeFacets = z.infer<typeof sizeFacets>;

/** GET /api/products/by-slug/{slug}: a product's own page, with a few others of its category. */
export const productWithRelated = z.object({ product, related: z.array(product) });
export type ProductWithRelated = z.infer<typeof productWithRelated>;
