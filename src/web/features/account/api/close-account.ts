import { useMutation } from "@tanstack/react-query";
import type { AccountMessage } from "#domain/schemas/account.js";
import type { PasswordConfirmInput } from "#domain/schemas/privacy.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { useSession } from "../session";

export function closeAccount(values: PasswordConfirmInput) {
  return apiRequest<AccountMessage>("POST", "/api/account/close", values);
}

/** POST /api/account/close: the server ends every session; this browser forgets the account too. */
export function useCloseAccount({ onClosed }: { onClosed: () => void }) {
  const { signOut } = useSession();
  return useMutation({
    mutationFn: closeAccount,
    onSuccess: async (answer) => {
      await signOut();
      onClosed();
      toast({ title: "Your account is closed", description: answer.message, variant: "success" });
    },
    onError: (error) =>
      toast({
        title: "Account not closed",
        description: errorMessage(error, "We could not close your account. Please try again."),
        variant: "error",
      }),
  });
}
