import { useLaunchChecklist } from "./api/launch-checklist";

/**
 * The dashboard's line about "Before you open" while any duty is not ticked: amber once the shop
 * takes real money (PAYFAST_MODE=live), quiet before. Nothing once every duty is done.
 */
export function LaunchChecklistNote() {
  const { data } = useLaunchChecklist();
  if (!data || data.open === 0) return null;
  const total = data.items.length;
  return (
    <p
      className={
        data.live
          ? "rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
          : "rounded-xl border border-stone-200 bg-white px-4 py-3 text-sm text-stone-700"
      }
    >
      <span className="tabular font-bold">
        {data.open} of {total}
      </span>{" "}
      things the law asks of you outside the shop {data.open === 1 ? "is" : "are"} not ticked yet
      {data.live ? ", and the shop is live" : ""}: see Before you open.
    </p>
  );
}
