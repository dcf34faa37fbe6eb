import { Tabs } from "radix-ui";
import { formatDateTime } from "#domain/sa-format.js";
import { EMAIL_KIND_LABELS, type EmailSummary } from "#domain/schemas/emails.js";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { LoadError } from "../shared";
import { emailHtmlUrl, useAdminEmail } from "./api/get-email";
import { EmailStatusBadge } from "./email-list-item";

const tabTriggerClass =
  "min-h-11 rounded-md px-3 text-sm font-semibold text-stone-700 transition-colors duration-150 hover:text-stone-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow-sm";

/**
 * One message as the customer sees it: its HTML in a sandboxed iframe (no script, no forms, no
 * same-origin access; the server adds a CSP of its own), and its plain-text part.
 */
export function EmailMessageDialog({
  email,
  onClose,
  onResend,
  resending,
}: {
  email: EmailSummary | null;
  onClose: () => void;
  onResend: (email: EmailSummary) => void;
  resending: boolean;
}) {
  const message = useAdminEmail(email?.id ?? null);
  // The list's copy until the message loads; then the message's own (fresher after a resend).
  const current = message.data ?? email;
  return (
    <Dialog
      open={email !== null}
      onOpenChange={(open) => !open && onClose()}
      size="lg"
      title={email?.subject ?? ""}
      titleClassName="text-lg font-bold break-words text-stone-950"
      description={
        email ? (
          <>
            <span className="break-all">To {email.to}</span>
            <span aria-hidden="true"> · </span>
            {EMAIL_KIND_LABELS[email.kind]}
            <span aria-hidden="true"> · </span>
            <time dateTime={email.createdAt}>{formatDateTime(email.createdAt)}</time>
          </>
        ) : undefined
      }
    >
      {email && current && (
        <div className="grid gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <EmailStatusBadge status={current.status} />
            <Button variant="secondary" size="sm" onClick={() => onResend(email)} disabled={resending}>
              {resending ? "Resending..." : "Resend"}
            </Button>
          </div>
          {current.lastError && (current.status === "retrying" || current.status === "failed") && (
            <p
              className={`rounded-md px-3 py-2 text-sm break-words ${
                current.status === "failed" ? "bg-red-50 text-red-900" : "bg-amber-50 text-amber-950"
              }`}
            >
              <span className="font-semibold">Last error:</span> {current.lastError}
            </p>
          )}
          <Tabs.Root defaultValue="html">
            <Tabs.List
              aria-label="Show the message as"
              className="grid grid-cols-2 gap-1 rounded-lg bg-stone-100 p-1 sm:inline-grid"
            >
              <Tabs.Trigger value="html" className={tabTriggerClass}>
                Formatted
              </Tabs.Trigger>
              <Tabs.Trigger value="text" className={tabTriggerClass}>
                Plain text
              </Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="html" className="pt-3 focus-visible:outline-none">
              <iframe
                // Loaded again when the message is (after a resend it may have been captured afresh).
                key={message.dataUpdatedAt}
                title={`E-mail: ${email.subject}`}
                src={emailHtmlUrl(email.id)}
                sandbox=""
                referrerPolicy="no-referrer"
                className="block h-[60dvh] min-h-80 w-full rounded-lg border border-stone-200 bg-white"
              />
            </Tabs.Content>
            <Tabs.Content value="text" className="pt-3 focus-visible:outline-none">
              {message.isError ? (
                <LoadError what="the message" onRetry={() => message.refetch()} />
              ) : message.data ? (
                <pre className="max-h-[60dvh] overflow-auto rounded-lg border border-stone-200 bg-stone-50 p-3 font-mono text-[13px] leading-relaxed whitespace-pre-wrap break-words text-stone-900">
                  {message.data.text}
                </pre>
              ) : (
                <div
                  role="status"
                  aria-label="Loading the message"
                  className="skeleton h-48 rounded-lg bg-stone-200/70"
                />
              )}
            </Tabs.Content>
          </Tabs.Root>
        </div>
      )}
    </Dialog>
  );
}
