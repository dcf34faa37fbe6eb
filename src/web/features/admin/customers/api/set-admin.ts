import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { User } from "#domain/schemas/account.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { adminKeys, withStepUp } from "../../shared";

export interface AdminChange {
  id: string;
  isAdmin: boolean;
}

export function setAdmin({ id, isAdmin }: AdminChange) {
  return apiRequest<User>("PATCH", `/api/admin/users/${id}`, { isAdmin });
}

/** PATCH /api/admin/users/{id}: make a customer an admin, or remove an admin's rights (never one's own). */
export function useSetAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    // Making an admin wants a fresh code from an admin with two-step sign-in (step-up.tsx).
    mutationFn: (change: AdminChange) => withStepUp(() => setAdmin(change)),
    onSuccess: (user) =>
      toast({
        title: user.isAdmin === "true" ? `${user.username} is now an admin` : `${user.username} is no longer an admin`,
        variant: "success",
      }),
    onError: (error) =>
      toast({
        title: "Could not change admin rights",
        description: errorMessage(error, "Please try again."),
        variant: "error",
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit() }),
      ]),
  });
}
