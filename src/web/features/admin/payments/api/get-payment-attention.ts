import { useQuery } from "@tanstack/react-query";
import type { AttentionItem } from "#domain/schemas/payments.js";
import { apiGet } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

/**
 * GET /api/admin/payments/attention: payments PayFast reported that the shop could not book by
 * itself, and orders waiting over an hour. On the pending list's cadence: every 30 seconds and on
 * window focus, never cached.
 */
export function usePaymentAttention() {
  return useQuery({
    queryKey: adminKeys.paymentAttention(),
    queryFn: () => apiGet<{ items: AttentionItem[] }>("/api/admin/payments/attention"),
    select: (answer) => answer.items,
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
    staleTime: 0,
    gcTime: 0,
  });
}
