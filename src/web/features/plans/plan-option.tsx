import { useEffect, useId, useRef } from "react";
import { PLAN_CADENCE_MAX_WEEKS, PLAN_CADENCE_MIN_WEEKS } from "#domain/limits.js";
import { percentText } from "#domain/percent.js";
import { DEFAULT_PLAN_SAVING_BP } from "#domain/plans.js";
import { FREE_DELIVERY_FROM_TEXT } from "#domain/pricing.js";
import { useMounted } from "#web/lib/use-mounted.js";
import { setPlanWeeks, usePlanWeeks } from "./plan-choice";

const WEEKS = Array.from(
  { length: PLAN_CADENCE_MAX_WEEKS - PLAN_CADENCE_MIN_WEEKS + 1 },
  (_, index) => PLAN_CADENCE_MIN_WEEKS + index,
);

interface PlanOptionProps {
  savingBp?: number | undefined;
  /** On a product card or in the cart sheet: one short line under the menu instead of the full sentence. */
  compact?: boolean;
  /** Opened by a click elsewhere (a card's "Deliver every few weeks"): the menu takes the focus. */
  focusOnMount?: boolean;
}

/**
 * "Deliver every [2-8] weeks": turns the cart into a nappy plan's first box (the checkout prices it
 * at plan prices). Loaded on demand by the product page and card, the cart sheet and the checkout;
 * all of them read and write one choice (plan-choice.ts).
 */
export default function PlanOption({
  savingBp = DEFAULT_PLAN_SAVING_BP,
  compact = false,
  focusOnMount = false,
}: PlanOptionProps) {
  const id = useId();
  const weeks = usePlanWeeks();
  const menu = useRef<HTMLSelectElement>(null);
  // Server-rendered, the menu waits for the app: a choice made before it hydrates would be lost.
  const ready = useMounted();
  useEffect(() => {
    if (ready && focusOnMount) menu.current?.focus();
  }, [ready, focusOnMount]);
  const free = `free delivery from ${FREE_DELIVERY_FROM_TEXT}`;
  return (
    <div
      className={`rounded-xl border border-brand-100 bg-brand-50 text-sm text-brand-900 ${compact ? "p-2.5" : "p-3"}`}
    >
      <label htmlFor={id} className="font-semibold">
        Nappy plan: save {percentText(savingBp)}
      </label>
      <select
        id={id}
        ref={menu}
        value={weeks ?? ""}
        disabled={!ready}
        onChange={(event) => setPlanWeeks(event.target.value ? Number(event.target.value) : null)}
        className={`block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-stone-900 ${compact ? "mt-1.5" : "mt-2"}`}
      >
        <option value="">One-off order</option>
        {WEEKS.map((value) => (
          <option key={value} value={value}>
            Deliver every {value} weeks
          </option>
        ))}
      </select>
      <p className={compact ? "mt-1.5 text-xs" : "mt-2"}>
        {compact
          ? `Your whole cart, ${weeks ? `every ${weeks} weeks` : "every few weeks"}; ${free}. Skip or cancel any time.`
          : weeks
            ? `Your cart becomes a plan: every ${weeks} weeks, at the day's prices less the saving; ${free}. Skip, change or cancel any time, no fee.`
            : "Never run out: a box every few weeks, skip or cancel any time."}
      </p>
    </div>
  );
}
