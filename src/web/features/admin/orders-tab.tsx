import { ToggleGroup } from "radix-ui";
import { useState } from "react";
import { formatRand } from "../../../domain/money";
import { nextOrderStatus } from "../../../domain/order-status";
import { Button } from "../../components/ui/button";
import { formatDay } from "../../lib/format";
import { useAdminOrders } from "./api/get-orders";
import { useUpdateOrderStatus } from "./api/update-order-status";
import { CancelNote } from "./cancel-note";
import { OrderCard } from "./order-card";
import {
  type AdminOrder,
  DATE_RANGES,
  type DateRange,
  groupByLocalDay,
  orderFigures,
  ordersInRange,
} from "./order-model";
import { PackingSlipsLink } from "./packing-slips-link";
import { ShipOrderDialog } from "./ship-order-dialog";
import { EmptyState, LoadError, LoadingRows, StatCard } from "./ui";

function StatusAction({ order }: { order: AdminOrder }) {
  const update = useUpdateOrderStatus();
  const [shipping, setShipping] = useState(false);
  const next = nextOrderStatus(order.status);
  if (order.status === "cancelled") return <CancelNote order={order} />;
  if (order.status === "refunded") return <p className="text-sm font-medium text-violet-900">Refunded in full</p>;
  if (next === "processed") {
    return (
      <>
        <Button onClick={() => setShipping(true)}>Mark as Shipped</Button>
        <ShipOrderDialog order={order} open={shipping} onOpenChange={setShipping} />
      </>
    );
  }
  if (next !== "completed") {
    return <p className="text-sm font-medium text-green-800">Order shipped and completed</p>;
  }
  return (
    <Button onClick={() => update.mutate({ id: order.id, status: next })} disabled={update.isPending}>
      {update.isPending ? "Saving..." : "Mark as Paid"}
    </Button>
  );
}

export function OrdersTab() {
  const { data: orders, isPending, isError, refetch } = useAdminOrders();
  const [range, setRange] = useState<DateRange>("all");

  const shown = orders ? ordersInRange(orders, range, new Date()) : [];
  const figures = orderFigures(shown);
  const days = groupByLocalDay(shown);
  const rangeLabel = DATE_RANGES.find((option) => option.value === range)?.label ?? "";

  return (
    <section aria-labelledby="orders-heading" className="grid gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="orders-heading" className="text-lg font-bold text-stone-900">
          Orders
        </h2>
        <ToggleGroup.Root
          type="single"
          value={range}
          onValueChange={(value) => value && setRange(value as DateRange)}
          aria-label="Show orders from"
          className="grid w-full grid-cols-4 gap-1 rounded-lg border border-stone-300 bg-white p-1 sm:inline-flex sm:w-auto"
        >
          {DATE_RANGES.map((option) => (
            <ToggleGroup.Item
              key={option.value}
              value={option.value}
              className="min-h-11 rounded-md px-1.5 text-[13px] font-medium whitespace-nowrap sm:px-3 sm:text-sm text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-700 data-[state=on]:bg-brand-700 data-[state=on]:text-white"
            >
              {option.label}
            </ToggleGroup.Item>
          ))}
        </ToggleGroup.Root>
      </div>

      {isPending ? (
        <LoadingRows label="Loading orders" />
      ) : isError ? (
        <LoadError what="the orders" onRetry={() => refetch()} />
      ) : (
        <>
          <PackingSlipsLink />
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" aria-label={`Summary: ${rangeLabel}`}>
            <StatCard
              label="Orders"
              value={figures.total}
              hint={figures.cancelled > 0 ? `${figures.cancelled} cancelled` : undefined}
            />
            <StatCard label="Needs Payment" value={figures.pending} />
            <StatCard label="Ready to Ship" value={figures.paid} />
            <StatCard label="Revenue" value={formatRand(figures.revenueCents)} hint={`${figures.shipped} shipped`} />
          </dl>

          {days.length === 0 ? (
            <EmptyState title="No orders in this period">
              {range === "all" ? "Orders show here as soon as shoppers check out." : "Try a longer period."}
            </EmptyState>
          ) : (
            days.map((day) => (
              <section key={day.key} aria-labelledby={`day-${day.key}`} className="grid gap-3">
                <h3 id={`day-${day.key}`} className="flex items-baseline gap-2 text-base font-semibold text-stone-900">
                  {formatDay(day.date)}
                  <span className="text-sm font-normal text-stone-600">
                    ({day.orders.length} {day.orders.length === 1 ? "order" : "orders"})
                  </span>
                </h3>
                {day.orders.map((order) => (
                  <OrderCard key={order.id} order={order} headingLevel="h4" action={<StatusAction order={order} />} />
                ))}
              </section>
            ))
          )}
        </>
      )}
    </section>
  );
}
