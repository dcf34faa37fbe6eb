import { useQuery } from "@tanstack/react-query";
import type { AdminOrder } from "../order-model";
import { PREPARING_ORDERS_KEY } from "./keys";

/** GET /api/admin/orders/preparing: refetched every 30 seconds and on window focus, never cached (docs/product.md §7). */
export function usePreparingOrders() {
  return useQuery<AdminOrder[]>({
    queryKey: PREPARING_ORDERS_KEY,
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
    staleTime: 0,
    gcTime: 0,
  });
}
