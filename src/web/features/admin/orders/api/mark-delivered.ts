import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest } from "#web/lib/api.js";
import { ordersChanged } from "../../shared";
import type { AdminOrder } from "../order-model";

export function markDelivered({ id, deliveredOn }: { id: string; deliveredOn?: string }) {
  return apiRequest<AdminOrder>("POST", `/api/admin/orders/${id}/delivered`, deliveredOn ? { deliveredOn } : {});
}

/** POST /api/admin/orders/{id}/delivered: the 7 days of a return count from this day. */
export function useMarkDelivered() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markDelivered,
    onSuccess: () => toast({ title: "Marked as delivered", variant: "success" }),
    onSettled: () => ordersChanged(queryClient),
  });
}
