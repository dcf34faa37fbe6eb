import { useQuery } from "@tanstack/react-query";
import type { StepUpFreshness, TwoFactorStatus } from "#domain/schemas/two-factor.js";
import { apiGet, apiRequest } from "#web/lib/api.js";
import { accountKeys } from "../../../account";

// The admin panel's own calls of /api/auth/2fa (the profile's set-up card has its own, in the account
// feature): kept here so the storefront's entry never carries them.

/** GET /api/auth/2fa: whether this admin's two-step sign-in is on, and whether the shop requires it. */
export function useSecondFactorStatus() {
  return useQuery({ queryKey: accountKeys.twoFactor(), queryFn: () => apiGet<TwoFactorStatus>("/api/auth/2fa") });
}

/** POST /api/auth/2fa/verify: a fresh code for this session (step-up). */
export function verifySecondFactor(code: string) {
  return apiRequest<void>("POST", "/api/auth/2fa/verify", { code });
}

/** POST /api/auth/step-up/password: an admin with no second factor confirms with their password (step-up). */
export function confirmStepUpPassword(password: string) {
  return apiRequest<void>("POST", "/api/auth/step-up/password", { password });
}

/** GET /api/auth/2fa/fresh: whether this session may take a step-up action now, and how it confirms if not. */
export function secondFactorFresh() {
  return apiGet<StepUpFreshness>("/api/auth/2fa/fresh");
}
