import { useMutation } from "@tanstack/react-query";
import type { LoginInput, User } from "#domain/schemas/account.js";
import { toast } from "#web/components/ui/toast.js";
import { ApiError, apiRequest, errorMessage } from "#web/lib/api.js";
import { isShopPaused } from "#web/lib/shop-paused.js";
import { useSession } from "../session";

export function logIn(values: LoginInput) {
  return apiRequest<User>("POST", "/api/auth/login", values);
}

/**
 * POST /api/auth/login: the session starts with the user the server answers. An admin with
 * two-step sign-in is first answered SECOND_FACTOR_REQUIRED: `onCodeNeeded` shows the code field.
 * A shop paused for a moment (isShopPaused) raises no toast: the form shows its notice from the error.
 */
export function useLogIn({ onSuccess, onCodeNeeded }: { onSuccess: () => void; onCodeNeeded?: () => void }) {
  const { signIn } = useSession();
  return useMutation({
    mutationFn: logIn,
    onSuccess: (user) => {
      signIn(user);
      onSuccess();
      toast({ title: "Logged in successfully!", description: `Welcome back, ${user.fullName}.`, variant: "success" });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === "SECOND_FACTOR_REQUIRED" && onCodeNeeded) {
        onCodeNeeded();
        return;
      }
      if (isShopPaused(error)) return;
      toast({ title: "Login Failed", description: errorMessage(error, "Invalid credentials"), variant: "error" });
    },
  });
}
