import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Order } from "#domain/schemas/orders.js";
import { apiGet } from "#web/lib/api.js";
import { accountKeys } from "./keys";

/** Every cached answer about users starts with this key (the admin clears them after an order moves). */

/** GET /api/users/{id}/orders (the query key is the URL: app/query-client.ts). */
export function userOrdersQueryOptions(userId: string) {
  return queryOptions({
    queryKey: accountKeys.userOrders(userId),
    queryFn: () => apiGet<Order[]>(`/api/users/${userId}/orders`),
  });
}

export function useUserOrders(userId: string) {
  return useQuery(userOrdersQueryOptions(userId));
}
