import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { OrderStatus } from "../../../../domain/order-status";
import { toast } from "../../../components/ui/toast";
import { apiRequest, errorMessage } from "../../../lib/api";
import { type AdminOrder, statusChangedMessage } from "../order-model";
import { ordersChanged } from "./keys";

export function updateOrderStatus(id: string, status: OrderStatus) {
  return apiRequest<AdminOrder>("PATCH", `/api/admin/orders/${id}/status`, { status });
}

/** PATCH /api/admin/orders/{id}/status: Mark as Paid, Mark as Shipped. */
export function useUpdateOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: OrderStatus }) => updateOrderStatus(id, status),
    onSuccess: (_order, { status }) => toast({ title: statusChangedMessage(status), variant: "success" }),
    onError: (error) =>
      toast({
        title: "Failed to update order status",
        description: errorMessage(error, "Please try again."),
        variant: "error",
      }),
    onSettled: () => ordersChanged(queryClient),
  });
}
