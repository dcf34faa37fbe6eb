import { useState } from "react";
import { PAYFAST_REFERENCE_MAX, REASON_MAX } from "#domain/limits.js";
import { centsToDecimal, formatRand, parseRandToCents } from "#domain/money.js";
import { orderNumber } from "#domain/order-status.js";
import { saDay } from "#domain/sa-calendar.js";
import { TextField } from "#web/components/ui/text-field.js";
import { errorMessage } from "#web/lib/api.js";
import { useRecordRefund } from "./api/record-refund";
import { type OrderDialogProps, OrderFormDialog } from "./order-form-dialog";
import { refundableCents } from "./refund-dialog";

/**
 * Record a refund made in PayFast: the admin refunded in PayFast's dashboard (a payment PayFast can
 * only refund to a bank account, or a refund PayFast's history shows); the amount, the day and
 * PayFast's reference, as PayFast shows them. The shop books it as its own refunds: credit note,
 * status, the customer's e-mail. Nothing is sent to PayFast.
 */
export function RecordRefundDialog({ order, open, onOpenChange }: OrderDialogProps) {
  const record = useRecordRefund();
  const left = refundableCents(order);
  // The most recent day a refund can have been made.
  const today = saDay();
  const [amount, setAmount] = useState(centsToDecimal(left));
  const [refundedOn, setRefundedOn] = useState(today);
  const [reference, setReference] = useState("");
  const [reason, setReason] = useState("");
  const [restock, setRestock] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    const amountCents = parseRandToCents(amount.replace(/^R/i, "").replaceAll(",", ""));
    if (amountCents === null || amountCents < 1) return setProblem("Enter an amount in rand, such as 49.99.");
    if (amountCents > left) return setProblem(`At most ${formatRand(left)} is left to refund.`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(refundedOn)) return setProblem("Enter the day the refund was made.");
    if (refundedOn > today) return setProblem("The day cannot be in the future.");
    if (!reference.trim()) return setProblem("Enter PayFast's reference for the refund.");
    if (reason.trim().length < 3) return setProblem("Give a reason of at least 3 characters.");
    setProblem(null);
    record.mutate(
      {
        id: order.id,
        amountCents,
        refundedOn,
        payfastReference: reference.trim(),
        reason: reason.trim(),
        restock,
      },
      {
        onSuccess: () => onOpenChange(false),
        onError: (error) => setProblem(errorMessage(error, "The refund could not be recorded. Please try again.")),
      },
    );
  };

  return (
    <OrderFormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Record a refund made in PayFast for order #${orderNumber(order.id)}`}
      description={`For a refund you made in your PayFast dashboard. Nothing is sent to PayFast: the shop issues the credit note and e-mails the customer. ${formatRand(left)} is left to refund.`}
      pending={record.isPending}
      problem={problem}
      onSubmit={submit}
      submitLabel="Record refund"
      pendingLabel="Recording..."
    >
      <TextField
        label="Amount refunded (R)"
        value={amount}
        inputMode="decimal"
        autoComplete="off"
        required
        onChange={(event) => setAmount(event.target.value)}
      />
      <TextField
        label="Day of the refund"
        type="date"
        value={refundedOn}
        max={today}
        required
        onChange={(event) => setRefundedOn(event.target.value)}
      />
      <TextField
        label="PayFast's reference"
        value={reference}
        maxLength={PAYFAST_REFERENCE_MAX}
        autoComplete="off"
        required
        hint="As PayFast's dashboard shows the refund."
        onChange={(event) => setReference(event.target.value)}
      />
      <TextField
        label="Reason"
        value={reason}
        maxLength={REASON_MAX}
        autoComplete="off"
        required
        hint="Printed on the credit note the customer receives."
        onChange={(event) => setReason(event.target.value)}
      />
      <label className="flex min-h-11 items-center gap-3 text-sm text-stone-800">
        <input
          type="checkbox"
          checked={restock}
          onChange={(event) => setRestock(event.target.checked)}
          className="size-5 accent-brand-700"
        />
        Put the items back in stock (they came back unopened)
      </label>
    </OrderFormDialog>
  );
}
