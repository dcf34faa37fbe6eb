import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Customer } from "#domain/schemas/customers.js";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { adminKeys, withStepUp } from "../shared";

/** Another admin lost their phone: their two-step sign-in is reset and their sessions end (audited). */
export function SecondFactorReset({ customer }: { customer: Customer }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const reset = useMutation({
    mutationFn: () =>
      withStepUp(() => apiRequest<void>("POST", `/api/admin/users/${customer.id}/second-factor/reset`, {})),
    onSuccess: () =>
      toast({
        title: "Two-step sign-in reset",
        description: `${customer.username} is signed out and sets it up again at their next login.`,
        variant: "success",
      }),
    onError: (error) =>
      toast({ title: "Could not reset it", description: errorMessage(error, "Please try again."), variant: "error" }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.audit() }),
      ]),
  });
  if (!customer.twoFactorEnabled) return null;
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        Reset two-step sign-in
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Reset two-step sign-in?"
        description={`Only when ${customer.fullName} (@${customer.username}) lost their phone and recovery codes, and you have checked it is really them. They are signed out everywhere and log in with their password alone until they set it up again.`}
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={reset.isPending}
            onClick={() => reset.mutate(undefined, { onSettled: () => setOpen(false) })}
          >
            {reset.isPending ? "Resetting..." : "Reset two-step sign-in"}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
