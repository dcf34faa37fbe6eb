import { DocumentIcon } from "./icons";

/** A link to one of the shop's PDFs (an invoice, a credit note), opened in a new tab; its name says what it is. */
export function PdfLink({ href, children, className = "" }: { href: string; children: string; className?: string }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener"
      className={`inline-flex min-h-11 items-center gap-1.5 font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900 ${className}`}
    >
      <DocumentIcon className="size-4 shrink-0" />
      {children}
      <span className="sr-only"> (PDF, opens in a new tab)</span>
    </a>
  );
}
