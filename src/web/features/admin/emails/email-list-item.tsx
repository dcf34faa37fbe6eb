import { formatDateTime } from "#domain/sa-format.js";
import {
  EMAIL_KIND_LABELS,
  EMAIL_STATUS_LABELS,
  type EmailStatusName,
  type EmailSummary,
} from "#domain/schemas/emails.js";
import { Button } from "#web/components/ui/button.js";

const STATUS_CLASSES: Record<EmailStatusName, { badge: string; dot: string }> = {
  captured: { badge: "bg-brand-50 text-brand-900 ring-brand-300", dot: "bg-brand-700" },
  queued: { badge: "bg-blue-100 text-blue-900 ring-blue-300", dot: "bg-blue-600" },
  sent: { badge: "bg-green-100 text-green-900 ring-green-300", dot: "bg-green-600" },
  retrying: { badge: "bg-amber-100 text-amber-900 ring-amber-300", dot: "bg-amber-500" },
  failed: { badge: "bg-red-100 text-red-900 ring-red-300", dot: "bg-red-600" },
};

/** A message's status in words and colour: Captured, Queued, Sent, Retrying, Failed. */
export function EmailStatusBadge({ status }: { status: EmailStatusName }) {
  const classes = STATUS_CLASSES[status];
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${classes.badge}`}
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${classes.dot}`} />
      {EMAIL_STATUS_LABELS[status]}
    </span>
  );
}

/** When a message was sent (or captured), or when it was written while it waits. */
function whenText(email: EmailSummary): { label: string; at: string } {
  if (email.sentAt) return { label: email.status === "captured" ? "Captured" : "Sent", at: email.sentAt };
  return { label: "Written", at: email.createdAt };
}

/** One message of the outbox: recipient, subject, kind, status, when and attempts, with View and Resend. */
export function EmailListItem({
  email,
  onOpen,
  onResend,
  resending,
}: {
  email: EmailSummary;
  onOpen: () => void;
  onResend: () => void;
  resending: boolean;
}) {
  const headingId = `email-${email.id}`;
  const when = whenText(email);
  const showError = (email.status === "retrying" || email.status === "failed") && email.lastError;
  return (
    <article
      aria-labelledby={headingId}
      className="grid gap-x-4 gap-y-2 p-3 sm:p-4 md:grid-cols-[minmax(0,1fr)_auto] md:items-center"
    >
      <div className="min-w-0">
        <div className="flex flex-wrap items-start justify-between gap-2 md:justify-start">
          <h3 id={headingId} className="min-w-0 font-semibold break-words text-stone-900">
            {email.subject}
          </h3>
          <EmailStatusBadge status={email.status} />
        </div>
        <p className="mt-1 text-sm break-all text-stone-700">To {email.to}</p>
        <p className="mt-0.5 text-xs text-stone-600">
          {EMAIL_KIND_LABELS[email.kind]}
          <span aria-hidden="true"> · </span>
          {when.label} <time dateTime={when.at}>{formatDateTime(when.at)}</time>
          <span aria-hidden="true"> · </span>
          <span className="tabular">
            {email.attempts} {email.attempts === 1 ? "attempt" : "attempts"}
          </span>
          {email.status === "retrying" && email.nextAttemptAt && (
            <>
              <span aria-hidden="true"> · </span>
              Next try <time dateTime={email.nextAttemptAt}>{formatDateTime(email.nextAttemptAt)}</time>
            </>
          )}
        </p>
        {showError && (
          <p
            className={`mt-1.5 rounded-md px-2 py-1 text-xs break-words ${
              email.status === "failed" ? "bg-red-50 text-red-900" : "bg-amber-50 text-amber-950"
            }`}
          >
            <span className="font-semibold">Last error:</span> {email.lastError}
          </p>
        )}
      </div>
      <div className="grid grid-cols-2 gap-2 md:flex">
        <Button variant="outline" size="sm" onClick={onOpen} aria-describedby={headingId}>
          View
        </Button>
        <Button variant="secondary" size="sm" onClick={onResend} disabled={resending} aria-describedby={headingId}>
          {resending ? "Resending..." : "Resend"}
        </Button>
      </div>
    </article>
  );
}
