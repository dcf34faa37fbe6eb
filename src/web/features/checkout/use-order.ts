import { useQuery } from "@tanstack/react-query";
import type { Order } from "../../../domain/schemas/orders";
import { getJson } from "../../lib/api";

/**
 * The order as the server knows it. While it is still pending (PayFast's notification may be a
 * moment behind the shopper's return), it is asked again every 2 seconds for a minute.
 */
export function useOrder(orderId: string | null, { waitForPayment }: { waitForPayment: boolean }) {
  return useQuery<Order>({
    queryKey: ["/api/orders", orderId],
    queryFn: () => getJson<Order>(`/api/orders/${encodeURIComponent(orderId ?? "")}`),
    enabled: Boolean(orderId),
    staleTime: 0,
    refetchInterval: (query) => {
      if (!waitForPayment) return false;
      const stillPending = query.state.data?.status === "pending";
      return stillPending && query.state.dataUpdateCount < 30 ? 2000 : false;
    },
  });
}
