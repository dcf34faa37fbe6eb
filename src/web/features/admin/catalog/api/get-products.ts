import { useQuery } from "@tanstack/react-query";
import type { AdminProduct } from "#domain/schemas/catalog.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

/**
 * GET /api/admin/products: every product with its units in stock and held per size. Fetched
 * afresh whenever a tab showing it opens: checkouts and payments move stock all the time.
 */
export function useAdminProducts() {
  return useQuery({
    queryKey: adminKeys.products(),
    queryFn: () => apiGet<AdminProduct[]>("/api/admin/products"),
    staleTime: 0,
  });
}
