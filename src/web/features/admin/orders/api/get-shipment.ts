import { useQuery } from "@tanstack/react-query";
import type { AdminShipmentAnswer } from "#domain/schemas/tracking.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

export function getShipment(orderId: string) {
  return apiGet<AdminShipmentAnswer>(`/api/admin/orders/${encodeURIComponent(orderId)}/shipment`);
}

/** GET /api/admin/orders/{id}/shipment: the waybill, where the parcel is, and its timeline. */
export function useAdminShipment(orderId: string) {
  return useQuery({ queryKey: adminKeys.shipment(orderId), queryFn: () => getShipment(orderId), staleTime: 0 });
}

/** The label kept at booking (the courier's own link expires after 24 hours). */
export const labelPdfUrl = (orderId: string) => `/api/admin/orders/${encodeURIComponent(orderId)}/label.pdf`;
