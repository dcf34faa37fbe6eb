import { useMutation } from "@tanstack/react-query";
import type { z } from "zod";
import type { profileInput, User } from "#domain/schemas/account.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { useSession } from "../session";

export type ProfileValues = z.output<typeof profileInput>;

export function updateProfile(userId: string, values: ProfileValues) {
  return apiRequest<User>("PUT", `/api/users/${encodeURIComponent(userId)}`, values);
}

/** PUT /api/users/{id}: the session takes the profile the server answers. */
export function useUpdateProfile(userId: string, { onSuccess }: { onSuccess: () => void }) {
  const { signIn } = useSession();
  return useMutation({
    mutationFn: (values: ProfileValues) => updateProfile(userId, values),
    onSuccess: (updated, values) => {
      signIn(updated);
      onSuccess();
      // A new address takes effect once the link mailed to it is followed (the server kept the old one).
      const waiting = updated.email.toLowerCase() !== values.email.toLowerCase();
      toast(
        waiting
          ? {
              title: "Check your new e-mail address",
              description: `We sent a link to ${values.email}. Your address changes when you follow it.`,
              variant: "success",
            }
          : { title: "Profile updated successfully!", variant: "success" },
      );
    },
    onError: (error) =>
      toast({ title: "Update Failed", description: errorMessage(error, "Failed to update profile"), variant: "error" }),
  });
}
