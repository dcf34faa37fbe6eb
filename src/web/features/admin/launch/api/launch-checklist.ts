import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LaunchChecklist, LaunchItem } from "#domain/schemas/launch-checklist.js";
import { toast } from "#web/components/ui/toast.js";
import { apiGet, apiRequest, errorMessage } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

/** GET /api/admin/launch-checklist: the duties of content/launch-checklist.md with their ticks. */
export function useLaunchChecklist() {
  return useQuery({
    queryKey: adminKeys.launchChecklist(),
    queryFn: () => apiGet<LaunchChecklist>("/api/admin/launch-checklist"),
    staleTime: 0,
  });
}

/** GET /api/admin/launch-checklist.csv: every duty with its tick, who set it and when, downloaded by the browser. */
export const LAUNCH_CHECKLIST_CSV_URL = "/api/admin/launch-checklist.csv";

/** PUT /api/admin/launch-checklist/{id}: ticks or unticks one duty; the list and the audit trail load afresh. */
export function useSetLaunchItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, done }: { id: string; done: boolean }) =>
      apiRequest<LaunchItem>("PUT", `/api/admin/launch-checklist/${encodeURIComponent(id)}`, { done }),
    onSuccess: (item) =>
      queryClient.setQueryData<LaunchChecklist>(adminKeys.launchChecklist(), (list) => {
        if (!list) return list;
        const items = list.items.map((entry) => (entry.id === item.id ? item : entry));
        return { ...list, items, open: items.filter((entry) => !entry.done).length };
      }),
    onError: (error) =>
      toast({ title: "Not saved", description: errorMessage(error, "The tick could not be saved."), variant: "error" }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.launchChecklist() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit() }),
      ]),
  });
}
