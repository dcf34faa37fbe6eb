import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Order } from "#domain/schemas/orders.js";
import { apiRequest } from "#web/lib/api.js";
import { accountKeys } from "../../account";
import { PRODUCTS_KEY } from "../../catalog";
import { orderQueryOptions } from "./get-order";

/** POST /api/orders/{id}/cancel: the shopper gives up a pending order, and the stock it held is for sale again. */
export function cancelOrder(orderId: string) {
  return apiRequest<Order>("POST", `/api/orders/${encodeURIComponent(orderId)}/cancel`, {});
}

/**
 * Cancels a pending order. A refusal with ORDER_STATUS_CONFLICT means it is no longer pending:
 * paid meanwhile, or already cancelled (ask the order which).
 */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSuccess: (order) => {
      queryClient.setQueryData(orderQueryOptions(order.id).queryKey, order);
      void queryClient.invalidateQueries({ queryKey: accountKeys.orders() });
      void queryClient.invalidateQueries({ queryKey: PRODUCTS_KEY });
    },
  });
}
