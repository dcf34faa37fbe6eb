import { useInfiniteQuery } from "@tanstack/react-query";
import type { AdminOrderPage } from "#domain/schemas/admin-orders.js";
import { apiGet } from "#web/lib/api.js";
import { type OrderFilters, orderFilterParams } from "../../orders";
import { adminKeys } from "../../shared";

export function getPreparingPage(filters: Pick<OrderFilters, "q">, cursor: string | null) {
  const params = orderFilterParams(filters);
  params.set("limit", "50");
  if (cursor) params.set("cursor", cursor);
  return apiGet<AdminOrderPage>(`/api/admin/orders/preparing?${params}`);
}

/**
 * GET /api/admin/orders/preparing: the pending orders, 50 at a time as the admin scrolls;
 * refetched every 30 seconds and on window focus, never cached (docs/product.md §7).
 */
export function usePreparingOrders(filters: Pick<OrderFilters, "q">) {
  return useInfiniteQuery({
    queryKey: adminKeys.preparingOrders(filters),
    queryFn: ({ pageParam }) => getPreparingPage(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.orders),
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
    staleTime: 0,
    gcTime: 0,
  });
}
