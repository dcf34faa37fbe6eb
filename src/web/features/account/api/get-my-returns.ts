import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ReturnRequest } from "#domain/schemas/returns.js";
import { apiGet } from "#web/lib/api.js";
import { accountKeys } from "./keys";

/** GET /api/returns: the signed-in customer's returns, cancellations and complaints, oldest first. */

export function myReturnsQueryOptions() {
  return queryOptions({ queryKey: accountKeys.returns(), queryFn: () => apiGet<ReturnRequest[]>("/api/returns") });
}

export function useMyReturns(enabled = true) {
  return useQuery({ ...myReturnsQueryOptions(), enabled });
}
