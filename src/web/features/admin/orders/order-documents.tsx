import { useState } from "react";
import { COMPANY_NAME_MAX, REASON_MAX } from "#domain/limits.js";
import { orderNumber } from "#domain/order-status.js";
import { formatDateTime } from "#domain/sa-format.js";
import type { AdminOrderDetail } from "#domain/schemas/admin-orders.js";
import { formatVatRate, VAT_CLASS_LABELS } from "#domain/vat.js";
import { Button } from "#web/components/ui/button.js";
import { PdfLink } from "#web/components/ui/pdf-link.js";
import { TextField } from "#web/components/ui/text-field.js";
import { errorMessage } from "#web/lib/api.js";
import { Panel } from "../shared";
import { useCorrectInvoice } from "./api/correct-invoice";
import { OrderFormDialog } from "./order-form-dialog";
import { orderLines } from "./order-model";

/** Each line's VAT class and rate as stored when it was sold, and the delivery fee's: what the tax invoice shows. */
export function OrderLineVat({ detail }: { detail: AdminOrderDetail }) {
  const lines = orderLines(detail.order.items);
  return (
    <Panel className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">VAT class and rate of each line</caption>
        <thead className="bg-stone-50 text-stone-700">
          <tr>
            <th scope="col" className="px-4 py-2 font-semibold">
              Line
            </th>
            <th scope="col" className="px-4 py-2 font-semibold">
              VAT class
            </th>
            <th scope="col" className="px-4 py-2 text-right font-semibold">
              Rate
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100 text-stone-800">
          {lines.map((line, index) => {
            const vat = detail.lineVat[index];
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines may repeat a name and size
              <tr key={index}>
                <th scope="row" className="px-4 py-2 font-normal">
                  {line.name}
                  {line.size && <span className="text-stone-600"> ({line.size})</span>}
                </th>
                <td className="px-4 py-2">{vat ? VAT_CLASS_LABELS[vat.vatClass] : "Not recorded"}</td>
                <td className="tabular px-4 py-2 text-right">{vat ? formatVatRate(vat.vatRateBp) : ""}</td>
              </tr>
            );
          })}
          <tr>
            <th scope="row" className="px-4 py-2 font-normal">
              Delivery
            </th>
            <td className="px-4 py-2">{VAT_CLASS_LABELS.standard}</td>
            <td className="tabular px-4 py-2 text-right">{formatVatRate(detail.deliveryVatRateBp)}</td>
          </tr>
        </tbody>
      </table>
    </Panel>
  );
}

/**
 * The order's invoices and credit notes as issued (docs/decisions/035): each download is counted,
 * and any after the first is marked "Copy". A corrected invoice names the one it replaces.
 */
export function OrderDocuments({ detail }: { detail: AdminOrderDetail }) {
  const [correcting, setCorrecting] = useState(false);
  const hasInvoice = detail.order.invoiceNumber !== null;
  return (
    <div className="grid gap-2">
      {detail.documents.length === 0 ? (
        <p className="text-sm text-stone-700">
          {hasInvoice
            ? "The invoice is stored as issued the first time it is downloaded (it was issued before documents were stored)."
            : "The invoice is issued when the order is paid."}
        </p>
      ) : (
        <Panel>
          <ul aria-label="Tax documents" className="divide-y divide-stone-100">
            {detail.documents.map((document) => (
              <li key={document.number} className="grid gap-1 px-4 py-2 text-sm sm:grid-cols-[minmax(0,1fr)_auto]">
                <div>
                  <PdfLink href={document.url}>
                    {`${document.kind === "invoice" ? "Invoice" : "Credit note"} ${document.number}`}
                  </PdfLink>
                  {document.replaces && (
                    <p className="text-stone-700">Corrected invoice: replaces {document.replaces}</p>
                  )}
                </div>
                <p className="text-stone-600 sm:text-right">
                  Issued {formatDateTime(document.issuedAt)}
                  {document.frozen === "first_use" && " (stored at its first download)"}
                  <br />
                  {document.downloads === 0
                    ? "Not downloaded yet"
                    : `Downloaded ${document.downloads} ${document.downloads === 1 ? "time" : "times"}; later downloads say "Copy"`}
                </p>
              </li>
            ))}
          </ul>
        </Panel>
      )}
      {hasInvoice && (
        <div>
          <Button variant="outline" onClick={() => setCorrecting(true)}>
            Issue a corrected invoice
          </Button>
        </div>
      )}
      {correcting && <CorrectInvoiceDialog detail={detail} onClose={() => setCorrecting(false)} />}
    </div>
  );
}

/**
 * A corrected invoice on the customer's request (VAT Act s20(1B)): the buyer's particulars or the
 * shop's details as set today. The amounts never change here: that is a credit note.
 */
function CorrectInvoiceDialog({ detail, onClose }: { detail: AdminOrderDetail; onClose: () => void }) {
  const { order } = detail;
  const correct = useCorrectInvoice(order.id);
  const [reason, setReason] = useState("");
  const [companyName, setCompanyName] = useState(order.companyName ?? "");
  const [vatNumber, setVatNumber] = useState(order.vatNumber ?? "");
  const [current, setCurrent] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    if (reason.trim().length < 3) return setProblem("Say what the customer asked to correct (at least 3 characters).");
    setProblem(null);
    correct.mutate(
      {
        reason: reason.trim(),
        companyName: companyName.trim(),
        vatNumber: vatNumber.trim(),
        sellerDetails: current ? "current" : "keep",
      },
      {
        onSuccess: onClose,
        onError: (error) => setProblem(errorMessage(error, "The corrected invoice was not issued. Please try again.")),
      },
    );
  };

  return (
    <OrderFormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Corrected invoice for order #${orderNumber(order.id)}`}
      description="A new invoice number that names the invoice it replaces; the date of supply, lines and amounts stay as they were. The replaced invoice stays readable."
      pending={correct.isPending}
      problem={problem}
      onSubmit={submit}
      submitLabel="Issue corrected invoice"
      pendingLabel="Issuing..."
    >
      <TextField
        label="What the customer asked to correct"
        value={reason}
        maxLength={REASON_MAX}
        autoComplete="off"
        required
        hint="Printed on the corrected invoice."
        onChange={(event) => setReason(event.target.value)}
      />
      <TextField
        label="Buyer's company name"
        value={companyName}
        maxLength={COMPANY_NAME_MAX}
        autoComplete="off"
        hint="Leave empty for none."
        onChange={(event) => setCompanyName(event.target.value)}
      />
      <TextField
        label="Buyer's VAT number"
        value={vatNumber}
        inputMode="numeric"
        maxLength={10}
        autoComplete="off"
        hint="10 digits starting with 4; leave empty for none."
        onChange={(event) => setVatNumber(event.target.value)}
      />
      <label className="flex min-h-11 items-center gap-3 text-sm text-stone-800">
        <input
          type="checkbox"
          checked={current}
          onChange={(event) => setCurrent(event.target.checked)}
          className="size-5 accent-brand-700"
        />
        Print the shop's name, address and contacts as set today
      </label>
    </OrderFormDialog>
  );
}
