import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TwoFactorEnabled, TwoFactorSetup, TwoFactorStatus } from "#domain/schemas/two-factor.js";
import { apiGet, apiRequest } from "#web/lib/api.js";
import { accountKeys } from "./keys";

/** GET /api/auth/2fa: whether this admin's two-step sign-in is on, and how many recovery codes are left. */
export function useTwoFactorStatus() {
  return useQuery({ queryKey: accountKeys.twoFactor(), queryFn: () => apiGet<TwoFactorStatus>("/api/auth/2fa") });
}

/** POST /api/auth/2fa/setup: a new secret, as text and as a QR code. */
export function useStartTwoFactor() {
  return useMutation({ mutationFn: () => apiRequest<TwoFactorSetup>("POST", "/api/auth/2fa/setup", {}) });
}

/** POST /api/auth/2fa/enable: the first code turns it on; the answer holds the ten recovery codes, shown once. */
export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiRequest<TwoFactorEnabled>("POST", "/api/auth/2fa/enable", { code }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.twoFactor() }),
  });
}

/** POST /api/auth/2fa/disable, with a current code. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiRequest<void>("POST", "/api/auth/2fa/disable", { code }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.twoFactor() }),
  });
}

/** POST /api/auth/2fa/verify: a fresh code for this session (step-up before a refund and the like). */
export function verifySecondFactor(code: string) {
  return apiRequest<void>("POST", "/api/auth/2fa/verify", { code });
}
