import { ToggleGroup } from "radix-ui";
import { useCallback, useState } from "react";
import { formatRandText } from "#domain/money.js";
import { ORDER_STATUS_LABELS, ORDER_STATUSES, type OrderStatus } from "#domain/order-status.js";
import { formatDay } from "#domain/sa-format.js";
import { buttonClass } from "#web/components/ui/button.js";
import { confirmBeforeDownload, EmptyState, inputClass, LoadError, LoadingRows, LoadMore, StatCard } from "../shared";
import { orderExportUrl } from "./api/export-orders";
import { useOrderSummary } from "./api/get-order-summary";
import { useAdminOrders } from "./api/get-orders";
import { OrderActions } from "./order-actions";
import { OrderCard } from "./order-card";
import { DATE_RANGES, type DateRange, groupByLocalDay, rangeStart } from "./order-model";
import { OrderSearch } from "./order-search";
import { PackingSlipsLink } from "./packing-slips-link";
import { TodaysWaybills } from "./todays-waybills";

function OrderSummaryCards({ from, rangeLabel }: { from: string | undefined; rangeLabel: string }) {
  const { data: figures } = useOrderSummary({ from });
  const value = (count: number | undefined) => (count === undefined ? "..." : count);
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" aria-label={`Summary: ${rangeLabel}`}>
      <StatCard
        label="Orders"
        value={value(figures?.total)}
        hint={figures && figures.cancelled > 0 ? `${figures.cancelled} cancelled` : undefined}
      />
      <StatCard label="Needs Payment" value={value(figures?.pending)} />
      <StatCard label="Ready to Ship" value={value(figures?.paid)} />
      <StatCard
        label="Revenue"
        value={figures ? formatRandText(figures.revenue) : "..."}
        hint={figures ? `${figures.shipped} shipped` : undefined}
      />
    </dl>
  );
}

export function OrdersTab() {
  const [range, setRange] = useState<DateRange>("all");
  // The range's start is fixed when it is chosen, so the lists' keys stay put as time passes.
  const [from, setFrom] = useState<string | undefined>(undefined);
  const [status, setStatus] = useState<OrderStatus | "">("");
  const [q, setQ] = useState("");
  const onSearch = useCallback((text: string) => setQ(text), []);
  const chooseRange = (value: DateRange) => {
    setRange(value);
    setFrom(rangeStart(value, new Date())?.toISOString());
  };

  const {
    data: orders,
    isPending,
    isError,
    refetch,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage,
  } = useAdminOrders({ from, status: status || undefined, q: q || undefined });
  const days = groupByLocalDay(orders ?? []);
  const rangeLabel = DATE_RANGES.find((option) => option.value === range)?.label ?? "";
  const filtered = Boolean(q || status);

  return (
    <section aria-labelledby="orders-heading" className="grid gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="orders-heading" className="text-lg font-bold text-stone-900">
          Orders
        </h2>
        <ToggleGroup.Root
          type="single"
          value={range}
          onValueChange={(value) => value && chooseRange(value as DateRange)}
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

      <OrderSummaryCards from={from} rangeLabel={rangeLabel} />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PackingSlipsLink />
        <TodaysWaybills />
      </div>

      <div className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_13rem_auto]">
        <OrderSearch onSearch={onSearch} />
        <label className="sr-only" htmlFor="orders-status">
          Status
        </label>
        <select
          id="orders-status"
          value={status}
          onChange={(event) => setStatus(event.target.value as OrderStatus | "")}
          className={inputClass}
        >
          <option value="">All statuses</option>
          {ORDER_STATUSES.map((value) => (
            <option key={value} value={value}>
              {ORDER_STATUS_LABELS[value]}
            </option>
          ))}
        </select>
        <a
          href={orderExportUrl({ from })}
          download
          className={buttonClass({ variant: "outline" })}
          // Every customer's details in one file: an admin with two-step sign-in confirms with a code first.
          onClick={confirmBeforeDownload}
        >
          Export CSV
        </a>
      </div>

      {isPending ? (
        <LoadingRows label="Loading orders" />
      ) : isError ? (
        <LoadError what="the orders" onRetry={() => refetch()} />
      ) : days.length === 0 ? (
        <EmptyState title={filtered ? "No orders match" : "No orders in this period"}>
          {filtered
            ? "Check the order number or try part of the e-mail, name or phone."
            : range === "all"
              ? "Orders show here as soon as shoppers check out."
              : "Try a longer period."}
        </EmptyState>
      ) : (
        <>
          {days.map((day) => (
            <section key={day.key} aria-labelledby={`day-${day.key}`} className="grid gap-3">
              <h3 id={`day-${day.key}`} className="flex items-baseline gap-2 text-base font-semibold text-stone-900">
                {formatDay(day.date)}
                <span className="text-sm font-normal text-stone-600">
                  ({day.orders.length} {day.orders.length === 1 ? "order" : "orders"}
                  {hasNextPage && day === days.at(-1) ? " so far" : ""})
                </span>
              </h3>
              {day.orders.map((order) => (
                <OrderCard key={order.id} order={order} headingLevel="h4" action={<OrderActions order={order} />} />
              ))}
            </section>
          ))}
          <LoadMore
            shown={orders?.length ?? 0}
            noun={["order", "orders"]}
            hasNextPage={hasNextPage}
            isFetchingNextPage={isFetchingNextPage}
            fetchNextPage={fetchNextPage}
          />
        </>
      )}
    </section>
  );
}
