import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

export function resolveAttentionItem(id: string) {
  return apiRequest<void>("POST", `/api/admin/payments/attention/${encodeURIComponent(id)}/resolve`);
}

/** POST /api/admin/payments/attention/{id}/resolve: the admin has dealt with it (refund, contact...). */
export function useResolveAttentionItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolveAttentionItem,
    onSuccess: () => toast({ title: "Marked resolved", variant: "success" }),
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to mark it resolved"), variant: "error" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.paymentAttention() }),
  });
}
