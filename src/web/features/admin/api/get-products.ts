import { useQuery } from "@tanstack/react-query";
import type { Product } from "../../../../domain/schemas/catalog";
import { PRODUCTS_KEY } from "../../catalog";

/** GET /api/products: the admin list is the storefront's list, so both stay in step. */
export function useProducts() {
  return useQuery<Product[]>({ queryKey: PRODUCTS_KEY, staleTime: 0 });
}
