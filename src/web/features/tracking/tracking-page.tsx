import { Link, useParams, useSearch } from "wouter";
import { formatCalendarDate, formatDate } from "#domain/sa-format.js";
import type { OrderTracking } from "#domain/schemas/tracking.js";
import { buttonClass } from "#web/components/ui/button.js";
import { ParcelTimeline } from "#web/components/ui/parcel-timeline.js";
import { ApiError } from "#web/lib/api.js";
import { usePageTitle } from "#web/lib/use-page-title.js";
import { useSession } from "../account";
import { useTracking } from "./api/get-tracking";

const PROBLEM_STATES = new Set(["failed_attempt", "not_collected", "returned", "lost"]);

function Card({ children, className = "" }: { children: React.ReactNode; className?: string }) {
  return (
    <section className={`rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5 ${className}`}>
      {children}
    </section>
  );
}

/** Where the parcel is now, in one line, and the day it is expected or came. */
function Headline({ tracking }: { tracking: OrderTracking }) {
  const { shipment } = tracking;
  const now = shipment ? shipment.stateLabel : "We are packing your order";
  const day = tracking.deliveredAt
    ? `Delivered on ${formatDate(tracking.deliveredAt)}`
    : shipment && (PROBLEM_STATES.has(shipment.state) || shipment.state === "ready_for_collection")
      ? null
      : tracking.expectedDay
        ? `Expected by ${formatCalendarDate(tracking.expectedDay)}`
        : null;
  return (
    <Card>
      <p className="text-xs font-semibold tracking-wide text-stone-600 uppercase">Now</p>
      <p className="mt-1 text-xl font-bold text-stone-900" aria-live="polite">
        {now}
      </p>
      {day && <p className="mt-1 text-stone-700">{day}</p>}
      {shipment && <p className="mt-2 text-sm text-stone-600">Waybill {shipment.waybillNumber}</p>}
      {!shipment && (
        <p className="mt-2 text-sm text-stone-700">
          Once the courier has your parcel, each step shows here and we e-mail you when it is out for delivery or ready
          to collect.
        </p>
      )}
    </Card>
  );
}

/** The locker's PIN while the parcel waits in it: what the customer types at the locker. */
function LockerPin({ tracking }: { tracking: OrderTracking }) {
  const pin = tracking.shipment?.lockerPin;
  if (!pin) return null;
  return (
    <Card className="border-brand-700 bg-brand-50">
      <h2 className="text-base font-bold text-stone-900">Ready for collection</h2>
      <p className="mt-1 text-sm text-stone-800">
        Enter this PIN at the locker{tracking.option.pointName ? ` (${tracking.option.pointName})` : ""} to open your
        compartment:
      </p>
      <p className="tabular mt-2 text-3xl font-bold tracking-[0.3em] text-brand-900">
        <span className="sr-only">PIN </span>
        {pin}
      </p>
      {tracking.option.pointAddress && <p className="mt-2 text-sm text-stone-700">{tracking.option.pointAddress}</p>}
    </Card>
  );
}

function TrackingView({ tracking }: { tracking: OrderTracking }) {
  const { option, shipment, events } = tracking;
  return (
    <div className="grid gap-4">
      <Headline tracking={tracking} />
      <LockerPin tracking={tracking} />
      {shipment?.nextStep && (
        <Card className="border-amber-300 bg-amber-50">
          <h2 className="text-base font-bold text-amber-950">What happens next</h2>
          <p className="mt-1 text-sm text-amber-950">{shipment.nextStep}</p>
        </Card>
      )}
      <Card>
        <h2 className="text-base font-bold text-stone-900">Delivery</h2>
        <p className="mt-1 text-stone-800">{option.label}</p>
        {option.pointName && (
          <p className="text-sm text-stone-700">
            {option.pointName}
            {option.pointAddress && <span className="block">{option.pointAddress}</span>}
          </p>
        )}
      </Card>
      {events.length > 0 && (
        <Card>
          <h2 className="mb-3 text-base font-bold text-stone-900">Your parcel's journey</h2>
          <ParcelTimeline events={events} label="Tracking events, oldest first" />
        </Card>
      )}
    </div>
  );
}

/**
 * /orders/{id}/tracking: the customer follows the parcel (docs/decisions/051): where it is, the
 * expected day, the locker PIN when it is ready, what happens after a problem, and every event.
 * Opened signed in, or from a delivery e-mail's signed link (`?t=`) without signing in.
 */
export default function TrackingPage() {
  const { id = "" } = useParams<{ id: string }>();
  const token = new URLSearchParams(useSearch()).get("t");
  const { user, restoring, setLoginOpen } = useSession();
  const { data, isPending, isError, error, refetch } = useTracking(id, token, user?.id ?? null);
  const number = data?.orderNumber ?? id.slice(-8).toUpperCase();
  usePageTitle(`Track order #${number}`);
  const notFound = isError && error instanceof ApiError && error.status === 404;

  return (
    <div className="mx-auto grid max-w-2xl gap-5 px-4 py-6 sm:py-10">
      <header>
        <p className="text-sm font-semibold text-brand-800">Track your parcel</p>
        <h1 className="text-2xl font-bold text-stone-900">Order #{number}</h1>
      </header>
      {isPending || (notFound && restoring) ? (
        <div role="status" aria-busy="true" aria-label="Loading your parcel" className="grid gap-4">
          <div className="h-28 animate-pulse rounded-xl bg-stone-200/70" />
          <div className="h-40 animate-pulse rounded-xl bg-stone-200/70" />
        </div>
      ) : notFound ? (
        <Card>
          <h2 className="text-base font-bold text-stone-900">We could not find this parcel</h2>
          <p className="mt-1 text-sm text-stone-700">
            {user
              ? "This order is not on your account. Open the link in our delivery e-mail, or check your orders on your profile."
              : "Sign in to the account you ordered with, or open the link in our delivery e-mail (it works for 60 days)."}
          </p>
          <div className="mt-3">
            {user ? (
              <Link href="/profile" className={buttonClass({ variant: "outline" })}>
                My orders
              </Link>
            ) : (
              <button type="button" onClick={() => setLoginOpen(true)} className={buttonClass({})}>
                Sign in
              </button>
            )}
          </div>
        </Card>
      ) : isError ? (
        <Card>
          <p role="alert" className="text-stone-800">
            We could not load your parcel just now.
          </p>
          <button type="button" onClick={() => refetch()} className={`${buttonClass({ variant: "outline" })} mt-3`}>
            Try again
          </button>
        </Card>
      ) : (
        <TrackingView tracking={data} />
      )}
    </div>
  );
}
