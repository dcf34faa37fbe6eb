import { formatRandText } from "#domain/money.js";
import { formatRecentDateTime } from "#domain/sa-format.js";
import { Button } from "#web/components/ui/button.js";
import { LoadError, LoadingRows, Panel } from "../shared";
import { useStockHolders } from "./api/get-holders";

/**
 * The Users tab's "Who holds stock" section: customers with unpaid orders, the most units held
 * first, and the client networks those orders came from. A customer opens their page, where an
 * admin can disable the account (docs/decisions/020-abuse-limits.md).
 */
export function StockHolders({ onOpen }: { onOpen: (id: string) => void }) {
  const { data, isPending, isError, refetch } = useStockHolders();
  return (
    <section aria-labelledby="holders-heading" className="mb-8">
      <h3 id="holders-heading" className="font-bold text-stone-900">
        Who holds stock
      </h3>
      <p className="mb-3 max-w-prose text-sm text-stone-600">
        Unpaid orders hold their units until they are paid, cancelled or expire. A customer holding far more than a
        household needs may be hoarding: open them to cancel their orders and disable the account.
      </p>
      {isPending ? (
        <LoadingRows rows={1} label="Loading who holds stock" />
      ) : isError ? (
        <LoadError what="who holds stock" onRetry={() => refetch()} />
      ) : data.customers.length === 0 ? (
        <p className="rounded-xl border border-dashed border-stone-300 bg-white/60 px-4 py-3 text-sm text-stone-700">
          No unpaid orders are holding stock right now.
        </p>
      ) : (
        <Panel className="divide-y divide-stone-100">
          <ul aria-label="Customers holding stock" className="divide-y divide-stone-100">
            {data.customers.map((holder) => (
              <li
                key={holder.userId}
                className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-1 px-4 py-3 text-sm md:grid-cols-[minmax(0,2fr)_11rem_minmax(0,2fr)_auto]"
              >
                <div className="min-w-0">
                  <p className="font-semibold text-stone-900">
                    {holder.fullName}
                    {holder.disabled && (
                      <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">
                        Disabled
                      </span>
                    )}
                  </p>
                  <p className="truncate text-stone-600">@{holder.username}</p>
                </div>
                <Button
                  variant="outline"
                  className="md:order-4"
                  onClick={() => onOpen(holder.userId)}
                  aria-label={`Open ${holder.fullName} (@${holder.username})`}
                >
                  Open
                </Button>
                <p className="tabular text-stone-700 md:order-2">
                  <span className="font-semibold text-stone-900">{holder.unitsHeld} packs</span> in{" "}
                  {holder.unpaidOrders} {holder.unpaidOrders === 1 ? "order" : "orders"}
                  <span className="block text-xs text-stone-600">{formatRandText(holder.total)}</span>
                </p>
                <p className="min-w-0 text-stone-700 md:order-3">
                  <span className="block truncate">From {holder.networks.join(", ") || "an unknown address"}</span>
                  <span className="block text-xs text-stone-600">oldest {formatRecentDateTime(holder.oldestAt)}</span>
                </p>
              </li>
            ))}
          </ul>
          {data.networks.some((network) => network.accounts > 1) && (
            <div className="px-4 py-3 text-sm text-stone-700">
              <p className="font-semibold text-stone-900">Networks with several accounts</p>
              <ul className="mt-1 grid gap-1">
                {data.networks
                  .filter((network) => network.accounts > 1)
                  .map((network) => (
                    <li key={network.network} className="tabular">
                      {network.network}: {network.unpaidOrders} unpaid orders by {network.accounts} accounts
                    </li>
                  ))}
              </ul>
            </div>
          )}
        </Panel>
      )}
    </section>
  );
}
