import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { EmailSummary } from "#domain/schemas/emails.js";
import { toast } from "#web/components/ui/toast.js";
import { apiRequest, errorMessage } from "#web/lib/api.js";
import { adminKeys } from "../../shared";

export function resendEmail(id: number) {
  return apiRequest<EmailSummary>("POST", `/api/admin/emails/${id}/resend`);
}

/** POST /api/admin/emails/{id}/resend: queues a message again (with no SMTP it is captured again). */
export function useResendEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendEmail,
    onSuccess: (email) => toast({ title: "E-mail queued again", description: `To ${email.to}`, variant: "success" }),
    onError: (error) =>
      toast({
        title: "Could not resend the e-mail",
        description: errorMessage(error, "Please try again."),
        variant: "error",
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.emails() }),
  });
}
