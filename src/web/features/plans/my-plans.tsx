import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { PLAN_CADENCE_MAX_WEEKS, PLAN_CADENCE_MIN_WEEKS } from "#domain/limits.js";
import { addDays, formatPlanDay, type PlanStatus } from "#domain/plans.js";
import { saDay } from "#domain/sa-calendar.js";
import type { Product } from "#domain/schemas/catalog.js";
import type { Plan } from "#domain/schemas/plans.js";
import { Button } from "#web/components/ui/button.js";
import { apiGet, errorMessage } from "#web/lib/api.js";
import { formatRand } from "#web/lib/format.js";
import { type PlanAction, usePlanAction, usePlans } from "./api/plans";

const STATUS_TEXT: Record<PlanStatus, string> = {
  pending_first_payment: "Waiting for the first payment",
  active: "Active",
  paused: "Paused",
  needs_card: "Needs a card",
  cancelled: "Cancelled",
};
const WEEKS = Array.from(
  { length: PLAN_CADENCE_MAX_WEEKS - PLAN_CADENCE_MIN_WEEKS + 1 },
  (_, i) => i + PLAN_CADENCE_MIN_WEEKS,
);
const field = "min-h-11 rounded-lg border border-stone-300 bg-white px-3 text-stone-900";

/** The profile's "My plans": each plan's next box and what it costs today, and every change a plan takes. */
export default function MyPlans({ userId }: { userId: string }) {
  const plans = usePlans(userId);
  if (plans.isPending) return <p className="text-stone-600">Loading your plans...</p>;
  if (plans.isError) return <p role="alert">{errorMessage(plans.error, "Your plans could not be loaded.")}</p>;
  if (plans.data.length === 0) {
    return (
      <p className="rounded-2xl border border-stone-200 bg-white p-5 text-stone-700">
        You have no nappy plans yet. Choose "Deliver every ... weeks" on a product or at checkout to start one.
      </p>
    );
  }
  return (
    <div className="grid gap-4">
      {plans.data.map((plan) => (
        <PlanCard key={plan.id} userId={userId} plan={plan} />
      ))}
    </div>
  );
}

