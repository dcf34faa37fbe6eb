import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CheckOutcome, CheckPayfastAnswer } from "#domain/schemas/payments.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { ordersChanged } from "../../shared";

export function checkPayfast(id: string) {
  return apiRequest<CheckPayfastAnswer>("POST", `/api/admin/orders/${id}/check-payfast`);
}

const TITLES: Record<CheckOutcome, string> = {
  paid: "Payment found",
  flagged: "Payment needs attention",
  not_found: "No payment yet",
};

/**
 * POST /api/admin/orders/{id}/check-payfast: asks PayFast's records about one pending order now.
 * PayFast's answer is shown as it is; the orders and the attention list load afresh either way.
 */
export function useCheckPayfast() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkPayfast,
    onSuccess: ({ outcome, message }) =>
      toast({ title: TITLES[outcome], description: message, variant: outcome === "paid" ? "success" : "default" }),
    onError: (error) =>
      toast({
        title: "Could not check with PayFast",
        description: errorMessage(error, "Please try again in a minute."),
        variant: "error",
      }),
    onSettled: () => ordersChanged(queryClient),
  });
}
