import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateReturnInput, ReturnRequest } from "../../../../domain/schemas/returns";
import { apiRequest } from "../../../lib/api";
import { MY_RETURNS_KEY } from "./get-my-returns";
import { orderReturnsQueryOptions } from "./get-order-returns";

export function createReturn({ orderId, ...input }: CreateReturnInput & { orderId: string }) {
  return apiRequest<ReturnRequest>("POST", `/api/orders/${orderId}/returns`, input);
}

/** POST /api/orders/{id}/returns; a refusal (a closed window, too many units) is shown in the form. */
export function useCreateReturn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReturn,
    onSettled: (_data, _error, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: MY_RETURNS_KEY }),
        queryClient.invalidateQueries({ queryKey: orderReturnsQueryOptions(input.orderId).queryKey }),
      ]),
  });
}
