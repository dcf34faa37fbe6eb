import { useState } from "react";
import { Link } from "wouter";
import { RETURN_NOTE_MAX } from "#domain/limits.js";
import { formatRand, formatRandText, parseRandToCents } from "#domain/money.js";
import {
  COOLING_OFF_REASONS,
  canExchange,
  canMoveRequest,
  DEADLINE_LABELS,
  declineRefusal,
  REASONS_WITH_LINES,
  RECEIPT_BASIS_LABELS,
  RETURN_REASON_LABELS,
  RETURN_STATUS_LABELS,
  WHOLE_ORDER_REASONS,
} from "#domain/returns.js";
import { daysBetween, saDay } from "#domain/sa-calendar.js";
import { formatDate, formatRecentDateTime } from "#domain/sa-format.js";
import type { AdminReturnRequest } from "#domain/schemas/returns.js";
import { Button, buttonClass } from "#web/components/ui/button.js";
import { TextField } from "#web/components/ui/text-field.js";
import { errorMessage } from "#web/lib/api.js";
import { confirmBeforeDownload, EmptyState, inputClass, LoadError, LoadingRows, SectionHeader } from "../shared";
import { type ReturnListStatus, useReturns } from "./api/get-returns";
import { type ReturnStep, useUpdateReturn } from "./api/update-return";
import { OrderFormDialog } from "./order-form-dialog";

const LISTS: { value: ReturnListStatus; label: string }[] = [
  { value: "open", label: "Open" },
  { value: "closed", label: "Closed" },
  { value: "all", label: "All" },
];

/**
 * The Requests tab (docs/returns.md): returns, cancellations, complaints and paid orders the shop
 * cannot fill, oldest first, each with its legal deadline counting down, and the steps it allows.
 */
