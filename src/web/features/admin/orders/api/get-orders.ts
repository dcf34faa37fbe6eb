import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { AdminOrderPage, OrderFilters } from "#domain/schemas/admin-orders.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

const PAGE_SIZE = 50;

export type { OrderFilters };

/** The query string of `filters` (empty ones left out). */
export function orderFilterParams(filters: OrderFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  return params;
}

export function getOrderPage(filters: OrderFilters, cursor: string | null, limit = PAGE_SIZE) {
  const params = orderFilterParams(filters);
  params.set("limit", String(limit));
  if (cursor) params.set("cursor", cursor);
  return apiGet<AdminOrderPage>(`/api/admin/orders?${params}`);
}

/**
 * GET /api/admin/orders: newest first, 50 at a time; the next page is asked for by cursor as the
 * admin scrolls. Fetched afresh whenever a tab showing it opens.
 */
export function useAdminOrders(filters: OrderFilters) {
  return useInfiniteQuery({
    queryKey: adminKeys.orderPages(filters),
    queryFn: ({ pageParam }) => getOrderPage(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.orders),
    staleTime: 0,
  });
}

/** The newest few orders (the Dashboard's Recent Orders). */
export function useRecentOrders(count: number) {
  return useQuery({
    queryKey: adminKeys.recentOrders(count),
    queryFn: () => getOrderPage({}, null, count),
    select: (page) => page.orders,
    staleTime: 0,
  });
}
