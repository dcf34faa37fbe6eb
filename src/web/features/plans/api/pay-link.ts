import { useQuery } from "@tanstack/react-query";
import type { PlanPayBox } from "#domain/schemas/plans.js";
import { apiGet } from "#web/lib/api.js";

/**
 * GET /api/plan-links/pay: the box a reminder plan's pay link pays for (the next-box e-mail's
 * "Pay for this box", `/checkout?pay=...`). The plan's customer only, so it waits for a login.
 */
export function usePlanPayBox(token: string, signedIn: boolean) {
  return useQuery({
    queryKey: ["plan-pay-link", token],
    queryFn: () => apiGet<PlanPayBox>(`/api/plan-links/pay?token=${encodeURIComponent(token)}`),
    enabled: token !== "" && signedIn,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
