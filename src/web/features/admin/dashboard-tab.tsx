import { formatRandText } from "../../../domain/money";
import { orderNumber } from "../../../domain/order-status";
import { OrderStatusBadge } from "../../components/ui/order-status-badge";
import { formatRecentDateTime } from "../../lib/format";
import { useOrderSummary } from "./api/get-order-summary";
import { useRecentOrders } from "./api/get-orders";
import { LowStockList } from "./low-stock-list";
import { cancelReasonText } from "./order-model";
import { EmptyState, LoadError, LoadingRows, Panel, SectionHeader, StatCard } from "./ui";

const RECENT_ORDERS = 5;

export function DashboardTab() {
  return (
    <div className="grid gap-6">
      <OrderOverview />
      <LowStockList />
    </div>
  );
}

function OrderOverview() {
  const summary = useOrderSummary({});
  const latest = useRecentOrders(RECENT_ORDERS);
  if (summary.isPending || latest.isPending) return <LoadingRows label="Loading orders" />;
  if (summary.isError || latest.isError) {
    return <LoadError what="the orders" onRetry={() => Promise.all([summary.refetch(), latest.refetch()])} />;
  }

  const figures = summary.data;
  const recent = latest.data;
  const waiting = `${figures.pending} waiting for payment`;
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard
          label="Total Orders"
          value={figures.total}
          hint={figures.cancelled > 0 ? `${waiting}, ${figures.cancelled} cancelled` : waiting}
        />
        <StatCard label="Paid Orders" value={figures.paid} hint="Ready to ship" />
        <StatCard label="Shipped Orders" value={figures.shipped} />
        <StatCard label="Total Revenue" value={formatRandText(figures.revenue)} hint="Paid and shipped orders" />
      </dl>

      <section aria-labelledby="recent-orders">
        <SectionHeader id="recent-orders" title="Recent Orders" />
        {recent.length === 0 ? (
          <EmptyState title="No orders yet">New orders show here as soon as shoppers check out.</EmptyState>
        ) : (
          <Panel>
            <ul className="divide-y divide-stone-100">
              {recent.map((order) => (
                <li
                  key={order.id}
                  className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 px-4 py-3 text-sm md:grid-cols-[6.5rem_minmax(0,1fr)_7.5rem_6.5rem_10.5rem]"
                >
                  <span className="font-semibold text-stone-900">#{orderNumber(order.id)}</span>
                  <span className="tabular text-right font-semibold md:order-4">{formatRandText(order.total)}</span>
                  <span className="min-w-0 truncate text-stone-700 md:order-2">{order.customerEmail}</span>
                  <time className="text-right text-stone-600 md:order-3 md:text-left" dateTime={order.createdAt}>
                    {formatRecentDateTime(order.createdAt)}
                  </time>
                  <div className="col-span-2 md:order-5 md:col-span-1">
                    <OrderStatusBadge status={order.status} />
                    {cancelReasonText(order) && (
                      <p className="mt-1 text-xs text-stone-600">{cancelReasonText(order)}</p>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </Panel>
        )}
      </section>
    </>
  );
}
