import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { OrderStatus } from "#domain/order-status.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { ordersChanged, withStepUp } from "../../shared";
import { type AdminOrder, statusChangedMessage } from "../order-model";

export interface OrderStatusChange {
  id: string;
  status: OrderStatus;
  /** Mark as Shipped only, both optional: who carries the parcel and its tracking number. */
  courier?: string | null;
  trackingNumber?: string | null;
}

export function updateOrderStatus({ id, ...change }: OrderStatusChange) {
  return apiRequest<AdminOrder>("PATCH", `/api/admin/orders/${id}/status`, change);
}

/** PATCH /api/admin/orders/{id}/status: Mark as Paid, Mark as Shipped (with the courier and tracking number). */
export function useUpdateOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    // Mark as Paid books a payment and writes a tax invoice: stepped up by the server, confirmed here.
    mutationFn: (change: OrderStatusChange) => withStepUp(() => updateOrderStatus(change)),
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
