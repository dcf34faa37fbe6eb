import { useMutation } from "@tanstack/react-query";
import type { AccountMessage, ResetPasswordInput } from "#domain/schemas/account.js";
import { apiRequest } from "#web/lib/api.js";
import { useSession } from "../session";
import { getMe } from "./get-me";

export function resetPassword(values: ResetPasswordInput) {
  return apiRequest<AccountMessage>("POST", "/api/auth/reset-password", values);
}

/**
 * POST /api/auth/reset-password. The server ends every session of the account: a browser signed in
 * as it asks who it is now, which forgets the user when the answer is "nobody".
 */
export function useResetPassword() {
  const { userId, signIn } = useSession();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      if (userId) getMe().then(signIn, () => undefined);
    },
  });
}
