import { useQuery } from "@tanstack/react-query";
import type { OrderSummary } from "#domain/schemas/admin-orders.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";
import { type OrderFilters, orderFilterParams } from "./get-orders";

export function getOrderSummary(range: Pick<OrderFilters, "from" | "to">) {
  return apiGet<OrderSummary>(`/api/admin/orders/summary?${orderFilterParams(range)}`);
}

/** GET /api/admin/orders/summary: a range's orders by status and its revenue, counted by the server. */
export function useOrderSummary(range: Pick<OrderFilters, "from" | "to">) {
  return useQuery({
    queryKey: adminKeys.orderSummary(range),
    queryFn: () => getOrderSummary(range),
    staleTime: 0,
  });
}
