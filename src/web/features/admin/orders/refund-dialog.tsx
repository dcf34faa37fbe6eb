import { useState } from "react";
import { centsToDecimal, formatRand, parseRandToCents } from "#domain/money.js";
import { orderNumber } from "#domain/order-status.js";
import { refundableCents as refundLeft } from "#domain/refunds.js";
import { TextField } from "#web/components/ui/text-field.js";
import { errorMessage } from "#web/lib/api.js";
import { useRefundOrder } from "./api/refund-order";
import { type OrderDialogProps, OrderFormDialog } from "./order-form-dialog";
import type { AdminOrder } from "./order-model";

/** What is left to refund of an order (the rule: src/domain/refunds.ts), from its wire figures. */
export function refundableCents(order: Pick<AdminOrder, "total" | "refunded">): number {
  return refundLeft(parseRandToCents(order.total) ?? 0, parseRandToCents(order.refunded) ?? 0);
}

/**
 * Refund: an amount (all that is left, to start with), a reason the customer reads on the credit
 * note, and whether the units go back on the shelf. PayFast's refusal is shown here, word for word.
 */
export function RefundDialog({ order, open, onOpenChange }: OrderDialogProps) {
  const refund = useRefundOrder();
  const left = refundableCents(order);
  const [amount, setAmount] = useState(centsToDecimal(left));
  const [reason, setReason] = useState("");
  const [restock, setRestock] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    const amountCents = parseRandToCents(amount.replace(/^R/i, "").replaceAll(",", ""));
    if (amountCents === null || amountCents < 1) return setProblem("Enter an amount in rand, such as 49.99.");
    if (amountCents > left) return setProblem(`At most ${formatRand(left)} is left to refund.`);
    if (reason.trim().length < 3) return setProblem("Give a reason of at least 3 characters.");
    setProblem(null);
    refund.mutate(
      { id: order.id, amountCents, reason: reason.trim(), restock },
      {
        onSuccess: () => onOpenChange(false),
        onError: (error) => setProblem(errorMessage(error, "The refund failed. Please try again.")),
      },
    );
  };

  return (
    <OrderFormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Refund order #${orderNumber(order.id)}`}
      description={`PayFast returns the money to the card or account that paid. ${formatRand(left)} of ${formatRand(parseRandToCents(order.total) ?? 0)} is left to refund.`}
      pending={refund.isPending}
      problem={problem}
      onSubmit={submit}
      submitLabel="Refund through PayFast"
      pendingLabel="Refunding..."
      danger
    >
      <TextField
        label="Amount (R)"
        value={amount}
        inputMode="decimal"
        autoComplete="off"
        required
        onChange={(event) => setAmount(event.target.value)}
      />
      <TextField
        label="Reason"
        value={reason}
        maxLength={255}
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
