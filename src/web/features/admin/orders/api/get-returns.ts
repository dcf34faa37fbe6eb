import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminReturnRequest } from "#domain/schemas/returns.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

export type ReturnListStatus = "open" | "closed" | "all";

/** GET /api/admin/returns?status=&orderId=: oldest first, each with its deadline; one order's when `orderId` is given. */
export function returnsQueryOptions(status: ReturnListStatus, orderId?: string) {
  const query = new URLSearchParams({ status, ...(orderId ? { orderId } : {}) });
  return queryOptions<AdminReturnRequest[]>({
    queryKey: adminKeys.returnList(status, orderId),
    queryFn: () => apiGet<AdminReturnRequest[]>(`/api/admin/returns?${query}`),
  });
}

export function useReturns(status: ReturnListStatus, orderId?: string) {
  return useQuery(returnsQueryOptions(status, orderId));
}
