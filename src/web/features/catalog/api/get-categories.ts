import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Category } from "#domain/schemas/catalog.js";

export const CATEGORIES_KEY = ["/api/categories"] as const;

/** GET /api/categories (the query key is the URL: app/query-client.ts). */
export const categoriesQueryOptions = () => queryOptions<Category[]>({ queryKey: CATEGORIES_KEY });

export function useCategories() {
  return useQuery(categoriesQueryOptions());
}
