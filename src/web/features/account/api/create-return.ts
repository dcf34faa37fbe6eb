import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateReturnInput, ReturnRequest } from "#domain/schemas/returns.js";
import { apiRequest } from "#web/lib/api.js";
import { accountKeys } from "./keys";

export function createReturn({ orderId, ...input }: CreateReturnInput & { orderId: string }) {
  return apiRequest<ReturnRequest>("POST", `/api/orders/${orderId}/returns`, input);
}

/** POST /api/orders/{id}/returns; a refusal (a closed window, too many units) is shown in the form. */
export function useCreateReturn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReturn,
    // The account's returns and this order's, by their common prefix.
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.returns() }),
  });
}
