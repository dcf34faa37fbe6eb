import { queryOptions, useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import type { Order } from "#domain/schemas/orders.js";
import { apiGet } from "#web/lib/api.js";
import { checkoutKeys } from "./keys";

/**
 * How often a pending order is asked again. PayFast's notification is usually a moment behind
 * the shopper's return: every 2 seconds for the first minute. A lost notification is found by the
 * server's reconciliation minutes later: every 15 seconds after that, for 20 minutes in all.
 */
export const FAST_POLL_MS = 2_000;
export const FAST_POLL_FOR_MS = 60_000;
export const SLOW_POLL_MS = 15_000;
export const WAIT_FOR_PAYMENT_MS = 20 * 60_000;

/** The delay before asking again, `elapsedMs` after the wait began; false once the wait is over. */
export function pollDelay(elapsedMs: number): number | false {
  if (elapsedMs < FAST_POLL_FOR_MS) return FAST_POLL_MS;
  if (elapsedMs < WAIT_FOR_PAYMENT_MS) return SLOW_POLL_MS;
  return false;
}

/** GET /api/orders/{id}: one order of the signed-in customer, never cached. */
export function orderQueryOptions(orderId: string | null) {
  return queryOptions<Order>({
    queryKey: checkoutKeys.order(orderId),
    queryFn: () => apiGet<Order>(`/api/orders/${encodeURIComponent(orderId ?? "")}`),
    enabled: Boolean(orderId),
    staleTime: 0,
  });
}

/**
 * The order as the server knows it. With `waitForPayment`, a pending order is asked again on the
 * schedule above; `waiting` says whether the page is still checking, and `checkAgain` starts a
 * new wait once it stopped.
 */
export function useOrder(orderId: string | null, { waitForPayment }: { waitForPayment: boolean }) {
  const [waitStartedAt, setWaitStartedAt] = useState(() => Date.now());
  const [waitOver, setWaitOver] = useState(false);

  const query = useQuery({
    ...orderQueryOptions(orderId),
    refetchInterval: (current) => {
      if (!waitForPayment || current.state.data?.status !== "pending") return false;
      return pollDelay(Date.now() - waitStartedAt);
    },
  });

  useEffect(() => {
    if (!waitForPayment) return;
    const timer = setTimeout(() => setWaitOver(true), Math.max(0, waitStartedAt + WAIT_FOR_PAYMENT_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [waitForPayment, waitStartedAt]);

  const { refetch } = query;
  const checkAgain = useCallback(() => {
    setWaitStartedAt(Date.now());
    setWaitOver(false);
    void refetch();
  }, [refetch]);

  return { query, waiting: waitForPayment && !waitOver, checkAgain };
}
