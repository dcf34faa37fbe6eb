import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { accountStatus } from "#domain/schemas/holders.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { ordersChanged, withStepUp } from "../../shared";

type AccountStatus = z.infer<typeof accountStatus>;

export interface AccountAccessChange {
  id: string;
  disabled: boolean;
  reason?: string;
}

export function setAccountDisabled({ id, disabled, reason }: AccountAccessChange) {
  return disabled
    ? apiRequest<AccountStatus>("POST", `/api/admin/users/${id}/disable`, reason ? { reason } : {})
    : apiRequest<AccountStatus>("POST", `/api/admin/users/${id}/enable`, {});
}

/**
 * POST /api/admin/users/{id}/disable or /enable. Disabling ends the account's sessions and cancels
 * its unpaid orders, so the orders, the stock and the holders load afresh.
 */
export function useSetAccountDisabled() {
  const queryClient = useQueryClient();
  return useMutation({
    // Disabling another admin wants a fresh step-up (the server says when).
    mutationFn: (change: AccountAccessChange) => withStepUp(() => setAccountDisabled(change)),
    onSuccess: (status) =>
      toast({
        title: status.disabled ? "Account disabled" : "Account enabled",
        description: status.disabled
          ? `${status.sessionsEnded} ${status.sessionsEnded === 1 ? "session" : "sessions"} ended, ${status.ordersCancelled} unpaid ${status.ordersCancelled === 1 ? "order" : "orders"} cancelled.`
          : "They can log in again.",
        variant: "success",
      }),
    onError: (error) =>
      toast({
        title: "Could not change the account",
        description: errorMessage(error, "Please try again."),
        variant: "error",
      }),
    onSettled: () => ordersChanged(queryClient),
  });
}
