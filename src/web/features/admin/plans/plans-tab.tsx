import { useId, useState } from "react";
import { PLAN_ADMIN_REASON_MAX, PLAN_PAUSE_MAX_DAYS } from "#domain/limits.js";
import { formatRand } from "#domain/money.js";
import { addDays, formatPlanDay, type PlanStatus } from "#domain/plans.js";
import { saDay } from "#domain/sa-calendar.js";
import type { AdminPlan, AdminPlanFilter } from "#domain/schemas/admin-plans.js";
import { Button } from "#web/components/ui/button.js";
import { Dialog } from "#web/components/ui/dialog.js";
import { toast } from "#web/components/ui/toast.js";
import { errorMessage } from "#web/lib/api.js";
import { EmptyState, inputClass, LoadError, LoadingRows, LoadMore, Panel, SearchField, SectionHeader } from "../shared";
import { type OwnerPlanChange, useAdminPlans, useOwnerPlanChange } from "./api/plans";

const FILTERS: { value: AdminPlanFilter; label: string }[] = [
  { value: "all", label: "All plans" },
  { value: "due_today", label: "Charges due today" },
  { value: "in_doubt", label: "Charges in doubt" },
];

const STATUS: Record<PlanStatus, { label: string; tone: string }> = {
  pending_first_payment: { label: "Waiting for first payment", tone: "bg-amber-100 text-amber-950" },
  active: { label: "Active", tone: "bg-green-100 text-green-900" },
  paused: { label: "Paused", tone: "bg-sky-100 text-sky-950" },
  needs_card: { label: "Needs a card", tone: "bg-red-100 text-red-900" },
  cancelled: { label: "Cancelled", tone: "bg-stone-200 text-stone-800" },
};

const CHARGE_WORDS: Record<string, string> = {
  charging: "charging now",
  paid: "paid",
  declined: "declined",
  unknown: "in doubt: PayFast's answer was lost",
  skipped: "skipped",
  out_of_stock: "out of stock, not charged",
  reminded: "pay link used, waiting for payment",
};

/** Plans: every nappy plan, what its next box costs, what became of its last charge; pause or cancel with a reason. */
export default function PlansTab() {
  const [filter, setFilter] = useState<AdminPlanFilter>("all");
  const [q, setQ] = useState("");
  const plans = useAdminPlans(filter, q);
  return (
    <section aria-labelledby="plans-heading">
      <SectionHeader id="plans-heading" title="Plans" />
      <div className="mb-4 grid gap-3 sm:flex sm:items-end">
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Show</legend>
          {FILTERS.map((option) => (
            <Button
              key={option.value}
              variant={filter === option.value ? "primary" : "outline"}
              aria-pressed={filter === option.value}
              onClick={() => setFilter(option.value)}
            >
              {option.label}
            </Button>
          ))}
        </fieldset>
        <div className="sm:ml-auto sm:w-72">
          <SearchField label="Search plans" placeholder="Customer's e-mail or name" onSearch={setQ} />
        </div>
      </div>
      {plans.isPending ? (
        <LoadingRows label="Loading plans" />
      ) : plans.isError ? (
        <LoadError what="the plans" onRetry={() => plans.refetch()} />
      ) : plans.data.length === 0 ? (
        <EmptyState title={filter === "all" ? "No plans yet" : "Nothing here"}>
          {filter === "in_doubt"
            ? "No charge is in doubt."
            : filter === "due_today"
              ? "No plan is due to be charged today."
              : "A plan starts when a shopper chooses “Deliver every N weeks” at checkout."}
        </EmptyState>
      ) : (
        <div className="grid gap-3">
          <ul className="grid gap-3">
            {plans.data.map((plan) => (
              <li key={plan.id}>
                <PlanCard plan={plan} />
              </li>
            ))}
          </ul>
          <LoadMore
            shown={plans.data.length}
            noun={["plan", "plans"]}
            hasNextPage={plans.hasNextPage}
            isFetchingNextPage={plans.isFetchingNextPage}
            fetchNextPage={plans.fetchNextPage}
          />
        </div>
      )}
    </section>
  );
}

