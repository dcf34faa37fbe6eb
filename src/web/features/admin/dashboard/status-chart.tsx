import { ORDER_STATUS_LABELS } from "#domain/order-status.js";
import type { Dashboard } from "#domain/schemas/dashboard.js";

/** DESIGN.md's status colours (as the badges): Needs Payment amber, Paid blue, Shipped green; cancelled grey. */
const BAR_CLASSES = {
  pending: "fill-amber-500",
  completed: "fill-blue-600",
  processed: "fill-green-600",
  cancelled: "fill-stone-400",
  refunded: "fill-violet-600",
} as const;

/**
 * Orders per status as labelled bars. Each row says its status and count in text, so the list
 * itself is the chart's text alternative; the bars are decoration for the eye.
 */
export function StatusChart({ statuses }: { statuses: Dashboard["ordersByStatus"] }) {
  const max = Math.max(...statuses.map((row) => row.orders), 1);
  const total = statuses.reduce((sum, row) => sum + row.orders, 0);
  return (
    <figure className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold text-stone-900">Orders per status</span>
        <span className="tabular text-sm text-stone-600">{total} in all</span>
      </figcaption>
      <ul aria-label="Orders per status" className="mt-3 grid gap-3">
        {statuses.map((row) => (
          <li key={row.status} className="grid grid-cols-[8.5rem_minmax(0,1fr)_3.5rem] items-center gap-3 text-sm">
            <span className="text-stone-800">{ORDER_STATUS_LABELS[row.status]}</span>
            <svg aria-hidden="true" viewBox="0 0 100 10" preserveAspectRatio="none" className="h-4 w-full">
              <rect x="0" y="0" width="100" height="10" rx="2" className="fill-stone-100" />
              <rect
                x="0"
                y="0"
                width={(row.orders / max) * 100}
                height="10"
                rx="2"
                className={BAR_CLASSES[row.status]}
              />
            </svg>
            <span className="tabular text-right font-semibold text-stone-900">{row.orders}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
