import { useMutation } from "@tanstack/react-query";
import type { AccountMessage, ForgotPasswordInput } from "#domain/schemas/account.js";
import { apiRequest } from "#web/lib/api.js";

export function forgotPassword(values: ForgotPasswordInput) {
  return apiRequest<AccountMessage>("POST", "/api/auth/forgot-password", values);
}

/** POST /api/auth/forgot-password: the answer's message is the same whether or not the address is a customer's. */
export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
