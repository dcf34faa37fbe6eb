import { useState } from "react";
import { REASON_MAX } from "#domain/limits.js";
import { centsToDecimal, formatRand, parseRandToCents } from "#domain/money.js";
import { orderNumber } from "#domain/order-status.js";
import { type CreditableLine, unitsValueCents } from "#domain/refund-lines.js";
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
 * The order's lines as a refund of chosen lines sees them, from what earlier refunds recorded
 * (docs/decisions/036); the server checks again and decides. Lines without an id cannot be chosen.
 */
export function creditableLines(order: Pick<AdminOrder, "items" | "refunds">): CreditableLine[] {
  const done = order.refunds.filter((refund) => refund.status === "completed");
  return order.items.flatMap((item) => {
    if (item.lineId === undefined) return [];
    const credited = done.flatMap((refund) => refund.lines ?? []).filter((line) => line.lineId === item.lineId);
    return [
      {
        orderItemId: item.lineId,
        label: `${item.name} (${item.size})`,
        quantity: item.quantity,
        // Less its shares of a promo code and of a multi-buy saving: what the line sold for.
        paidCents:
          (parseRandToCents(item.price) ?? 0) * item.quantity -
          (parseRandToCents(item.discount ?? "0") ?? 0) -
          (parseRandToCents(item.multibuyDiscount ?? "0") ?? 0),
        creditedCents: credited.reduce((sum, line) => sum + (parseRandToCents(line.amount) ?? 0), 0),
        creditedUnits: credited.reduce((sum, line) => sum + line.quantity, 0),
      },
    ];
  });
}

/** What is left of the delivery fee to refund, from what earlier refunds recorded. */
function deliveryLeftCents(order: Pick<AdminOrder, "deliveryFee" | "refunds">): number {
  const credited = order.refunds
    .filter((refund) => refund.status === "completed")
    .reduce((sum, refund) => sum + (parseRandToCents(refund.delivery ?? "0") ?? 0), 0);
  return Math.max((parseRandToCents(order.deliveryFee) ?? 0) - credited, 0);
}

/**
 * Refund: what it credits (docs/decisions/036) - the units that came back and the delivery fee,
 * refunded at their price, or an amount spread over the order (a goodwill refund), as the admin
 * chooses - a reason the customer reads on the credit note, and whether the units go back on the
 * shelf. PayFast's refusal is shown here, word for word.
 */
export function RefundDialog({ order, open, onOpenChange }: OrderDialogProps) {
  const refund = useRefundOrder();
  const left = refundableCents(order);
  const lines = creditableLines(order);
  const deliveryLeft = deliveryLeftCents(order);
  const [credits, setCredits] = useState<"lines" | "spread">(lines.length > 0 ? "lines" : "spread");
  const [units, setUnits] = useState<Record<number, string>>({});
  const [delivery, setDelivery] = useState(false);
  const [amount, setAmount] = useState(centsToDecimal(left));
  const [reason, setReason] = useState("");
  const [restock, setRestock] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const chosen = lines.flatMap((line) => {
    const quantity = Number(units[line.orderItemId] ?? "0");
    return quantity > 0 ? [{ line, quantity }] : [];
  });
  const linesCents =
    chosen.reduce(
      (sum, { line, quantity }) => sum + unitsValueCents(line, Math.min(quantity, line.quantity - line.creditedUnits)),
      0,
    ) + (delivery ? deliveryLeft : 0);

  const submitLines = () => {
    const bad = chosen.find(
      ({ line, quantity }) => !Number.isInteger(quantity) || quantity > line.quantity - line.creditedUnits,
    );
    if (bad) {
      return setProblem(`${bad.line.label}: at most ${bad.line.quantity - bad.line.creditedUnits} can be refunded.`);
    }
    if (chosen.length === 0 && !delivery) return setProblem("Choose the units that came back, or the delivery fee.");
    if (reason.trim().length < 3) return setProblem("Give a reason of at least 3 characters.");
    setProblem(null);
    refund.mutate(
      {
        id: order.id,
        lines: chosen.map(({ line, quantity }) => ({ orderItemId: line.orderItemId, quantity })),
        ...(delivery ? { deliveryCents: deliveryLeft } : {}),
        reason: reason.trim(),
        restock,
      },
      {
        onSuccess: () => onOpenChange(false),
        onError: (error) => setProblem(errorMessage(error, "The refund failed. Please try again.")),
      },
    );
  };

  const submit = () => {
    if (credits === "lines") return submitLines();
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
      {lines.length > 0 && (
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium text-stone-800">What does this refund credit?</legend>
          {(
            [
              ["lines", "The items that came back, at their price"],
              ["spread", "An amount spread over the whole order (goodwill)"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex min-h-11 items-center gap-3 text-sm text-stone-800">
              <input
                type="radio"
                name="credits"
                value={value}
                checked={credits === value}
                onChange={() => setCredits(value)}
                className="size-5 accent-brand-700"
              />
              {label}
            </label>
          ))}
        </fieldset>
      )}
      {credits === "lines" ? (
        <div className="grid gap-3">
          {lines.map((line) => {
            const unitsLeft = line.quantity - line.creditedUnits;
            return (
              <TextField
                key={line.orderItemId}
                label={`Units of ${line.label}`}
                value={units[line.orderItemId] ?? ""}
                inputMode="numeric"
                autoComplete="off"
                placeholder="0"
                disabled={unitsLeft <= 0}
                hint={`${unitsLeft} of ${line.quantity} left to refund`}
                onChange={(event) => setUnits({ ...units, [line.orderItemId]: event.target.value.trim() })}
              />
            );
          })}
          {deliveryLeft > 0 && (
            <label className="flex min-h-11 items-center gap-3 text-sm text-stone-800">
              <input
                type="checkbox"
                checked={delivery}
                onChange={(event) => setDelivery(event.target.checked)}
                className="size-5 accent-brand-700"
              />
              Refund the delivery fee ({formatRand(deliveryLeft)})
            </label>
          )}
          <p className="text-sm text-stone-800" aria-live="polite">
            Refunds <span className="tabular font-semibold">{formatRand(linesCents)}</span>; the credit note credits
            these lines at their own VAT rates.
          </p>
        </div>
      ) : (
        <TextField
          label="Amount (R)"
          value={amount}
          inputMode="decimal"
          autoComplete="off"
          required
          hint="Credited in proportion over what is left of every line and the delivery fee."
          onChange={(event) => setAmount(event.target.value)}
        />
      )}
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
