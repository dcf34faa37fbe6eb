import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AccountMessage, AddressProof } from "#domain/schemas/account.js";
import { apiGet, apiRequest } from "#web/lib/api.js";
import { accountKeys } from "./keys";

/** GET /api/auth/address: whether the account's e-mail address is confirmed (docs/decisions/041). */
export function useAddressProof() {
  return useQuery({ queryKey: accountKeys.address(), queryFn: () => apiGet<AddressProof>("/api/auth/address") });
}

/** POST /api/auth/address/resend: a new confirmation link (one a minute, five a day per address). */
export function useResendAddressProof() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<AccountMessage>("POST", "/api/auth/address/resend", {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.address() }),
  });
}
