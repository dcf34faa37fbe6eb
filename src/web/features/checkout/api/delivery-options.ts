import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { DeliveryOptionsAnswer, DeliveryOptionsInput, DeliveryPointsAnswer } from "#domain/schemas/delivery.js";
import { apiGet, apiRequest } from "#web/lib/api.js";
import { checkoutKeys } from "./keys";

/** POST /api/delivery/options: the options for this cart and address, priced by the server (docs/decisions/051). */
export function deliveryOptionsQuery(input: DeliveryOptionsInput | null) {
  return queryOptions<DeliveryOptionsAnswer>({
    queryKey: checkoutKeys.deliveryOptions(input),
    queryFn: () => apiRequest<DeliveryOptionsAnswer>("POST", "/api/delivery/options", input),
    enabled: input !== null,
    // The server keeps each quote a few minutes: the price shown is the price charged.
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

export const useDeliveryOptions = (input: DeliveryOptionsInput | null) => useQuery(deliveryOptionsQuery(input));

/** GET /api/delivery/points: the lockers or pickup points nearest a postal code or place. */
export function useDeliveryPoints(service: "locker" | "pickup_point" | null, near: string) {
  return useQuery({
    queryKey: checkoutKeys.deliveryPoints(service, near),
    queryFn: () =>
      apiGet<DeliveryPointsAnswer>(`/api/delivery/points?service=${service}&near=${encodeURIComponent(near.trim())}`),
    enabled: service !== null && near.trim().length >= 2,
    staleTime: 10 * 60_000,
  });
}
