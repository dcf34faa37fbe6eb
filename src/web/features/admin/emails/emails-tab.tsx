import { useState } from "react";
import type { EmailSummary } from "#domain/schemas/emails.js";
import { Button } from "#web/components/ui/button.js";
import { EmptyState, PagedList, SectionHeader } from "../shared";
import { useAdminEmails } from "./api/get-emails";
import { useResendEmail } from "./api/resend-email";
import { EmailListItem } from "./email-list-item";
import { EmailMessageDialog } from "./email-message-dialog";

/**
 * The Emails tab: every message the shop wrote to customers, newest first, with its status. With
 * no SMTP server configured, messages are "captured": kept here instead of sent, readable as the
 * customer would have seen them.
 */
export default function EmailsTab() {
  const emails = useAdminEmails();
  const resend = useResendEmail();
  const [opened, setOpened] = useState<EmailSummary | null>(null);
  const resending = (id: number) => resend.isPending && resend.variables === id;

  return (
    <section aria-labelledby="emails-heading">
      <SectionHeader
        id="emails-heading"
        title="Emails"
        description="Order confirmations, shipping notices and account messages, newest first. Captured messages were kept here because no mail server is set up."
        action={
          <Button variant="outline" onClick={() => emails.refetch()} disabled={emails.isPending || emails.isRefetching}>
            {emails.isRefetching ? "Refreshing..." : "Refresh"}
          </Button>
        }
      />

      <PagedList
        query={emails}
        label="E-mails"
        noun={["message", "messages"]}
        empty={
          <EmptyState title="No e-mails yet">Order confirmations appear here as soon as a customer pays.</EmptyState>
        }
        renderItem={(email) => (
          <EmailListItem
            email={email}
            onOpen={() => setOpened(email)}
            onResend={() => resend.mutate(email.id)}
            resending={resending(email.id)}
          />
        )}
      />

      <EmailMessageDialog
        email={opened}
        onClose={() => setOpened(null)}
        onResend={(email) => resend.mutate(email.id)}
        resending={opened !== null && resending(opened.id)}
      />
    </section>
  );
}
