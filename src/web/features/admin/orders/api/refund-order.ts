import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RefundOrderInput } from "#domain/schemas/orders.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest } from "#web/lib/api.js";
import { ordersChanged, withStepUp } from "../../shared";
import type { AdminOrder } from "../order-model";

export function refundOrder({ id, ...refund }: RefundOrderInput & { id: string }) {
  return apiRequest<AdminOrder>("POST", `/api/admin/orders/${id}/refund`, refund);
}

/**
 * POST /api/admin/orders/{id}/refund: refunds through PayFast. A refusal (PayFast's reason, too
 * much, another refund under way) is shown by the dialog beside the form, not as a toast.
 */
export function useRefundOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    // A refund moves money: an admin with two-step sign-in confirms with a fresh code (step-up.tsx).
    mutationFn: (refund: RefundOrderInput & { id: string }) => withStepUp(() => refundOrder(refund)),
    onSuccess: (order) =>
      toast({
        title: order.status === "refunded" ? "Order refunded" : "Refund made",
        description: "PayFast is returning the money; the customer gets an e-mail with the credit note.",
        variant: "success",
      }),
    onSettled: () => ordersChanged(queryClient),
  });
}
