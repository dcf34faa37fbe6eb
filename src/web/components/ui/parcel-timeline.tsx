import { formatDateTime } from "#domain/sa-format.js";
import type { TrackingEvent } from "#domain/schemas/tracking.js";
import type { ShipmentState } from "#domain/tracking.js";

/** The problem states read as such (amber), the end reached as done (green); the rest plain. */
const PROBLEMS: readonly ShipmentState[] = ["failed_attempt", "not_collected", "returned", "lost"];
const dotClass = (state: ShipmentState) =>
  PROBLEMS.includes(state) ? "bg-amber-500" : state === "delivered" ? "bg-green-600" : "bg-brand-700";

/** A parcel's tracking events, oldest first, as the courier reported them (the tracking page and the admin's order). */
export function ParcelTimeline({ events, label }: { events: readonly TrackingEvent[]; label: string }) {
  return (
    <ol aria-label={label} className="grid gap-0">
      {events.map((event, index) => (
        <li
          key={`${event.at}-${event.state}`}
          className="relative grid grid-cols-[1.25rem_minmax(0,1fr)] gap-x-3 pb-4 last:pb-0"
        >
          <span aria-hidden="true" className="relative flex justify-center">
            <span className={`mt-1.5 size-2.5 rounded-full ${dotClass(event.state)}`} />
            {index < events.length - 1 && <span className="absolute top-5 bottom-[-0.25rem] w-px bg-stone-300" />}
          </span>
          <div className="min-w-0 text-sm">
            <p className="font-semibold text-stone-900">{event.label}</p>
            <p className="text-stone-600">
              <time dateTime={event.at}>{formatDateTime(event.at)}</time>
              {event.location && <> · {event.location}</>}
            </p>
            {event.message && event.message !== event.label && <p className="text-stone-700">{event.message}</p>}
          </div>
        </li>
      ))}
    </ol>
  );
}
