import { queryOptions, useQuery } from "@tanstack/react-query";
import type { OrderReturns } from "#domain/schemas/returns.js";
import { apiGet } from "#web/lib/api.js";
import { accountKeys } from "./keys";

/** GET /api/orders/{id}/returns: what may be asked on the order today (the server's windows), per reason and line. */
export function orderReturnsQueryOptions(orderId: string) {
  return queryOptions({
    queryKey: accountKeys.orderReturns(orderId),
    queryFn: () => apiGet<OrderReturns>(`/api/orders/${orderId}/returns`),
  });
}

export function useOrderReturns(orderId: string) {
  return useQuery(orderReturnsQueryOptions(orderId));
}
