import { PLAN_NOTICE_DAYS } from "#domain/plans.js";
import { FREE_DELIVERY_FROM_TEXT } from "#domain/pricing.js";

/**
 * The plan's terms at checkout, before the first payment (ECTA s43): how often, how each box is
 * priced, how to change or cancel, no minimum duration, cooling-off per box; and how it is paid.
 * The Terms and Conditions' "Nappy plans" section is the agreement; the order keeps its version.
 */
export default function PlanTerms({
  weeks,
  payBy,
  onPayBy,
}: {
  weeks: number;
  payBy: "card" | "eft";
  onPayBy: (payBy: "card" | "eft") => void;
}) {
  return (
    <div className="mt-3 grid gap-3 text-sm text-stone-700">
      <fieldset className="grid gap-2">
        <legend className="font-semibold text-stone-900">Pay your plan by</legend>
        <label className="flex min-h-11 items-center gap-2">
          <input type="radio" name="plan-pay-by" checked={payBy === "card"} onChange={() => onPayBy("card")} />
          Card: each box is charged to it on its day
        </label>
        <label className="flex min-h-11 items-center gap-2">
          <input type="radio" name="plan-pay-by" checked={payBy === "eft"} onChange={() => onPayBy("eft")} />
          EFT: we e-mail you a link to pay each box
        </label>
      </fieldset>
      <div className="rounded-lg bg-stone-50 p-3">
        <p className="font-semibold text-stone-900">Your nappy plan</p>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          <li>This box now, then the same box every {weeks} weeks.</li>
          <li>
            Each box costs the prices of its charge day less your plan saving, plus delivery (free from{" "}
            {FREE_DELIVERY_FROM_TEXT}). We e-mail you the box and its price {PLAN_NOTICE_DAYS} days before each charge.
          </li>
          <li>Skip, change, pause or cancel any time in My plans, with no fee. No minimum duration.</li>
          <li>Each box is its own order: you may cancel within 7 days of receiving it (ECTA s44).</li>
        </ul>
        <p className="mt-2">
          The{" "}
          <a href="/terms" target="_blank" rel="noopener" className="font-medium text-brand-800 underline">
            Terms and Conditions
          </a>{" "}
          (Nappy plans) are the agreement; your order keeps the version you agreed to.
        </p>
      </div>
    </div>
  );
}
