import { formatRandText } from "#domain/money.js";
import type { Dashboard } from "#domain/schemas/dashboard.js";
import { EmptyState, Panel, SectionHeader, StatCard } from "../shared";

/** Nappy plans on the dashboard: active plans, MRR and how it is counted, and the stock the next boxes need. */
export function PlansFigures({ plans }: { plans: Dashboard["plans"] }) {
  const short = plans.stockNeeded.filter((entry) => entry.short > 0).length;
  return (
    <section aria-labelledby="plans-figures" className="grid gap-3">
      <SectionHeader id="plans-figures" title="Nappy plans" />
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-3">
        <StatCard label="Active plans" value={plans.active} />
        <StatCard
          label={`Boxes due in ${plans.boxesDueDays} days`}
          value={plans.boxesDue}
          hint={short > 0 ? `${short} size${short === 1 ? "" : "s"} short of stock` : "Stock covers them"}
        />
        <div className="col-span-2 lg:col-span-1">
          <StatCard label="Monthly recurring revenue" value={formatRandText(plans.mrr)} hint={plans.mrrMethod} />
        </div>
      </dl>
      {plans.stockNeeded.length === 0 ? (
        <EmptyState title="No boxes to pack this week">
          Boxes due in the next {plans.boxesDueDays} days show here.
        </EmptyState>
      ) : (
        <Panel className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="px-4 pt-3 text-left font-medium text-stone-800">
              Stock the next {plans.boxesDueDays} days' boxes need
            </caption>
            <thead className="text-stone-600">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Product
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Size
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Needed
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  On hand
                </th>
                <th scope="col" className="px-4 py-2 text-right font-medium">
                  Short
                </th>
              </tr>
            </thead>
            <tbody className="tabular">
              {plans.stockNeeded.map((entry) => (
                <tr key={`${entry.productId}-${entry.size}`} className="border-t border-stone-100">
                  <td className="px-4 py-2 text-stone-900">{entry.productName}</td>
                  <td className="px-4 py-2">{entry.size}</td>
                  <td className="px-4 py-2 text-right">{entry.needed}</td>
                  <td className="px-4 py-2 text-right">{entry.onHand}</td>
                  <td className={`px-4 py-2 text-right ${entry.short > 0 ? "font-semibold text-red-800" : ""}`}>
                    {entry.short > 0 ? `${entry.short} to order` : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Panel>
      )}
    </section>
  );
}
