import { useQuery } from "@tanstack/react-query";
import type { OrderTracking } from "#domain/schemas/tracking.js";
import { ApiError, apiGet } from "#web/lib/api.js";

export function getTracking(orderId: string, token: string | null) {
  const query = token ? `?t=${encodeURIComponent(token)}` : "";
  return apiGet<OrderTracking>(`/api/orders/${encodeURIComponent(orderId)}/tracking${query}`);
}

/**
 * GET /api/orders/{id}/tracking: the parcel as its owner follows it (signed in), or anyone with the
 * e-mail's signed link (`?t=`). Asked again each minute while the page is open: a courier's events
 * arrive as they happen. `viewer` (the signed-in user, or none) is in the key: signing in asks again.
 */
export function useTracking(orderId: string, token: string | null, viewer: string | null) {
  return useQuery({
    queryKey: ["tracking", orderId, token, viewer] as const,
    queryFn: () => getTracking(orderId, token),
    refetchInterval: 60_000,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
}
