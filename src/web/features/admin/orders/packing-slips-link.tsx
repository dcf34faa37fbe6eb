import { useId, useState } from "react";
import { saDay } from "#domain/sa-calendar.js";
import { buttonClass } from "#web/components/ui/button.js";
import { DocumentIcon } from "#web/components/ui/icons.js";

/** Today in South African time, as a date input holds it (YYYY-MM-DD). */

/** Packing slips: one PDF with a slip per order paid on the chosen day (GET /api/admin/packing-slips.pdf). */
export function PackingSlipsLink() {
  const [date, setDate] = useState(() => saDay());
  const id = useId();
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="grid gap-1">
        <label htmlFor={id} className="text-xs font-semibold tracking-wide text-stone-600 uppercase">
          Paid on
        </label>
        <input
          id={id}
          type="date"
          value={date}
          max={saDay()}
          onChange={(event) => setDate(event.target.value)}
          className="min-h-11 rounded-lg border border-stone-300 bg-white px-3 text-sm text-stone-900"
        />
      </div>
      <a
        href={`/api/admin/packing-slips.pdf?date=${encodeURIComponent(date)}`}
        target="_blank"
        rel="noopener"
        aria-disabled={!date}
        className={buttonClass({ variant: "outline", className: "gap-2" })}
      >
        <DocumentIcon className="size-4" />
        Print packing slips
        <span className="sr-only"> (PDF, opens in a new tab)</span>
      </a>
    </div>
  );
}
