import { useId, useMemo, useState } from "react";
import { formatRand } from "#domain/money.js";
import { formatCalendarDate, formatCalendarMonth, saMonth } from "#domain/sa-format.js";
import type { VatReport, VatReportRate } from "#domain/schemas/vat-report.js";
import { VAT_CLASS_LABELS } from "#domain/vat.js";
import { buttonClass } from "#web/components/ui/button.js";
import { EmptyState, LoadError, LoadingRows, Panel, SectionHeader } from "../shared";
import { useVatReport, type VatPeriodChoice, vatReportCsvUrl } from "./api/get-vat-report";

const MONTHS_OFFERED = 36;

/** The last MONTHS_OFFERED months, newest first, as YYYY-MM and their names ("November 2026"). */
function recentMonths(): { value: string; label: string }[] {
  const [year = 2026, month = 1] = saMonth().split("-").map(Number);
  return Array.from({ length: MONTHS_OFFERED }, (_, back) => {
    const date = new Date(Date.UTC(year, month - 1 - back, 1));
    return { value: date.toISOString().slice(0, 7), label: formatCalendarMonth(date.toISOString().slice(0, 7)) };
  });
}

const dayText = formatCalendarDate;

/** The admin's VAT tab: a period's sales, credit notes and net VAT per rate, and its CSV. */
export default function VatTab() {
  const months = useMemo(recentMonths, []);
  const [period, setPeriod] = useState<VatPeriodChoice>({ from: months[0]?.value ?? "2026-01", months: 1 });
  const report = useVatReport(period);
  const id = useId();

  return (
    <section aria-labelledby="vat-heading">
      <SectionHeader
        id="vat-heading"
        title="VAT"
        description="The VAT of the tax invoices and credit notes dated in a period, per rate: the figures for your VAT201 return."
        action={
          <a className={buttonClass({ variant: "outline" })} href={vatReportCsvUrl(period)} download>
            Download CSV
          </a>
        }
      />
      <div className="mb-4 flex flex-wrap gap-3">
        <div className="grid gap-1">
          <label className="text-sm font-medium text-stone-700" htmlFor={`${id}-months`}>
            Period
          </label>
          <select
            id={`${id}-months`}
            className="select-native"
            value={period.months}
            onChange={(event) => setPeriod({ ...period, months: event.target.value === "2" ? 2 : 1 })}
          >
            <option value="1">One month</option>
            <option value="2">Two months (a VAT period)</option>
          </select>
        </div>
        <div className="grid gap-1">
          <label className="text-sm font-medium text-stone-700" htmlFor={`${id}-from`}>
            {period.months === 2 ? "First month" : "Month"}
          </label>
          <select
            id={`${id}-from`}
            className="select-native"
            value={period.from}
            onChange={(event) => setPeriod({ ...period, from: event.target.value })}
          >
            {months.map((month) => (
              <option key={month.value} value={month.value}>
                {month.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      {report.isPending ? (
        <LoadingRows label="Loading the VAT report" />
      ) : report.isError ? (
        <LoadError what="the VAT report" onRetry={() => report.refetch()} />
      ) : (
        <VatFigures report={report.data} />
      )}
    </section>
  );
}

function VatFigures({ report }: { report: VatReport }) {
  const span = `${dayText(report.first)} to ${dayText(report.last)}`;
  if (report.invoices === 0 && report.creditNotes === 0) {
    return (
      <EmptyState title="No tax invoices or credit notes in this period">
        Nothing was invoiced or credited from {span}.
      </EmptyState>
    );
  }
  return (
    <div className="grid gap-4">
      <p className="text-sm text-stone-600">
        {span}: {report.invoices} {report.invoices === 1 ? "invoice" : "invoices"} and {report.creditNotes}{" "}
        {report.creditNotes === 1 ? "credit note" : "credit notes"}.
      </p>
      <RateTable title="Net VAT (for the VAT201)" rates={report.net} strong />
      <div className="grid gap-4 lg:grid-cols-2">
        <RateTable title="Sales (tax invoices)" rates={report.sales} />
        <RateTable title="Credit notes" rates={report.credits} />
      </div>
      <p className="max-w-prose text-xs text-stone-600">
        On the VAT201, standard-rated supplies (VAT included) go in field 1 and their VAT in field 4; zero-rated
        supplies in field 2. Credit notes are taken off the period in which they were issued.
      </p>
    </div>
  );
}

function RateTable({ title, rates, strong }: { title: string; rates: VatReportRate[]; strong?: boolean }) {
  const sum = (figure: "exclCents" | "vatCents" | "totalCents") =>
    rates.reduce((total, rate) => total + rate[figure], 0);
  // Narrow on a phone: four columns of rand fit 375 px; the panel scrolls rather than the page if not.
  const cell = "px-1.5 py-2 text-right tabular whitespace-nowrap sm:px-3";
  return (
    <Panel className={`overflow-x-auto ${strong ? "ring-1 ring-brand-700/30" : ""}`}>
      <table className="w-full text-xs sm:text-sm">
        <caption className="px-2 pt-3 pb-1 text-left font-semibold text-stone-900 sm:px-3">{title}</caption>
        <thead>
          <tr className="border-b border-stone-200 text-stone-600">
            <th scope="col" className="px-2 py-2 text-left font-medium sm:px-3">
              Rate
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              Excl. VAT
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              VAT
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {rates.length === 0 ? (
            <tr>
              <td colSpan={4} className="px-2 py-3 text-stone-600 sm:px-3">
                None in this period.
              </td>
            </tr>
          ) : (
            rates.map((rate) => (
              <tr key={`${rate.vatClass}:${rate.rateBp}`} className="border-b border-stone-100">
                <th scope="row" className="px-2 py-2 text-left font-normal text-stone-800 sm:px-3">
                  {VAT_CLASS_LABELS[rate.vatClass]} {rate.rate}
                </th>
                <td className={cell}>{formatRand(rate.exclCents)}</td>
                <td className={cell}>{formatRand(rate.vatCents)}</td>
                <td className={cell}>{formatRand(rate.totalCents)}</td>
              </tr>
            ))
          )}
        </tbody>
        {rates.length > 1 && (
          <tfoot>
            <tr className="font-semibold text-stone-900">
              <th scope="row" className="px-2 py-2 text-left sm:px-3">
                Total
              </th>
              <td className={cell}>{formatRand(sum("exclCents"))}</td>
              <td className={cell}>{formatRand(sum("vatCents"))}</td>
              <td className={cell}>{formatRand(sum("totalCents"))}</td>
            </tr>
          </tfoot>
        )}
      </table>
    </Panel>
  );
}
