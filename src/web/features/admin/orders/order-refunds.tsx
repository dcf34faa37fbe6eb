import { useState } from "react";
import { formatRandText } from "#domain/money.js";
import { canMoveOrder, REFUNDABLE_STATUSES } from "#domain/order-status.js";
import { formatRecentDateTime } from "#domain/sa-format.js";
import { creditNotePath, invoicePath } from "#domain/tax-documents.js";
import { Button } from "#web/components/ui/button.js";
import { PdfLink } from "#web/components/ui/pdf-link.js";
import { CancelOrderDialog } from "./cancel-order-dialog";
import type { AdminOrder } from "./order-model";
import { RecordRefundDialog } from "./record-refund-dialog";
import { RefundDialog, refundableCents } from "./refund-dialog";

const REFUND_STATUS: Record<AdminOrder["refunds"][number]["status"], string> = {
  requested: "Waiting for PayFast",
  completed: "Refunded",
  failed: "Refused",
};

/** The invoice link and every refund of an order, each completed one with its credit note. */
export function OrderRefunds({ order }: { order: AdminOrder }) {
  if (!order.invoiceNumber && order.refunds.length === 0) return null;
  return (
    <div className="mt-3 grid gap-2 border-t border-stone-100 pt-3 text-sm">
      {order.invoiceNumber && (
        <PdfLink href={invoicePath(order.id)} className="justify-self-start">
          {`Invoice ${order.invoiceNumber}`}
        </PdfLink>
      )}
      {order.refunds.length > 0 && (
        <ul aria-label="Refunds" className="grid gap-2">
          {order.refunds.map((refund) => (
            <li key={refund.id} className="rounded-lg bg-stone-50 px-3 py-2 text-stone-800">
              <p className="flex flex-wrap justify-between gap-2">
                <span>
                  <span className="tabular font-semibold">{formatRandText(refund.amount)}</span> · {refund.reason}
                </span>
                <span className="text-stone-600">
                  {REFUND_STATUS[refund.status]} ·{" "}
                  <time dateTime={refund.createdAt}>{formatRecentDateTime(refund.createdAt)}</time>
                </span>
              </p>
              {refund.madeIn === "payfast_dashboard" && (
                <p className="text-stone-600">
                  Made in PayFast{refund.refundedOn ? ` on ${refund.refundedOn}` : ""}
                  {refund.payfastReference ? ` · PayFast reference ${refund.payfastReference}` : ""}
                </p>
              )}
              {refund.status === "failed" && refund.payfastMessage && (
                <p className="text-red-900">PayFast: {refund.payfastMessage}</p>
              )}
              {refund.creditNoteNumber && (
                <PdfLink href={creditNotePath(order.id, refund.id)}>{`Credit note ${refund.creditNoteNumber}`}</PdfLink>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Cancel (an unpaid order), or Refund and Record a refund made in PayFast (a paid or shipped one
 * with money left to refund), each behind its dialog.
 */
export function OrderMoneyActions({ order }: { order: AdminOrder }) {
  const [open, setOpen] = useState<"cancel" | "refund" | "record" | null>(null);
  if (canMoveOrder(order.status, "cancelled", "admin")) {
    return (
      <>
        <Button variant="danger-outline" onClick={() => setOpen("cancel")}>
          Cancel order
        </Button>
        <CancelOrderDialog
          order={order}
          open={open === "cancel"}
          onOpenChange={(next) => setOpen(next ? "cancel" : null)}
        />
      </>
    );
  }
  if (!REFUNDABLE_STATUSES.includes(order.status) || refundableCents(order) === 0) return null;
  return (
    <>
      <Button variant="danger-outline" onClick={() => setOpen("refund")}>
        Refund
      </Button>
      <Button variant="outline" onClick={() => setOpen("record")}>
        Record a refund made in PayFast
      </Button>
      {open === "refund" && (
        <RefundDialog order={order} open onOpenChange={(next) => setOpen(next ? "refund" : null)} />
      )}
      {open === "record" && (
        <RecordRefundDialog order={order} open onOpenChange={(next) => setOpen(next ? "record" : null)} />
      )}
    </>
  );
}
