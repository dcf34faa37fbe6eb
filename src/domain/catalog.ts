import { parseRandToCents } from "./money.js";
import { lowestPerUnitCents, type SizedPrices } from "./packs.js";

export const CATEGORY_BADGES: Record<string, string> = {
  baby: "Baby",
  kids: "Kids",
  adult: "Adult",
  pads: "Period",
};

export function categoryBadge(category: string): string {
  return CATEGORY_BADGES[category] ?? "Product";
}

/** The footer's category shortcuts, in the spec's words (docs/product.md §2: Sanitary selects pads). */
export const CATEGORY_SHORTCUTS = [
  { label: "Adult", category: "adult" },
  { label: "Baby", category: "baby" },
  { label: "Sanitary", category: "pads" },
  { label: "Extras", category: "extras" },
] as const;

/** "unit": the lowest price per unit (nappy, pad, wipe) of any size; products without pack counts last. */
export type SortBy = "name" | "price" | "unit";
export type SortOrder = "asc" | "desc";

export interface ListableProduct extends Omit<SizedPrices, "sizes"> {
  name: string;
  category: string;
  sizes?: string[];
}

export interface CatalogFilter {
  search: string;
  category: string | null;
  sortBy: SortBy;
  order: SortOrder;
  /** Shop by size (src/domain/shop-by-size.ts): a baby's weight in grams; null: any. */
  weightGrams: number | null;
  /** A size's name ("M"); null: any. */
  size: string | null;
  /** At least this absorbency level (1-6); null: any. */
  absorbency: number | null;
}

export const DEFAULT_FILTER: CatalogFilter = {
  search: "",
  category: null,
  sortBy: "name",
  order: "asc",
  weightGrams: null,
  size: null,
  absorbency: null,
};

/** What the storefront asks the server for (GET /api/products/search): the filter, search trimmed. */
export interface CatalogSearchParams {
  q: string;
  category: string | null;
  sort: SortBy;
  order: SortOrder;
  /** A weight a size's range must hold, in grams; null: any. */
  weightGrams: number | null;
  size: string | null;
  absorbency: number | null;
}

export function searchParamsOf(filter: CatalogFilter): CatalogSearchParams {
  return {
    q: filter.search.trim(),
    category: filter.category,
    sort: filter.sortBy,
    order: filter.order,
    weightGrams: filter.weightGrams,
    size: filter.size,
    absorbency: filter.absorbency,
  };
}

/** The address of a page of a search: /api/products/search?q=...&weight=7.5&sort=name&order=asc[&cursor=...]. */
export function catalogSearchPath(params: CatalogSearchParams, cursor: string | null): string {
  const query = new URLSearchParams();
  if (params.q) query.set("q", params.q);
  if (params.category !== null) query.set("category", params.category);
  // In kg: whole grams over 1000 print exactly ("7.5", "12.345").
  if (params.weightGrams !== null) query.set("weight", String(params.weightGrams / 1000));
  if (params.size !== null) query.set("size", params.size);
  if (params.absorbency !== null) query.set("absorbency", String(params.absorbency));
  query.set("sort", params.sort);
  query.set("order", params.order);
  if (cursor) query.set("cursor", cursor);
  return `/api/products/search?${query.toString()}`;
}

/** Search matches name or category, case-insensitively; default sort is name ascending (locale compare). */
export function filterAndSortProducts<T extends ListableProduct>(products: readonly T[], filter: CatalogFilter): T[] {
  const needle = filter.search.trim().toLowerCase();
  const matching = products.filter((product) => {
    if (filter.category && product.category !== filter.category) return false;
    if (!needle) return true;
    return product.name.toLowerCase().includes(needle) || product.category.toLowerCase().includes(needle);
  });
  const direction = filter.order === "asc" ? 1 : -1;
  return matching.sort((a, b) => {
    if (filter.sortBy === "unit") {
      const [unitA, unitB] = [unitCents(a), unitCents(b)];
      if (unitA === null || unitB === null)
        return (unitA === null ? 1 : 0) - (unitB === null ? 1 : 0) || a.name.localeCompare(b.name);
      return (unitA - unitB) * direction || a.name.localeCompare(b.name);
    }
    const byKey = filter.sortBy === "price" ? priceCents(a) - priceCents(b) : a.name.localeCompare(b.name);
    return byKey * direction || a.name.localeCompare(b.name);
  });
}

const unitCents = (product: ListableProduct) => lowestPerUnitCents({ ...product, sizes: product.sizes ?? [] });

function priceCents(product: ListableProduct): number {
  return parseRandToCents(product.price) ?? 0;
}

/** A product's address (docs/decisions/012-server-rendering.md). */
export function productPath(slug: string): string {
  return `/products/${encodeURIComponent(slug)}`;
}

/** A category's address: the storefront showing that category. */
export function categoryPath(category: string): string {
  return `/category/${encodeURIComponent(category)}`;
}

/** The category of a category address, or null: "/category/baby" -> "baby". */
export function categoryOfPath(pathname: string): string | null {
  const match = /^\/category\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]).toLowerCase();
  } catch {
    return null;
  }
}

/** The heading and title of a category's address: "Period products". */
export function categoryTitle(category: string): string {
  const label = CATEGORY_BADGES[category] ?? category.charAt(0).toUpperCase() + category.slice(1);
  return `${label} products`;
}