export default function RequestsTab() {
  const [list, setList] = useState<ReturnListStatus>("open");
  const returns = useReturns(list);
  return (
    <section aria-labelledby="requests-heading">
      <SectionHeader
        id="requests-heading"
        title="Requests"
        description="Returns, cancellations and complaints, oldest first. Refund an ECTA cancellation within 30 days; resolve a complaint within 15 business days, before the CGSO may take it."
        action={
          <a
            href="/api/admin/returns/register.csv"
            className={buttonClass({ variant: "outline" })}
            download
            // Customers' names, e-mails and words: stepped up like the orders export.
            onClick={confirmBeforeDownload}
          >
            Download complaints register (CSV)
          </a>
        }
      />
      <fieldset className="mb-4 flex flex-wrap gap-2">
        <legend className="sr-only">Which requests</legend>
        {LISTS.map((option) => (
          <Button
            key={option.value}
            size="sm"
            variant={list === option.value ? "secondary" : "outline"}
            aria-pressed={list === option.value}
            onClick={() => setList(option.value)}
          >
            {option.label}
          </Button>
        ))}
      </fieldset>
      {returns.isPending ? (
        <LoadingRows label="Loading requests" />
      ) : returns.isError ? (
        <LoadError what="the requests" onRetry={() => void returns.refetch()} />
      ) : returns.data.length === 0 ? (
        <EmptyState title={list === "open" ? "No open requests" : "No requests"}>
          Customers ask from their order history; a paid order the shop cannot fill appears here by itself.
        </EmptyState>
      ) : (
        <ol className="grid gap-3">
          {returns.data.map((request) => (
            <li key={request.id}>
              <RequestCard request={request} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** "12 days left", "Due today", "Overdue by 3 days": what the deadline's last day means today. */
function Countdown({ request }: { request: AdminReturnRequest }) {
  if (request.closedAt) return <span className="text-stone-600">Closed {formatDate(request.closedAt)}</span>;
  const left = daysBetween(saDay(new Date()), request.deadlineDay);
  const tone =
    left < 0
      ? "bg-red-100 text-red-900 ring-red-300"
      : left <= 3
        ? "bg-amber-100 text-amber-950 ring-amber-300"
        : "bg-stone-100 text-stone-800 ring-stone-300";
  const words =
    left < 0
      ? `Overdue by ${-left} day${left === -1 ? "" : "s"}`
      : left === 0
        ? "Due today"
        : `${left} day${left === 1 ? "" : "s"} left`;
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tone}`}>
      {words}
    </span>
  );
}

/** One order's requests, for the order's page. */
export function OrderReturnRequests({ orderId }: { orderId: string }) {
  const returns = useReturns("all", orderId);
  if (returns.isPending) return <LoadingRows rows={1} label="Loading the order's requests" />;
  if (returns.isError) return <LoadError what="the order's requests" onRetry={() => void returns.refetch()} />;
  if (returns.data.length === 0) {
    return <p className="text-sm text-stone-700">No return, cancellation or complaint about this order.</p>;
  }
  return (
    <ol aria-label="Requests about this order" className="grid gap-3">
      {returns.data.map((request) => (
        <li key={request.id}>
          <RequestCard request={request} />
        </li>
      ))}
    </ol>
  );
}

function RequestCard({ request }: { request: AdminReturnRequest }) {
  const [step, setStep] = useState<ReturnStep | null>(null);
  const headingId = `request-${request.id}`;
  const refusal = declineRefusal(request.reason, request.status);
  const canDecline = canMoveRequest(request.status, "declined");
  const actions: { step: ReturnStep; label: string; show: boolean; variant?: "danger" | "outline" }[] = [
    { step: "accept", label: "Accept", show: canMoveRequest(request.status, "accepted") },
    {
      step: "receive",
      label: "Mark goods received",
      show: REASONS_WITH_LINES.includes(request.reason) && canMoveRequest(request.status, "received"),
      variant: "outline",
    },
    { step: "refund", label: "Refund", show: canMoveRequest(request.status, "refunded"), variant: "danger" },
    {
      step: "exchange",
      label: "Record exchange",
      show: canExchange(request.reason) && canMoveRequest(request.status, "exchanged"),
      variant: "outline",
    },
    { step: "resolve", label: "Resolve", show: canMoveRequest(request.status, "resolved"), variant: "outline" },
    { step: "decline", label: "Decline", show: canDecline && !refusal, variant: "outline" },
  ];
  return (
    <article aria-labelledby={headingId} className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id={headingId} className="font-semibold text-stone-950">
            {request.reference} · {RETURN_REASON_LABELS[request.reason]}
          </h3>
          <p className="text-sm text-stone-600">
            <Link href={`/admin/orders/${request.orderId}`} className="font-medium text-brand-800 underline">
              Order #{request.orderNumber}
            </Link>{" "}
            · {request.customerName} · {request.customerEmail} · asked {formatRecentDateTime(request.createdAt)}
            {request.openedBy === "shop" ? " (opened by the shop)" : ""}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <span className="rounded-full bg-blue-50 px-2.5 py-0.5 text-xs font-semibold text-blue-900 ring-1 ring-blue-200 ring-inset">
            {RETURN_STATUS_LABELS[request.status]}
          </span>
          <Countdown request={request} />
        </div>
      </header>
      <p className="mt-2 text-sm text-stone-700">
        {DEADLINE_LABELS[request.deadlineKind]}: by {formatDate(`${request.deadlineDay}T12:00:00+02:00`)}
        {parseRandToCents(request.offeredRefund) ? ` · refund due ${formatRandText(request.offeredRefund)}` : ""}
      </p>
      {request.receivedOn && request.receivedBasis && (
        <p className="mt-1 text-sm text-stone-700">
          Window counted from {formatDate(`${request.receivedOn}T12:00:00+02:00`)}:{" "}
          {RECEIPT_BASIS_LABELS[request.receivedBasis]}.
        </p>
      )}
      {request.lines.length > 0 && (
        <ul className="mt-2 text-sm text-stone-800">
          {request.lines.map((line) => (
            <li key={line.lineId}>
              {line.quantity} × {line.name} ({line.size}) at {formatRandText(line.unitPrice)}
              {line.restocked > 0 ? ` · ${line.restocked} back in stock` : ""}
            </li>
          ))}
        </ul>
      )}
      {request.details && (
        <blockquote className="mt-2 border-l-4 border-stone-200 pl-3 text-sm whitespace-pre-line text-stone-800">
          {request.details}
        </blockquote>
      )}
      {(request.instructions || request.decision) && (
        <p className="mt-2 text-sm whitespace-pre-line text-stone-700">{request.decision ?? request.instructions}</p>
      )}
      {!request.closedAt && (
        <div className="mt-3 flex flex-wrap gap-2">
          {actions
            .filter((action) => action.show)
            .map((action) => (
              <Button key={action.step} size="sm" variant={action.variant} onClick={() => setStep(action.step)}>
                {action.label}
              </Button>
            ))}
        </div>
      )}
      {!request.closedAt && canDecline && refusal && <p className="mt-2 text-xs text-stone-600">{refusal}</p>}
      {step && <StepDialog request={request} step={step} onClose={() => setStep(null)} />}
    </article>
  );
}

const TITLES: Record<ReturnStep, string> = {
  accept: "Accept",
  decline: "Decline",
  receive: "Goods received",
  refund: "Refund",
  exchange: "Record exchange",
  resolve: "Resolve",
};

/** One step's form: its words, the restock per line, or the refund's amount; the server's refusal shown as it is. */
function StepDialog({
  request,
  step,
  onClose,
}: {
  request: AdminReturnRequest;
  step: ReturnStep;
  onClose: () => void;
}) {
  const update = useUpdateReturn();
  const [text, setText] = useState("");
  const [restock, setRestock] = useState<Record<number, string>>(() =>
    Object.fromEntries(request.lines.map((line) => [line.lineId, String(line.quantity)])),
  );
  const fixedAmount = WHOLE_ORDER_REASONS.includes(request.reason) || COOLING_OFF_REASONS.includes(request.reason);
  const [amount, setAmount] = useState(request.offeredRefund === "0.00" ? "" : request.offeredRefund);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    let body: Record<string, unknown> = {};
    if (step === "accept") body = { note: text.trim() };
    if (step === "decline") {
      if (!text.trim()) return setProblem("Give the reason the customer will read.");
      body = { reason: text.trim() };
    }
    if (step === "exchange") {
      if (!text.trim()) return setProblem("Say what was sent instead.");
      body = { note: text.trim() };
    }
    if (step === "resolve") {
      if (!text.trim()) return setProblem("Give the outcome the customer will read.");
      body = { outcome: text.trim() };
    }
    if (step === "receive") {
      body = {
        restock: request.lines.map((line) => ({
          lineId: line.lineId,
          quantity: Number(restock[line.lineId] ?? 0) || 0,
        })),
      };
    }
    if (step === "refund" && !fixedAmount) {
      const cents = parseRandToCents(amount.replace(/^R/i, "").replaceAll(",", ""));
      if (cents === null || cents < 1) return setProblem("Enter an amount in rand, such as 49.99.");
      body = { amountCents: cents };
    }
    setProblem(null);
    update.mutate(
      { id: request.id, step, body },
      {
        onSuccess: onClose,
        onError: (error) => setProblem(errorMessage(error, "That did not work. Please try again.")),
      },
    );
  };

  const description: Record<ReturnStep, string> = {
    accept: REASONS_WITH_LINES.includes(request.reason)
      ? "The customer is e-mailed where to send the goods and who pays for sending them (the shop for defects, the customer for a change of mind)."
      : "The customer is told the request is accepted.",
    decline: "The customer reads your reason, with the Ombud's details.",
    receive: "Choose how many units of each line go back on the shelf (0 for none).",
    refund: fixedAmount
      ? `PayFast returns ${formatRandText(request.offeredRefund)} to the customer: the amount the law sets for this request.`
      : "PayFast returns the amount to the card or account that paid.",
    exchange: "The customer is told what you sent instead.",
    resolve: "The customer reads the outcome; the register records it.",
  };

  return (
    <OrderFormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`${TITLES[step]} ${request.reference}`}
      description={description[step]}
      pending={update.isPending}
      problem={problem}
      onSubmit={submit}
      submitLabel={
        step === "refund" ? `Refund ${fixedAmount ? formatRandText(request.offeredRefund) : ""}`.trim() : TITLES[step]
      }
      pendingLabel="Saving..."
      danger={step === "refund" || step === "decline"}
    >
      {(step === "accept" || step === "decline" || step === "exchange" || step === "resolve") && (
        <TextField
          label={
            step === "accept"
              ? "Note for the customer (optional)"
              : step === "decline"
                ? "Reason"
                : step === "exchange"
                  ? "What was sent"
                  : "Outcome"
          }
          value={text}
          onChange={(event) => setText(event.target.value)}
          required={step !== "accept"}
          maxLength={RETURN_NOTE_MAX}
        />
      )}
      {step === "receive" &&
        request.lines.map((line) => (
          <label key={line.lineId} className="flex items-center justify-between gap-3 text-sm">
            <span>
              Restock {line.name} ({line.size}), {line.quantity} came back
            </span>
            <input
              type="number"
              min={0}
              max={line.quantity}
              inputMode="numeric"
              value={restock[line.lineId] ?? "0"}
              onChange={(event) => setRestock((now) => ({ ...now, [line.lineId]: event.target.value }))}
              className={`${inputClass} w-20 tabular-nums`}
            />
          </label>
        ))}
      {step === "refund" && !fixedAmount && (
        <TextField
          label="Amount (R)"
          value={amount}
          inputMode="decimal"
          onChange={(event) => setAmount(event.target.value)}
          hint={
            parseRandToCents(request.offeredRefund)
              ? `The lines come to ${formatRand(parseRandToCents(request.offeredRefund) ?? 0)}.`
              : undefined
          }
          required
        />
      )}
    </OrderFormDialog>
  );
}
