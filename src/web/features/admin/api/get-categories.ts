import { useQuery } from "@tanstack/react-query";
import type { Category } from "../../../../domain/schemas/catalog";
import { ADMIN_CATEGORIES_KEY } from "./keys";

/** A category in the admin list: with how many products use it. */
export interface AdminCategory extends Category {
  productCount: number;
}

/** GET /api/admin/categories */
export function useAdminCategories() {
  return useQuery<AdminCategory[]>({ queryKey: ADMIN_CATEGORIES_KEY, staleTime: 0 });
}
