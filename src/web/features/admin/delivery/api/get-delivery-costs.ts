import { useQuery } from "@tanstack/react-query";
import type { DeliveryCostQuery, DeliveryCostReport } from "#domain/schemas/delivery-admin.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

const params = ({ from, to }: DeliveryCostQuery) => new URLSearchParams({ from, to });

/** GET /api/admin/delivery-costs: per month shipped, what customers paid for delivery and what the courier charged. */
export function useDeliveryCosts(period: DeliveryCostQuery) {
  return useQuery({
    queryKey: adminKeys.deliveryCosts(period),
    queryFn: () => apiGet<DeliveryCostReport>(`/api/admin/delivery-costs?${params(period)}`),
    staleTime: 0,
  });
}

/** GET /api/admin/delivery-costs.csv: the same months as a spreadsheet, downloaded by the browser. */
export function deliveryCostsCsvUrl(period: DeliveryCostQuery): string {
  return `/api/admin/delivery-costs.csv?${params(period)}`;
}
