import { useState } from "react";
import type { EmailSummary } from "../../../domain/schemas/emails";
import { Button } from "../../components/ui/button";
import { useAdminEmails } from "./api/get-emails";
import { useResendEmail } from "./api/resend-email";
import { EmailListItem } from "./email-list-item";
import { EmailMessageDialog } from "./email-message-dialog";
import { EmptyState, LoadError, LoadingRows, Panel, SectionHeader } from "./ui";

/**
 * The Emails tab: every message the shop wrote to customers, newest first, with its status. With
 * no SMTP server configured, messages are "captured": kept here instead of sent, readable as the
 * customer would have seen them.
 */
export default function EmailsTab() {
  const {
    data: emails,
    isPending,
    isError,
    refetch,
    isRefetching,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage,
  } = useAdminEmails();
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
          <Button variant="outline" onClick={() => refetch()} disabled={isPending || isRefetching}>
            {isRefetching ? "Refreshing..." : "Refresh"}
          </Button>
        }
      />

      {isPending ? (
        <LoadingRows label="Loading e-mails" />
      ) : isError ? (
        <LoadError what="the e-mails" onRetry={() => refetch()} />
      ) : emails.length === 0 ? (
        <EmptyState title="No e-mails yet">Order confirmations appear here as soon as a customer pays.</EmptyState>
      ) : (
        <>
          <Panel>
            <ul aria-label="E-mails" className="divide-y divide-stone-100">
              {emails.map((email) => (
                <li key={email.id}>
                  <EmailListItem
                    email={email}
                    onOpen={() => setOpened(email)}
                    onResend={() => resend.mutate(email.id)}
                    resending={resending(email.id)}
                  />
                </li>
              ))}
            </ul>
          </Panel>
          <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-stone-600">
              {emails.length} {emails.length === 1 ? "message" : "messages"} shown
            </p>
            {hasNextPage && (
              <Button variant="outline" onClick={() => fetchNextPage()} disabled={isFetchingNextPage}>
                {isFetchingNextPage ? "Loading..." : "Load more"}
              </Button>
            )}
          </div>
        </>
      )}

      <EmailMessageDialog
        email={opened}
        onClose={() => setOpened(null)}
        onResend={(email) => resend.mutate(email.id)}
        resending={opened !== null && resending(opened.id)}
      />
    </section>
  );
}
