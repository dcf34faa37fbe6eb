import { useQuery } from "@tanstack/react-query";
import type { AdminCategory } from "../../../../../domain/schemas/catalog";
import { ADMIN_CATEGORIES_KEY } from "../../shared";

export type { AdminCategory };

/** GET /api/admin/categories: each with how many products use it. */
export function useAdminCategories() {
  return useQuery<AdminCategory[]>({ queryKey: ADMIN_CATEGORIES_KEY, staleTime: 0 });
}
