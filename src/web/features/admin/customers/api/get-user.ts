import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { Customer, CustomerOrderPage } from "#domain/schemas/customers.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

/** GET /api/admin/users/{id}: one customer with their order count and spend. */
export function useAdminUser(id: string) {
  return useQuery({
    queryKey: adminKeys.user(id),
    queryFn: () => apiGet<Customer>(`/api/admin/users/${id}`),
    staleTime: 0,
  });
}

/** GET /api/admin/users/{id}/orders?cursor=: the customer's orders, newest first, 20 at a time. */
export function useAdminUserOrders(id: string) {
  return useInfiniteQuery({
    queryKey: adminKeys.userOrders(id),
    queryFn: ({ pageParam }) =>
      apiGet<CustomerOrderPage>(`/api/admin/users/${id}/orders${pageParam ? `?cursor=${pageParam}` : ""}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.orders),
    staleTime: 0,
  });
}
