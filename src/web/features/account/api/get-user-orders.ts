import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Order } from "../../../../domain/schemas/orders";

/** Every cached answer about users starts with this key (the admin clears them after an order moves). */
export const USERS_KEY = ["/api/users"] as const;

/** GET /api/users/{id}/orders (the query key is the URL: app/query-client.ts). */
export function userOrdersQueryOptions(userId: string) {
  return queryOptions<Order[]>({ queryKey: [...USERS_KEY, userId, "orders"] });
}

export function useUserOrders(userId: string) {
  return useQuery(userOrdersQueryOptions(userId));
}