function PlanCard({ plan }: { plan: AdminPlan }) {
  const [acting, setActing] = useState<"pause" | "cancel" | null>(null);
  const status = STATUS[plan.status];
  const open = plan.status !== "cancelled";
  const charge = plan.lastCharge;
  return (
    <Panel className="grid gap-3 p-4 sm:grid-cols-[1fr_auto] sm:items-start">
      <div className="grid gap-1 text-sm text-stone-700">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="text-base font-semibold text-stone-950">{plan.customer.name}</h3>
          <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${status.tone}`}>{status.label}</span>
          <span className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-800">
            {plan.mode === "card" ? "Card" : "Reminder (EFT)"}
          </span>
        </div>
        <p className="break-all">{plan.customer.email}</p>
        {open ? (
          <p>
            Every {plan.cadenceWeeks} weeks · next box{" "}
            <strong className="text-stone-900">{formatPlanDay(plan.nextDate)}</strong>
            {plan.pausedUntil ? ` (paused until ${formatPlanDay(plan.pausedUntil)})` : ""} ·{" "}
            <span className="tabular">{formatRand(plan.nextTotalCents)}</span> at today's prices
          </p>
        ) : (
          <p>Every {plan.cadenceWeeks} weeks · no more boxes</p>
        )}
        <p className="text-stone-600">
          {plan.lines.map((line) => `${line.quantity} × ${line.name} (${line.size})`).join(", ") || "No lines"}
        </p>
        <p>
          Last charge:{" "}
          {charge ? (
            <>
              {formatPlanDay(charge.deliveryDate)},{" "}
              <strong className={charge.status === "unknown" || charge.status === "declined" ? "text-red-800" : ""}>
                {CHARGE_WORDS[charge.status] ?? charge.status}
              </strong>
              {charge.amountCents !== null && <span className="tabular"> · {formatRand(charge.amountCents)}</span>}
              {charge.payfastResponse && <span className="text-stone-600"> · PayFast: {charge.payfastResponse}</span>}
            </>
          ) : (
            "none yet"
          )}
        </p>
        {plan.status === "cancelled" && plan.cancelReason && (
          <p className="text-stone-600">Cancelled by: {plan.cancelReason}</p>
        )}
      </div>
      {open && (
        <div className="flex flex-wrap gap-2 sm:justify-end">
          {plan.status !== "pending_first_payment" && (
            <Button variant="outline" onClick={() => setActing("pause")}>
              Pause
            </Button>
          )}
          <Button variant="outline" onClick={() => setActing("cancel")}>
            Cancel plan
          </Button>
        </div>
      )}
      {acting && <OwnerChangeDialog plan={plan} kind={acting} onClose={() => setActing(null)} />}
    </Panel>
  );
}

/** Pause or cancel with a reason: the customer is e-mailed it, and the audit trail keeps it. */
function OwnerChangeDialog({
  plan,
  kind,
  onClose,
}: {
  plan: AdminPlan;
  kind: "pause" | "cancel";
  onClose: () => void;
}) {
  const reasonId = useId();
  const untilId = useId();
  const today = saDay();
  const [reason, setReason] = useState("");
  const [until, setUntil] = useState(addDays(today, 28));
  const change = useOwnerPlanChange(plan.id);
  const submit = async () => {
    const body: OwnerPlanChange = kind === "pause" ? { kind, until, reason } : { kind, reason };
    try {
      await change.mutateAsync(body);
      toast({
        title: kind === "pause" ? "Plan paused" : "Plan cancelled",
        description: `${plan.customer.email} is e-mailed the reason.`,
        variant: "success",
      });
      onClose();
    } catch (failure) {
      toast({ title: "Not done", description: errorMessage(failure, "Please try again."), variant: "error" });
    }
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={kind === "pause" ? "Pause this plan" : "Cancel this plan"}
      description={
        kind === "pause"
          ? `No box is charged or sent until the day you pick; ${plan.customer.name} is e-mailed your reason.`
          : `No more boxes are charged or sent, and the card's token is ended at PayFast. ${plan.customer.name} is e-mailed your reason.`
      }
    >
      <div className="grid gap-4">
        {kind === "pause" && (
          <div className="grid gap-1">
            <label htmlFor={untilId} className="text-sm font-medium text-stone-800">
              Paused until
            </label>
            <input
              id={untilId}
              type="date"
              className={inputClass}
              value={until}
              min={addDays(today, 1)}
              max={addDays(today, PLAN_PAUSE_MAX_DAYS)}
              onChange={(event) => setUntil(event.target.value)}
            />
          </div>
        )}
        <div className="grid gap-1">
          <label htmlFor={reasonId} className="text-sm font-medium text-stone-800">
            Reason (the customer reads it)
          </label>
          <textarea
            id={reasonId}
            className={`${inputClass} min-h-24 py-2`}
            maxLength={PLAN_ADMIN_REASON_MAX}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Keep it as it is
          </Button>
          <Button onClick={submit} disabled={change.isPending || reason.trim().length < 3}>
            {kind === "pause" ? "Pause plan" : "Cancel plan"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
