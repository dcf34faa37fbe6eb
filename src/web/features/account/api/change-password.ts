import { useMutation } from "@tanstack/react-query";
import type { AccountMessage, ChangePasswordInput } from "#domain/schemas/account.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";

export function changePassword(values: ChangePasswordInput) {
  return apiRequest<AccountMessage>("POST", "/api/auth/change-password", values);
}

/** POST /api/auth/change-password: this session stays, the account's other ones end. */
export function useChangePassword({ onSuccess }: { onSuccess: () => void }) {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (answer) => {
      onSuccess();
      toast({ title: "Password changed", description: answer.message, variant: "success" });
    },
    onError: (error) =>
      toast({
        title: "Password not changed",
        description: errorMessage(error, "We could not change your password. Please try again."),
        variant: "error",
      }),
  });
}
