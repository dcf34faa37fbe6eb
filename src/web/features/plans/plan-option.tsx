import { useEffect, useId, useState } from "react";
import {
  DEFAULT_PLAN_SAVING_BP,
  PLAN_CADENCE_MAX_WEEKS,
  PLAN_CADENCE_MIN_WEEKS,
  savingPercentText,
} from "#domain/plans.js";
import { FREE_DELIVERY_FROM_TEXT } from "#domain/pricing.js";
import { setPlanWeeks, usePlanWeeks } from "./plan-choice";

const WEEKS = Array.from(
  { length: PLAN_CADENCE_MAX_WEEKS - PLAN_CADENCE_MIN_WEEKS + 1 },
  (_, index) => PLAN_CADENCE_MIN_WEEKS + index,
);

/**
 * "Deliver every [2-8] weeks": turns the cart into a nappy plan's first box (the checkout prices it
 * at plan prices). Loaded on demand by the product page, the cart and the checkout.
 */
export default function PlanOption({ savingBp = DEFAULT_PLAN_SAVING_BP }: { savingBp?: number | undefined }) {
  const id = useId();
  const weeks = usePlanWeeks();
  // Server-rendered, the menu waits for the app: a choice made before it hydrates would be lost.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return (
    <div className="rounded-xl border border-brand-100 bg-brand-50 p-3 text-sm text-brand-900">
      <label htmlFor={id} className="font-semibold">
        Nappy plan: save {savingPercentText(savingBp)}
      </label>
      <select
        id={id}
        value={weeks ?? ""}
        disabled={!ready}
        onChange={(event) => setPlanWeeks(event.target.value ? Number(event.target.value) : null)}
        className="mt-2 block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-stone-900"
      >
        <option value="">One-off order</option>
        {WEEKS.map((value) => (
          <option key={value} value={value}>
            Deliver every {value} weeks
          </option>
        ))}
      </select>
      <p className="mt-2 text-brand-900">
        {weeks
          ? `Your cart becomes a plan: every ${weeks} weeks, at the day's prices less the saving; free delivery from ${FREE_DELIVERY_FROM_TEXT}. Skip, change or cancel any time, no fee.`
          : "Never run out: a box every few weeks, skip or cancel any time."}
      </p>
    </div>
  );
}
