import { useQuery } from "@tanstack/react-query";
import type { AdminOrder } from "../order-model";
import { ADMIN_ORDERS_KEY } from "./keys";

/** GET /api/admin/orders: every order, newest first; fetched afresh whenever a tab showing it opens. */
export function useAdminOrders() {
  return useQuery<AdminOrder[]>({ queryKey: ADMIN_ORDERS_KEY, staleTime: 0 });
}
