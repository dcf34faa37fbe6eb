import { useQuery } from "@tanstack/react-query";
import type { AdminCategory } from "#domain/schemas/catalog.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

export type { AdminCategory };

/** GET /api/admin/categories: each with how many products use it. */
export function useAdminCategories() {
  return useQuery({
    queryKey: adminKeys.categories(),
    queryFn: () => apiGet<AdminCategory[]>("/api/admin/categories"),
    staleTime: 0,
  });
}
