import { useId, useMemo, useState } from "react";
import { formatRand } from "#domain/money.js";
import { SA_TIME_ZONE } from "#domain/sa-format.js";
import type { DeliveryCostQuery, DeliveryCostReport, DeliveryCostRow } from "#domain/schemas/delivery-admin.js";
import { buttonClass } from "#web/components/ui/button.js";
import { LoadError, LoadingRows, Panel, SectionHeader } from "../shared";
import { deliveryCostsCsvUrl, useDeliveryCosts } from "./api/get-delivery-costs";

const MONTHS_OFFERED = 36;
const SA_MONTH = new Intl.DateTimeFormat("en-CA", {
  timeZone: SA_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
});
const MONTH_NAME = new Intl.DateTimeFormat("en-ZA", { month: "long", year: "numeric", timeZone: "UTC" });
const SHORT_MONTH = new Intl.DateTimeFormat("en-ZA", { month: "short", year: "numeric", timeZone: "UTC" });

/** The last MONTHS_OFFERED months, newest first. */
function recentMonths(): { value: string; label: string }[] {
  const [year = 2026, month = 1] = SA_MONTH.format(new Date()).split("-").map(Number);
  return Array.from({ length: MONTHS_OFFERED }, (_, back) => {
    const date = new Date(Date.UTC(year, month - 1 - back, 1));
    return { value: date.toISOString().slice(0, 7), label: MONTH_NAME.format(date) };
  });
}

/** The monthly delivery-cost report: what customers paid for delivery against what the courier charged. */
export function DeliveryCostsSection() {
  const months = useMemo(recentMonths, []);
  const [period, setPeriod] = useState<DeliveryCostQuery>({
    from: months[5]?.value ?? "2026-01",
    to: months[0]?.value ?? "2026-01",
  });
  const report = useDeliveryCosts(period);
  const id = useId();
  const pick = (field: "from" | "to", value: string) => {
    const next = { ...period, [field]: value };
    // Kept in order and within a year: the other end follows.
    if (next.from > next.to) next[field === "from" ? "to" : "from"] = value;
    const index = (month: string) => months.findIndex((entry) => entry.value === month);
    if (index(next.from) - index(next.to) > 11) {
      if (field === "from") next.to = months[index(next.from) - 11]?.value ?? next.to;
      else next.from = months[index(next.to) + 11]?.value ?? next.from;
    }
    setPeriod(next);
  };

  return (
    <section aria-labelledby="delivery-costs-heading">
      <SectionHeader
        id="delivery-costs-heading"
        title="Delivery costs"
        description="Per month shipped: what customers paid for delivery against what the courier charged, its quote at booking and what re-weighing added."
        action={
          <a className={buttonClass({ variant: "outline" })} href={deliveryCostsCsvUrl(period)} download>
            Download CSV
          </a>
        }
      />
      <div className="mb-4 flex flex-wrap gap-3">
        {(["from", "to"] as const).map((field) => (
          <div key={field} className="grid gap-1">
            <label className="text-sm font-medium text-stone-700" htmlFor={`${id}-${field}`}>
              {field === "from" ? "From" : "To"}
            </label>
            <select
              id={`${id}-${field}`}
              className="select-native"
              value={period[field]}
              onChange={(event) => pick(field, event.target.value)}
            >
              {months.map((month) => (
                <option key={month.value} value={month.value}>
                  {month.label}
                </option>
              ))}
            </select>
          </div>
        ))}
      </div>
      {report.isPending ? (
        <LoadingRows label="Loading the delivery costs" />
      ) : report.isError ? (
        <LoadError what="the delivery costs" onRetry={() => report.refetch()} />
      ) : (
        <CostTable report={report.data} />
      )}
    </section>
  );
}

const signed = (cents: number) => (cents > 0 ? `+${formatRand(cents)}` : formatRand(cents));

function CostTable({ report }: { report: DeliveryCostReport }) {
  const cell = "px-1.5 py-2 text-right tabular whitespace-nowrap sm:px-3";
  const row = (figures: DeliveryCostRow, total = false) => (
    <tr key={figures.month} className={total ? "font-semibold text-stone-900" : "border-b border-stone-100"}>
      <th
        scope="row"
        className={`px-2 py-2 text-left whitespace-nowrap sm:px-3 ${total ? "" : "font-normal text-stone-800"}`}
      >
        {total ? "Total" : SHORT_MONTH.format(new Date(`${figures.month}-01T00:00:00Z`))}
      </th>
      <td className={cell}>{figures.ordersShipped}</td>
      <td className={cell}>{figures.withWaybill}</td>
      <td className={cell}>{formatRand(figures.customersPaidCents)}</td>
      <td className={cell}>{formatRand(figures.quotedCents)}</td>
      <td className={`${cell} ${figures.adjustmentsCents > 0 ? "text-amber-800" : ""}`}>
        {signed(figures.adjustmentsCents)}
      </td>
      <td className={cell}>{formatRand(figures.courierChargedCents)}</td>
      <td className={`${cell} ${figures.differenceCents < 0 ? "text-red-700" : ""}`}>
        {signed(figures.differenceCents)}
      </td>
    </tr>
  );
  return (
    <div className="grid gap-3">
      <Panel className="overflow-x-auto">
        <table className="w-full text-xs sm:text-sm">
          <caption className="sr-only">Delivery costs per month shipped</caption>
          <thead>
            <tr className="border-b border-stone-200 text-stone-600">
              <th scope="col" className="px-2 py-2 text-left font-medium sm:px-3">
                Month
              </th>
              {[
                "Shipped",
                "Booked here",
                "Customers paid",
                "Courier quoted",
                "Re-weighs",
                "Courier charged",
                "Difference",
              ].map((heading) => (
                <th key={heading} scope="col" className={`${cell} font-medium`}>
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{report.months.map((figures) => row(figures))}</tbody>
          <tfoot>{row(report.total, true)}</tfoot>
        </table>
      </Panel>
      <p className="max-w-prose text-xs text-stone-600">
        Customers paid and the courier's charges are set side by side for the orders booked here (Create waybill).
        Orders shipped by hand are counted under Shipped only: their courier's bill is not known here. A difference
        below zero is delivery the shop paid for.
      </p>
    </div>
  );
}
