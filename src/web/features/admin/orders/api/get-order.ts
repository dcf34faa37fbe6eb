import { useQuery } from "@tanstack/react-query";
import type { AdminOrderDetail } from "#domain/schemas/admin-orders.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

export function getOrder(id: string) {
  return apiGet<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(id)}`);
}

/** GET /api/admin/orders/{id}: one order with its customer, PayFast's notifications and its e-mails. */
export function useAdminOrder(id: string) {
  return useQuery({ queryKey: adminKeys.order(id), queryFn: () => getOrder(id), staleTime: 0 });
}
