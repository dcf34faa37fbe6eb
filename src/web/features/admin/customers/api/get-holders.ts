import { useQuery } from "@tanstack/react-query";
import type { StockHolders } from "#domain/schemas/holders.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

export function getHolders() {
  return apiGet<StockHolders>("/api/admin/holders");
}

/** GET /api/admin/holders: who holds stock with unpaid orders, by customer and by network, biggest first. */
export function useStockHolders() {
  return useQuery({ queryKey: adminKeys.holders(), queryFn: getHolders, staleTime: 0 });
}
