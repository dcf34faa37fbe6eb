import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CorrectInvoiceInput } from "#domain/schemas/orders.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest } from "#web/lib/api.js";
import { adminKeys, withStepUp } from "../../shared";

export function correctInvoice({ id, ...correction }: CorrectInvoiceInput & { id: string }) {
  return apiRequest<{ number: string; replaces: string }>(
    "POST",
    `/api/admin/orders/${id}/invoice/corrections`,
    correction,
  );
}

/**
 * POST /api/admin/orders/{id}/invoice/corrections: a corrected invoice on the customer's request
 * (VAT Act s20(1B)). It writes a tax document, so it asks for a fresh code as a refund does.
 */
export function useCorrectInvoice(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (correction: CorrectInvoiceInput) => withStepUp(() => correctInvoice({ id: orderId, ...correction })),
    onSuccess: ({ number, replaces }) =>
      toast({ title: `Invoice ${number} issued`, description: `It replaces ${replaces}.`, variant: "success" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.order(orderId) }),
  });
}
