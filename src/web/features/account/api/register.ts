import { useMutation } from "@tanstack/react-query";
import type { z } from "zod";
import type { registerInput, User } from "#domain/schemas/account.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";

export type RegisterValues = z.output<typeof registerInput>;

export function register(values: RegisterValues) {
  return apiRequest<User>("POST", "/api/auth/register", values);
}

/** POST /api/auth/register: the new account then logs in on the Login tab. */
export function useRegister({ onSuccess }: { onSuccess: (user: User) => void }) {
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => {
      onSuccess(user);
      // The same words whether or not the address already had an account: the server answers both alike (docs/decisions/041).
      toast({
        title: "Account created successfully! You can now log in.",
        description: "We sent a link to your e-mail address: follow it to confirm the address is yours.",
        variant: "success",
      });
    },
    onError: (error) =>
      toast({
        title: "Registration Failed",
        description: errorMessage(error, "Failed to create account"),
        variant: "error",
      }),
  });
}
