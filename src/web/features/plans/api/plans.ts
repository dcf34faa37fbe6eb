import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Plan, PlanChangeInput } from "#domain/schemas/plans.js";
import { apiGet, apiRequest } from "#web/lib/api.js";

const plansUrl = (userId: string) => `/api/users/${userId}/plans`;
export const planKeys = { mine: (userId: string) => ["plans", userId] as const };

/** GET /api/users/{id}/plans: the customer's plans, each with its next box at today's prices. */
export function usePlans(userId: string) {
  return useQuery({ queryKey: planKeys.mine(userId), queryFn: () => apiGet<Plan[]>(plansUrl(userId)) });
}

export type PlanAction =
  | { kind: "change"; change: PlanChangeInput }
  | { kind: "skip" | "deliver-now" | "resume" | "cancel" | "card-updated" }
  | { kind: "pause"; until: string };

/** One change to a plan; answers the plan with `effect`, the sentence the page shows. */
export function usePlanAction(userId: string, planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: PlanAction) => {
      const url = `${plansUrl(userId)}/${planId}`;
      if (action.kind === "change") return apiRequest<Plan>("PATCH", url, action.change);
      if (action.kind === "pause") return apiRequest<Plan>("POST", `${url}/pause`, { until: action.until });
      return apiRequest<Plan>("POST", `${url}/${action.kind}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: planKeys.mine(userId) }),
  });
}
