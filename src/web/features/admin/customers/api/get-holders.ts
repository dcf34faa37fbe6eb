import { useQuery } from "@tanstack/react-query";
import type { StockHolders } from "../../../../../domain/schemas/holders";
import { apiGet } from "../../../../lib/api";
import { ADMIN_HOLDERS_KEY } from "../../shared";

export function getHolders() {
  return apiGet<StockHolders>("/api/admin/holders");
}

/** GET /api/admin/holders: who holds stock with unpaid orders, by customer and by network, biggest first. */
export function useStockHolders() {
  return useQuery({ queryKey: ADMIN_HOLDERS_KEY, queryFn: getHolders, staleTime: 0 });
}
