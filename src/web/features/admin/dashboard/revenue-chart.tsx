import { formatRand, formatRandText, parseRandToCents } from "#domain/money.js";
import { formatDay } from "#domain/sa-format.js";
import type { Dashboard } from "#domain/schemas/dashboard.js";

const WIDTH = 600;
const HEIGHT = 180;
const AXIS = 18;

/** "2026-11-25" as the shop's calendar day, at noon so no time zone moves it. */
const dayDate = (day: string) => new Date(`${day}T12:00:00+02:00`);
const shortDay = new Intl.DateTimeFormat("en-ZA", { day: "numeric", month: "short" });

/**
 * Revenue per day for the last 30 days as bars (our own SVG: no chart library in the admin's
 * bundle). The SVG is one image with a summary for screen readers; the figures are also a table
 * behind "Show the figures".
 */
export function RevenueChart({ days }: { days: Dashboard["revenueByDay"] }) {
  const cents = days.map((day) => parseRandToCents(day.revenue) ?? 0);
  const max = Math.max(...cents, 1);
  const total = cents.reduce((sum, value) => sum + value, 0);
  const best = days[cents.indexOf(Math.max(...cents))];
  const slot = WIDTH / Math.max(days.length, 1);
  const plot = HEIGHT - AXIS;
  const first = days[0];
  const last = days.at(-1);
  const summary =
    total === 0
      ? "No revenue in the last 30 days."
      : `Revenue per day for the last 30 days: ${formatRand(total)} in all, the best day ${best ? formatDay(dayDate(best.day)) : ""} with ${best ? formatRandText(best.revenue) : ""}.`;
  return (
    <figure className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold text-stone-900">Revenue per day</span>
        <span className="tabular text-sm text-stone-600">
          Last 30 days: <span className="font-semibold text-stone-900">{formatRand(total)}</span>
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={summary}
        className="mt-3 h-44 w-full"
        preserveAspectRatio="none"
      >
        <line x1="0" x2={WIDTH} y1={plot} y2={plot} className="stroke-stone-300" strokeWidth="1" />
        <line x1="0" x2={WIDTH} y1="1" y2="1" className="stroke-stone-200" strokeWidth="1" strokeDasharray="4 4" />
        {days.map((day, index) => {
          const height = Math.max((cents[index] ?? 0) / max, 0) * (plot - 4);
          return (
            <rect
              key={day.day}
              x={index * slot + slot * 0.15}
              y={plot - height}
              width={slot * 0.7}
              height={Math.max(height, cents[index] ? 2 : 0)}
              rx="2"
              className="fill-brand-700"
            >
              <title>{`${formatDay(dayDate(day.day))}: ${formatRandText(day.revenue)}`}</title>
            </rect>
          );
        })}
      </svg>
      <div aria-hidden="true" className="tabular mt-1 flex justify-between text-xs text-stone-600">
        <span>{first ? shortDay.format(dayDate(first.day)) : ""}</span>
        <span>Highest {formatRand(max === 1 && total === 0 ? 0 : max)}</span>
        <span>{last ? shortDay.format(dayDate(last.day)) : ""}</span>
      </div>
      <details className="mt-3 text-sm">
        <summary className="min-h-11 cursor-pointer py-2 font-semibold text-brand-800">Show the figures</summary>
        <table className="tabular mt-2 w-full text-left">
          <caption className="sr-only">Revenue per day, last 30 days</caption>
          <thead>
            <tr className="text-stone-600">
              <th scope="col" className="py-1 font-medium">
                Day
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Paid orders
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Revenue
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {days.map((day) => (
              <tr key={day.day}>
                <th scope="row" className="py-1 font-normal">
                  {formatDay(dayDate(day.day))}
                </th>
                <td className="py-1 text-right">{day.orders}</td>
                <td className="py-1 text-right">{formatRandText(day.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
