import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { SizeFacets } from "#domain/schemas/catalog-search.js";
import { apiGet } from "#web/lib/api.js";
import { PRODUCTS_KEY } from "./get-products";

/**
 * GET /api/products/size-facets: which "Shop by size" controls a category's products can answer
 * (docs/decisions/048-shop-by-size.md). Under PRODUCTS_KEY, so an admin's change refreshes it.
 */
export const sizeFacetsOptions = (category: string | null) =>
  queryOptions<SizeFacets>({
    queryKey: [...PRODUCTS_KEY, "size-facets", category],
    queryFn: () =>
      apiGet<SizeFacets>(
        `/api/products/size-facets${category === null ? "" : `?category=${encodeURIComponent(category)}`}`,
      ),
  });

/** The previous category's controls stay while the next one's arrive. */
export function useSizeFacets(category: string | null) {
  return useQuery({ ...sizeFacetsOptions(category), placeholderData: keepPreviousData });
}
