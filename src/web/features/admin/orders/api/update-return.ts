import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminReturnRequest } from "#domain/schemas/returns.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest } from "#web/lib/api.js";
import { ordersChanged, withStepUp } from "../../shared";

export type ReturnStep = "accept" | "decline" | "receive" | "refund" | "exchange" | "resolve";

export interface ReturnStepInput {
  id: string;
  step: ReturnStep;
  body: Record<string, unknown>;
}

const DONE: Record<ReturnStep, string> = {
  accept: "Request accepted: the customer has the return instructions",
  decline: "Request declined: the customer has the reason",
  receive: "Goods received",
  refund: "Refunded through PayFast",
  exchange: "Exchange recorded",
  resolve: "Request resolved",
};

export function updateReturn({ id, step, body }: ReturnStepInput) {
  return apiRequest<AdminReturnRequest>("POST", `/api/admin/returns/${id}/${step}`, body);
}

/** POST /api/admin/returns/{id}/{step}; the server's refusal (the law, the status) is shown in the dialog. */
export function useUpdateReturn() {
  const queryClient = useQueryClient();
  return useMutation({
    // A refund moves money: the admin confirms it is them first (step-up.tsx).
    mutationFn: (input: ReturnStepInput) =>
      input.step === "refund" ? withStepUp(() => updateReturn(input)) : updateReturn(input),
    onSuccess: (_request, { step }) => toast({ title: DONE[step], variant: "success" }),
    onSettled: () => ordersChanged(queryClient),
  });
}
