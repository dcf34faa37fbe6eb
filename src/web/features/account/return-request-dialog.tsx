import { type FormEvent, useId, useState } from "react";
import { RETURN_DETAILS_MAX } from "#domain/limits.js";
import { formatRandText } from "#domain/money.js";
import {
  COOLING_OFF_REASONS,
  type CustomerReason,
  coolingOffLastDay,
  defectLastDay,
  REASONS_WITH_LINES,
  RETURN_REASON_LABELS,
  SHIPPED_ORDER_REASONS,
} from "#domain/returns.js";
import { saDay } from "#domain/sa-calendar.js";
import { formatDate } from "#domain/sa-format.js";
import type { Order } from "#domain/schemas/orders.js";
import type { ReturnRequest } from "#domain/schemas/returns.js";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { errorMessage } from "#web/lib/api.js";
import { orderNumber } from "#web/lib/format.js";
import { useCreateReturn } from "./api/create-return";
import { useOrderReturns } from "./api/get-order-returns";

const HINTS: Record<CustomerReason, string> = {
  changed_mind: "Sealed, unopened packs. You pay only the cost of sending them back; we refund what you paid.",
  wrong_size: "Sealed, unopened packs. We exchange them for the right size or refund them.",
  defective: "Leaks, tears, damage in transit. We pay for the return; you choose a repair, replacement or refund.",
  not_as_ordered: "A different product, size or quantity from what you ordered. We pay for the return.",
  complaint: "Anything else: tell us what went wrong and we answer within 15 business days.",
  cancellation: "",
};

const day = (value: string) => formatDate(`${value}T12:00:00+02:00`);

interface Props {
  order: Order;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * "Return or report a problem" (a shipped order) and "Cancel order" (paid, not shipped): the
 * server says which reasons are open today and how many units of each line can still go back; a
 * closed reason says why and the form offers the routes still open.
 */
export default function ReturnRequestDialog({ order, open, onOpenChange }: Props) {
  const cancelling = order.status === "completed";
  const create = useCreateReturn();
  const [done, setDone] = useState<ReturnRequest | null>(null);
  const title = cancelling
    ? `Cancel order #${orderNumber(order.id)}`
    : order.status === "refunded"
      ? "Report a problem"
      : "Return or report a problem";
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !create.isPending && onOpenChange(next)}
      title={title}
      description={cancelling ? undefined : `Order #${orderNumber(order.id)}`}
      describedBy={cancelling ? "cancel-order-explained" : undefined}
    >
      {done ? (
        <div role="status" className="grid gap-3">
          <p className="text-base font-semibold text-stone-950">We have your request {done.reference}.</p>
          <p className="text-sm text-stone-700">
            We have e-mailed you what happens next, and will settle it by {day(done.deadlineDay)} at the latest. You can
            follow it on this order.
          </p>
          <Button onClick={() => onOpenChange(false)} className="sm:justify-self-end">
            Done
          </Button>
        </div>
      ) : cancelling ? (
        <CancelForm order={order} onDone={setDone} onClose={() => onOpenChange(false)} />
      ) : (
        <ReturnForm order={order} onDone={setDone} onClose={() => onOpenChange(false)} />
      )}
    </Dialog>
  );
}

function CancelForm({
  order,
  onDone,
  onClose,
}: {
  order: Order;
  onDone: (request: ReturnRequest) => void;
  onClose: () => void;
}) {
  const create = useCreateReturn();
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { orderId: order.id, reason: "cancellation" },
      { onSuccess: onDone, onError: (error) => setProblem(errorMessage(error, "We could not send your request.")) },
    );
  };
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <p id="cancel-order-explained" className="text-sm text-stone-700">
        Your order is paid and may already be packed, so cancelling is a request: we stop it before it ships and refund
        everything you paid, {formatRandText(order.total)}, delivery included, within 30 days.
      </p>
      {problem && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-red-900 ring-1 ring-red-200">
          {problem}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose} disabled={create.isPending}>
          Keep my order
        </Button>
        <Button type="submit" variant="danger" disabled={create.isPending}>
          {create.isPending ? "Sending..." : "Ask to cancel the order"}
        </Button>
      </div>
    </form>
  );
}

