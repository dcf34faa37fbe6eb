import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { type CatalogSearchParams, catalogSearchPath } from "../../../../domain/catalog";
import type { CatalogPage } from "../../../../domain/schemas/catalog";
import { apiGet } from "../../../lib/api";
import { PRODUCTS_KEY } from "./get-products";

/**
 * The storefront's products for a filter, a page of 48 at a time from GET /api/products/search
 * (docs/decisions/026-pages-that-stay-small.md). Under PRODUCTS_KEY, so whatever refreshes the
 * catalogue (an admin's change, an order's stock) refreshes these too. A server-rendered page
 * brings the first page (src/server/pages/routes.ts builds the same key).
 */
export const searchProductsOptions = (params: CatalogSearchParams) =>
  infiniteQueryOptions({
    queryKey: [...PRODUCTS_KEY, "search", params] as const,
    queryFn: ({ pageParam }) => apiGet<CatalogPage>(catalogSearchPath(params, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The previous filter's products stay on screen while the next filter's arrive. */
export function useSearchProducts(params: CatalogSearchParams) {
  return useInfiniteQuery({ ...searchProductsOptions(params), placeholderData: keepPreviousData });
}
