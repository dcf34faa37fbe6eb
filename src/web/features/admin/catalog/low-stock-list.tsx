import { useState } from "react";
import type { Dashboard } from "#domain/schemas/dashboard.js";
import { LOW_STOCK_LIMIT } from "#domain/stock.js";
import { Button } from "#web/components/ui/button.js";
import { EmptyState, Panel, SectionHeader } from "../shared";
import { LEVEL_CLASSES } from "./size-stock-list";

type LowStockEntry = Dashboard["lowStock"][number];

/** Enough to act on at a glance; the rest one tap away (a list only a little longer is shown whole). */
const FIRST_SHOWN = 10;
const SHOWN_WHOLE_UP_TO = 12;

function unitsLeft(entry: LowStockEntry): string {
  return entry.left === 0 ? "Sold out" : `${entry.left} left`;
}

/** The Dashboard's "Low stock" (from GET /api/admin/dashboard): sizes with LOW_STOCK_LIMIT or fewer units left to sell, sold out first. */
export function LowStockList({ entries }: { entries: readonly LowStockEntry[] }) {
  const [showAll, setShowAll] = useState(false);
  const capped = entries.length > SHOWN_WHOLE_UP_TO;
  const shown = showAll || !capped ? entries : entries.slice(0, FIRST_SHOWN);

  return (
    <section aria-labelledby="low-stock">
      <SectionHeader
        id="low-stock"
        title="Low stock"
        description={`Sizes with ${LOW_STOCK_LIMIT} or fewer units left to sell, sold out first. Units held by unpaid orders are counted out.`}
      />
      {entries.length === 0 ? (
        <EmptyState title="No sizes are running low">
          Every size has more than {LOW_STOCK_LIMIT} units left to sell.
        </EmptyState>
      ) : (
        <Panel>
          <ul aria-labelledby="low-stock" className="divide-y divide-stone-100">
            {shown.map((entry) => (
              <li
                key={`${entry.productId}\u0000${entry.size}`}
                className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 px-4 py-2.5 text-sm"
              >
                <span className="min-w-0 sm:flex sm:items-baseline sm:gap-x-2">
                  <span className="block font-semibold text-stone-900">{entry.productName}</span>{" "}
                  <span className="block text-stone-700">{entry.size}</span>
                </span>{" "}
                <span
                  className={`tabular inline-flex items-center rounded-full px-2.5 py-1 text-xs font-bold whitespace-nowrap ring-1 ring-inset ${LEVEL_CLASSES[entry.left === 0 ? "sold-out" : "low"]}`}
                >
                  {unitsLeft(entry)}
                  {entry.held > 0 && <span className="ml-1 font-medium"> ({entry.held} held)</span>}
                </span>
              </li>
            ))}
          </ul>
          {capped && (
            <div className="border-t border-stone-100 px-4 py-2">
              <Button variant="ghost" onClick={() => setShowAll((all) => !all)} aria-expanded={showAll}>
                {showAll ? "Show fewer" : `Show all ${entries.length}`}
              </Button>
            </div>
          )}
        </Panel>
      )}
    </section>
  );
}
