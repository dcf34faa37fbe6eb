import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminReturnRequest } from "../../../../domain/schemas/returns";
import { apiGet } from "../../../lib/api";
import { ADMIN_RETURNS_KEY } from "./keys";

export type ReturnListStatus = "open" | "closed" | "all";

/** GET /api/admin/returns?status=: oldest first, each with its deadline. */
export function returnsQueryOptions(status: ReturnListStatus) {
  return queryOptions<AdminReturnRequest[]>({
    queryKey: [...ADMIN_RETURNS_KEY, status],
    queryFn: () => apiGet<AdminReturnRequest[]>(`/api/admin/returns?status=${status}`),
  });
}

export function useReturns(status: ReturnListStatus) {
  return useQuery(returnsQueryOptions(status));
}
