import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RecordRefundInput } from "#domain/schemas/orders.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest } from "#web/lib/api.js";
import { ordersChanged, withStepUp } from "../../shared";
import type { AdminOrder } from "../order-model";

export function recordRefund({ id, ...refund }: RecordRefundInput & { id: string }) {
  return apiRequest<AdminOrder>("POST", `/api/admin/orders/${id}/refunds/record`, refund);
}

/**
 * POST /api/admin/orders/{id}/refunds/record: a refund made in PayFast's dashboard, booked as the
 * shop's own (credit note, status, e-mail). A refusal is shown by the dialog beside the form.
 */
export function useRecordRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    // Writes a credit note: the admin confirms it is them first (step-up.tsx).
    mutationFn: (refund: RecordRefundInput & { id: string }) => withStepUp(() => recordRefund(refund)),
    onSuccess: (order) =>
      toast({
        title: order.status === "refunded" ? "Order refunded" : "Refund recorded",
        description: "The refund made in PayFast is booked; the customer gets an e-mail with the credit note.",
        variant: "success",
      }),
    onSettled: () => ordersChanged(queryClient),
  });
}