function PlanCard({ userId, plan }: { userId: string; plan: Plan }) {
  const action = usePlanAction(userId, plan.id);
  const [effect, setEffect] = useState("");
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [lines, setLines] = useState(
    plan.lines.map(({ productId, size, quantity }) => ({ productId, size, quantity })),
  );
  const today = saDay();
  const open = plan.status !== "cancelled" && plan.status !== "pending_first_payment";
  const run = (next: PlanAction) =>
    action.mutate(next, {
      onSuccess: (answer) => {
        setEffect(answer.effect ?? "Saved.");
        setLines(answer.lines.map(({ productId, size, quantity }) => ({ productId, size, quantity })));
      },
    });
  const submit = (kind: "date" | "pause") => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get("day") ?? "");
    run(kind === "date" ? { kind: "change", change: { nextDate: value } } : { kind: "pause", until: value });
  };

  return (
    <section
      aria-label={`Plan: every ${plan.cadenceWeeks} weeks`}
      className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-lg font-semibold text-stone-900">Every {plan.cadenceWeeks} weeks</h3>
        <span className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-900">
          {STATUS_TEXT[plan.status]}
          {plan.pausedUntil ? ` until ${formatPlanDay(plan.pausedUntil)}` : ""}
        </span>
      </div>
      {plan.status !== "cancelled" && (
        <p className="mt-2 text-stone-800">
          Next box: <strong>{formatPlanDay(plan.nextDate)}</strong>,{" "}
          <strong className="tabular">{formatRand(plan.next.totalCents)}</strong> at today's prices
          {plan.next.deliveryFeeCents === 0
            ? " (free delivery)"
            : ` (delivery ${formatRand(plan.next.deliveryFeeCents)})`}
          .
        </p>
      )}
      {plan.status === "needs_card" && plan.mode === "card" && (
        <div className="mt-3 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
          <p>
            Your card was declined, so this box was not charged. Update your card on PayFast's page (the link is in our
            e-mail), then tell us here and we charge the box at once.
          </p>
          <Button className="mt-2" onClick={() => run({ kind: "card-updated" })}>
            I've updated my card — try again
          </Button>
        </div>
      )}
      <ul className="mt-3 divide-y divide-stone-100">
        {plan.lines.map((line, index) => (
          <li key={`${line.productId}-${line.size}`} className="flex flex-wrap items-center gap-2 py-2">
            <span className="min-w-40 flex-1 text-stone-900">
              {line.name} <span className="tabular text-stone-600">{formatRand(line.planPriceCents)} each</span>
            </span>
            {open && (
              <>
                <select
                  aria-label={`Size of ${line.name}`}
                  className={field}
                  value={lines[index]?.size ?? line.size}
                  onChange={(event) =>
                    setLines(lines.map((old, at) => (at === index ? { ...old, size: event.target.value } : old)))
                  }
                >
                  {line.sizes.map((size) => (
                    <option key={size}>{size}</option>
                  ))}
                </select>
                <input
                  aria-label={`Quantity of ${line.name}`}
                  className={`${field} tabular w-20`}
                  type="number"
                  min={1}
                  max={line.maxPerOrder}
                  value={lines[index]?.quantity ?? line.quantity}
                  onChange={(event) =>
                    setLines(
                      lines.map((old, at) => (at === index ? { ...old, quantity: Number(event.target.value) } : old)),
                    )
                  }
                />
              </>
            )}
            {!open && <span className="text-stone-700">{`${line.size} x ${line.quantity}`}</span>}
          </li>
        ))}
      </ul>
      {open && (
        <div className="mt-3 grid gap-3">
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => run({ kind: "change", change: { lines } })}>
              Save sizes and quantities
            </Button>
            <AddProduct
              onAdd={(productId, size) =>
                run({ kind: "change", change: { lines: [...lines, { productId, size, quantity: 1 }] } })
              }
            />
          </div>
          <label className="flex flex-wrap items-center gap-2 text-stone-800">
            How often
            <select
              className={field}
              value={plan.cadenceWeeks}
              onChange={(event) => run({ kind: "change", change: { cadenceWeeks: Number(event.target.value) } })}
            >
              {WEEKS.map((weeks) => (
                <option key={weeks} value={weeks}>
                  Every {weeks} weeks
                </option>
              ))}
            </select>
          </label>
          <form className="flex flex-wrap items-center gap-2" onSubmit={submit("date")}>
            <label className="flex flex-wrap items-center gap-2 text-stone-800">
              Next box on
              <input
                name="day"
                type="date"
                className={field}
                min={addDays(today, 1)}
                defaultValue={plan.nextDate}
                required
              />
            </label>
            <Button type="submit" variant="outline">
              Change date
            </Button>
          </form>
          <div className="flex flex-wrap gap-2">
            {plan.status !== "paused" && (
              <>
                <Button variant="secondary" onClick={() => run({ kind: "skip" })}>
                  Skip the next box
                </Button>
                {plan.status === "active" && (
                  <Button variant="outline" onClick={() => run({ kind: "deliver-now" })}>
                    Deliver now
                  </Button>
                )}
              </>
            )}
            {plan.status === "paused" && (
              <Button variant="secondary" onClick={() => run({ kind: "resume" })}>
                Resume
              </Button>
            )}
          </div>
          {plan.status !== "paused" && (
            <form className="flex flex-wrap items-center gap-2" onSubmit={submit("pause")}>
              <label className="flex flex-wrap items-center gap-2 text-stone-800">
                Pause until
                <input name="day" type="date" className={field} min={addDays(today, 1)} required />
              </label>
              <Button type="submit" variant="outline">
                Pause
              </Button>
            </form>
          )}
        </div>
      )}
      {plan.status !== "cancelled" && (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          {confirmCancel ? (
            <>
              <span className="text-stone-800">Cancel this plan? No fee; no more boxes are charged.</span>
              <Button variant="danger" onClick={() => run({ kind: "cancel" })}>
                Yes, cancel my plan
              </Button>
              <Button variant="ghost" onClick={() => setConfirmCancel(false)}>
                Keep it
              </Button>
            </>
          ) : (
            <Button variant="danger-outline" onClick={() => setConfirmCancel(true)}>
              Cancel plan
            </Button>
          )}
        </div>
      )}
      {action.isError && (
        <p role="alert" className="mt-3 text-red-800">
          {errorMessage(action.error, "That did not work. Please try again.")}
        </p>
      )}
      {effect && !action.isError && (
        <p role="status" className="mt-3 rounded-lg bg-brand-50 p-3 text-brand-900">
          {effect}
        </p>
      )}
    </section>
  );
}

/** "Add a product": any product of the catalogue, in one of its sizes, one pack to start. */
function AddProduct({ onAdd }: { onAdd: (productId: string, size: string) => void }) {
  const [choosing, setChoosing] = useState(false);
  const products = useQuery({
    queryKey: ["products"],
    queryFn: () => apiGet<Product[]>("/api/products"),
    enabled: choosing,
  });
  const [choice, setChoice] = useState("");
  if (!choosing) {
    return (
      <Button variant="outline" onClick={() => setChoosing(true)}>
        Add a product
      </Button>
    );
  }
  const options = (products.data ?? []).flatMap((product) =>
    product.sizes.map((size) => ({ value: `${product.id}|${size}`, label: `${product.name} (${size})` })),
  );
  return (
    <span className="flex flex-wrap items-center gap-2">
      <select
        aria-label="Product to add"
        className={field}
        value={choice}
        onChange={(event) => setChoice(event.target.value)}
      >
        <option value="">Choose a product</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Button
        variant="outline"
        disabled={!choice}
        onClick={() => {
          const [productId = "", size = ""] = choice.split("|");
          onAdd(productId, size);
          setChoosing(false);
        }}
      >
        Add
      </Button>
    </span>
  );
}
