import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminPlan, AdminPlanFilter, AdminPlanPage } from "#domain/schemas/admin-plans.js";
import { apiGet, apiRequest } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

const plansKey = ["admin", "plans"] as const;

/** GET /api/admin/plans: every plan, newest first, 50 at a time, by filter and search. */
export function useAdminPlans(filter: AdminPlanFilter, q: string) {
  return useInfiniteQuery({
    queryKey: [...plansKey, "pages", { filter, q }],
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ filter });
      if (q) query.set("q", q);
      if (pageParam) query.set("cursor", pageParam);
      return apiGet<AdminPlanPage>(`/api/admin/plans?${query}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.plans),
    staleTime: 0,
  });
}

export type OwnerPlanChange = { kind: "pause"; until: string; reason: string } | { kind: "cancel"; reason: string };

/** POST /api/admin/plans/{id}/pause or /cancel, with the reason the customer is e-mailed. */
export function useOwnerPlanChange(planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: OwnerPlanChange) =>
      apiRequest<AdminPlan>(
        "POST",
        `/api/admin/plans/${planId}/${change.kind}`,
        change.kind === "pause" ? { until: change.until, reason: change.reason } : { reason: change.reason },
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: plansKey }),
        queryClient.invalidateQueries({ queryKey: adminKeys.dashboard() }),
      ]),
  });
}
