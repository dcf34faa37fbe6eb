import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Product } from "#domain/schemas/catalog.js";

export const PRODUCTS_KEY = ["/api/products"] as const;

/** GET /api/products (the query key is the URL: app/query-client.ts). */
export const productsQueryOptions = () => queryOptions<Product[]>({ queryKey: PRODUCTS_KEY });

export function useProducts() {
  return useQuery(productsQueryOptions());
}
