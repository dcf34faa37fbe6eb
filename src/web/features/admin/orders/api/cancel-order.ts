import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest } from "#web/lib/api.js";
import { ordersChanged } from "../../shared";
import type { AdminOrder } from "../order-model";

export function cancelOrderAsAdmin({ id, reason }: { id: string; reason: string }) {
  return apiRequest<AdminOrder>("POST", `/api/admin/orders/${id}/cancel`, { reason });
}

/** POST /api/admin/orders/{id}/cancel: an unpaid order, with the admin's reason; its stock goes back on sale. */
export function useCancelOrderAsAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrderAsAdmin,
    onSuccess: () =>
      toast({ title: "Order cancelled", description: "Its stock is on sale again.", variant: "success" }),
    onSettled: () => ordersChanged(queryClient),
  });
}
