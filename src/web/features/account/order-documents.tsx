import { formatRandText } from "#domain/money.js";
import { formatDateTime } from "#domain/sa-format.js";
import type { Order } from "#domain/schemas/orders.js";
import { creditNotePath, invoicePath } from "#domain/tax-documents.js";
import { PdfLink } from "#web/components/ui/pdf-link.js";

/** The invoice of a paid order, and what the shop refunded with each credit note. */
export function OrderDocuments({ order }: { order: Order }) {
  const refunds = order.refunds.filter((refund) => refund.status === "completed");
  if (!order.invoiceNumber && refunds.length === 0) return null;
  return (
    <div className="mt-3 grid gap-2 text-sm">
      {refunds.length > 0 && (
        <ul aria-label="Refunds" className="grid gap-2">
          {refunds.map((refund) => (
            <li key={refund.id} className="rounded-xl bg-violet-50 px-3 py-2 text-stone-800 ring-1 ring-violet-100">
              <p>
                Refunded <span className="tabular font-semibold">{formatRandText(refund.amount)}</span> on{" "}
                <time dateTime={refund.createdAt}>{formatDateTime(refund.createdAt)}</time>: {refund.reason}
              </p>
              {refund.creditNoteNumber && (
                <PdfLink href={creditNotePath(order.id, refund.id)}>{`Credit note ${refund.creditNoteNumber}`}</PdfLink>
              )}
            </li>
          ))}
        </ul>
      )}
      {order.invoiceNumber && (
        <PdfLink href={invoicePath(order.id)} className="justify-self-start">
          {`Invoice ${order.invoiceNumber}`}
        </PdfLink>
      )}
    </div>
  );
}
