import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ReturnRequest } from "../../../../domain/schemas/returns";

/** GET /api/returns: the signed-in customer's returns, cancellations and complaints, oldest first. */
export const MY_RETURNS_KEY = ["/api/returns"] as const;

export function myReturnsQueryOptions() {
  return queryOptions<ReturnRequest[]>({ queryKey: MY_RETURNS_KEY });
}

export function useMyReturns(enabled = true) {
  return useQuery({ ...myReturnsQueryOptions(), enabled });
}
