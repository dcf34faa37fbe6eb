import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TodaysWaybillsAnswer } from "#domain/schemas/tracking.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest } from "#web/lib/api.js";
import { ordersChanged } from "../../shared";

export function createWaybill(orderId: string) {
  return apiRequest<{ orderId: string; waybillNumber: string; trackingReference: string }>(
    "POST",
    `/api/admin/orders/${encodeURIComponent(orderId)}/waybill`,
    {},
  );
}

/** POST /api/admin/orders/{id}/waybill: books the parcel with the option the shopper chose. */
export function useCreateWaybill() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWaybill,
    onSuccess: (made) =>
      toast({ title: "Waybill created", description: `Waybill ${made.waybillNumber}`, variant: "success" }),
    onSettled: () => ordersChanged(queryClient),
  });
}

export function createTodaysWaybills() {
  return apiRequest<TodaysWaybillsAnswer>("POST", "/api/admin/orders/waybills", {});
}

/** POST /api/admin/orders/waybills: every order paid today without a waybill, each booked or said why not. */
export function useCreateTodaysWaybills() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createTodaysWaybills, onSettled: () => ordersChanged(queryClient) });
}