function ReturnForm({
  order,
  onDone,
  onClose,
}: {
  order: Order;
  onDone: (request: ReturnRequest) => void;
  onClose: () => void;
}) {
  const returns = useOrderReturns(order.id);
  const create = useCreateReturn();
  const [reason, setReason] = useState<CustomerReason | null>(null);
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const [details, setDetails] = useState("");
  const [receivedOn, setReceivedOn] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const detailsId = useId();
  const receivedId = useId();

  if (returns.isPending) {
    return (
      <p role="status" className="text-sm text-stone-600">
        Checking what can be returned...
      </p>
    );
  }
  if (returns.isError) {
    return (
      <p role="alert" className="text-sm text-red-900">
        {errorMessage(returns.error, "We could not check this order. Please try again.")}
      </p>
    );
  }
  const { windows, lines, deliveryDay, deliveryRecorded, sentOn } = returns.data;
  const today = saDay();
  const windowOf = (candidate: CustomerReason) => windows.find((window) => window.reason === candidate);
  const needsLines = reason !== null && REASONS_WITH_LINES.includes(reason);
  // ECTA s44(1): without a recorded delivery the windows count from the day the customer received the goods.
  const asksReceipt = needsLines && !deliveryRecorded;
  const linesLeft = lines.filter((line) => line.available > 0);
  const closed = SHIPPED_ORDER_REASONS.filter((candidate) => !windowOf(candidate)?.open);
  const stillOpen = SHIPPED_ORDER_REASONS.filter((candidate) => windowOf(candidate)?.open);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) return setProblem("Choose what happened.");
    const chosen = needsLines
      ? linesLeft
          .map((line) => ({ lineId: line.lineId, quantity: Number(quantities[line.lineId] ?? 0) }))
          .filter((line) => line.quantity > 0)
      : [];
    if (needsLines && chosen.length === 0) return setProblem("Choose how many units of which product to send back.");
    if (asksReceipt && !receivedOn) return setProblem("Tell us the day you received the goods.");
    if (reason === "complaint" && details.trim().length < 10) {
      return setProblem("Tell us what went wrong (at least 10 characters).");
    }
    setProblem(null);
    create.mutate(
      {
        orderId: order.id,
        reason,
        lines: chosen,
        details: details.trim(),
        ...(asksReceipt ? { receivedOn } : {}),
      },
      { onSuccess: onDone, onError: (error) => setProblem(errorMessage(error, "We could not send your request.")) },
    );
  };

  return (
    <form onSubmit={submit} className="grid gap-5" noValidate>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-semibold text-stone-900">What happened?</legend>
        {SHIPPED_ORDER_REASONS.map((candidate) => {
          const window = windowOf(candidate);
          const isOpen = window?.open ?? false;
          return (
            <label
              key={candidate}
              className={`flex gap-3 rounded-xl border p-3 text-sm ${
                reason === candidate ? "border-brand-700 bg-brand-50" : "border-stone-200"
              } ${isOpen ? "cursor-pointer" : "cursor-not-allowed bg-stone-50 text-stone-500"}`}
            >
              <input
                type="radio"
                name="reason"
                value={candidate}
                checked={reason === candidate}
                disabled={!isOpen}
                onChange={() => setReason(candidate)}
                className="mt-0.5 size-5 accent-brand-700"
              />
              <span className="grid gap-0.5">
                <span className={`font-medium ${isOpen ? "text-stone-900" : "text-stone-600"}`}>
                  {RETURN_REASON_LABELS[candidate]}
                </span>
                <span className={isOpen ? "text-stone-600" : "text-stone-600"}>
                  {isOpen ? HINTS[candidate] : window?.closedBecause}
                  {isOpen && window?.lastDay ? ` Until ${day(window.lastDay)}.` : ""}
                </span>
              </span>
            </label>
          );
        })}
      </fieldset>
      {closed.length > 0 && (
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-950 ring-1 ring-amber-200">
          Some options are closed for this order; each says why.
          {stillOpen.length > 0 &&
            ` Still open: ${stillOpen.map((open) => lowerFirst(RETURN_REASON_LABELS[open])).join(", ")}.`}
        </p>
      )}
      {deliveryRecorded && deliveryDay && (
        <p className="text-xs text-stone-600">Delivered on {day(deliveryDay)}: the days count from then.</p>
      )}
      {asksReceipt && reason && (
        <div>
          <label htmlFor={receivedId} className="block text-sm font-medium text-stone-800">
            When did you receive the goods?
          </label>
          <input
            id={receivedId}
            type="date"
            required
            min={sentOn ?? undefined}
            max={today}
            value={receivedOn}
            onChange={(event) => setReceivedOn(event.target.value)}
            aria-describedby={`${receivedId}-hint`}
            className="mt-1 block min-h-11 rounded-lg border border-stone-300 px-3 text-base focus-visible:outline-2 focus-visible:outline-brand-700"
          />
          <p id={`${receivedId}-hint`} className="mt-1 text-xs text-stone-600">
            {receivedOn
              ? `Counting from ${day(receivedOn)}: ${
                  COOLING_OFF_REASONS.includes(reason)
                    ? `sealed packs until ${day(coolingOffLastDay(receivedOn))}`
                    : `defects until ${day(defectLastDay(receivedOn))}`
                }.`
              : "No delivery date was recorded for this order: the days count from the day the parcel reached you."}
          </p>
        </div>
      )}

      {needsLines && (
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-semibold text-stone-900">Which products, and how many?</legend>
          {linesLeft.length === 0 && (
            <p className="text-sm text-stone-700">Every unit of this order is already in a request.</p>
          )}
          {linesLeft.map((line) => (
            <div
              key={line.lineId}
              className="flex items-center justify-between gap-3 rounded-xl border border-stone-200 p-3"
            >
              <label htmlFor={`line-${line.lineId}`} className="min-w-0 text-sm">
                <span className="block font-medium text-stone-900">{line.name}</span>
                <span className="text-stone-600">
                  {line.size} · {line.available} of {line.bought} can go back
                </span>
              </label>
              <input
                id={`line-${line.lineId}`}
                type="number"
                inputMode="numeric"
                min={0}
                max={line.available}
                value={quantities[line.lineId] ?? "0"}
                onChange={(event) => setQuantities((now) => ({ ...now, [line.lineId]: event.target.value }))}
                className="min-h-11 w-20 shrink-0 rounded-lg border border-stone-300 px-3 text-base tabular-nums focus-visible:outline-2 focus-visible:outline-brand-700"
              />
            </div>
          ))}
        </fieldset>
      )}

      {reason && (
        <div>
          <label htmlFor={detailsId} className="block text-sm font-medium text-stone-800">
            {reason === "complaint" ? "What went wrong?" : "Anything we should know? (optional)"}
          </label>
          <textarea
            id={detailsId}
            value={details}
            maxLength={RETURN_DETAILS_MAX}
            rows={3}
            onChange={(event) => setDetails(event.target.value)}
            className="mt-1 block w-full rounded-lg border border-stone-300 px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-brand-700 sm:text-sm"
          />
        </div>
      )}

      {problem && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-red-900 ring-1 ring-red-200">
          {problem}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending || reason === null}>
          {create.isPending ? "Sending..." : "Send request"}
        </Button>
      </div>
    </form>
  );
}

/** "Not what I ordered" -> "not what I ordered": mid-sentence, without lowering the "I". */
const lowerFirst = (label: string) => label.charAt(0).toLowerCase() + label.slice(1);
