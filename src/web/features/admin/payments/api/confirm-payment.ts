import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import type { AdminOrder } from "../../orders";
import { ordersChanged, withStepUp } from "../../shared";

export function confirmPayment(id: string) {
  return apiRequest<AdminOrder>("PATCH", `/api/admin/orders/${id}/confirm-payment`);
}

/** PATCH /api/admin/orders/{id}/confirm-payment: a pending order is marked paid. */
export function useConfirmPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    // Books a payment and writes a tax invoice: the admin confirms it is them first (step-up.tsx).
    mutationFn: (id: string) => withStepUp(() => confirmPayment(id)),
    onSuccess: () =>
      toast({
        title: "Payment Confirmed",
        description: "Order has been marked as paid and moved to completed orders.",
        variant: "success",
      }),
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to confirm payment"), variant: "error" }),
    onSettled: () => ordersChanged(queryClient),
  });
}
