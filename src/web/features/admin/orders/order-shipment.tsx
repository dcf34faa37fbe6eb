import { formatRand } from "#domain/money.js";
import { formatCalendarDate, formatDateTime } from "#domain/sa-format.js";
import type { AdminShipmentAnswer } from "#domain/schemas/tracking.js";
import { Button } from "#web/components/ui/button.js";
import { ParcelTimeline } from "#web/components/ui/parcel-timeline.js";
import { PdfLink } from "#web/components/ui/pdf-link.js";
import { errorMessage } from "#web/lib/api.js";
import { LoadError, LoadingRows, Panel } from "../shared";
import { useCreateWaybill } from "./api/create-waybill";
import { labelPdfUrl, useAdminShipment } from "./api/get-shipment";
import type { AdminOrder } from "./order-model";

/** Why an order has no "Create waybill": not paid yet, already on its way, or a Pargo counter (booked in Pargo's portal). */
function waybillBlocked(order: AdminOrder): string | null {
  if (order.delivery.service === "pickup_point") {
    return "Pargo counters are booked in Pargo's own portal: use Mark as Shipped with its tracking number.";
  }
  if (order.status === "completed") return null;
  if (order.status === "processed") return "Shipped by hand: no waybill was booked here.";
  return "A waybill can be created once the order is paid.";
}

/**
 * The order's delivery on its admin page (docs/decisions/051): the option the shopper chose, then
 * "Create waybill" on a paid order, or the waybill booked, its label PDF and the parcel's timeline.
 */
export function OrderShipment({ order }: { order: AdminOrder }) {
  const { data, isPending, isError, refetch } = useAdminShipment(order.id);
  const create = useCreateWaybill();
  const { delivery } = order;
  const shipment = data?.shipment ?? null;
  const blocked = waybillBlocked(order);

  return (
    <Panel className="grid gap-3 p-4 text-sm text-stone-800">
      <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 gap-y-1">
        <dt className="text-stone-600">Option</dt>
        <dd className="font-semibold text-stone-900">{delivery.label}</dd>
        {delivery.pointName && (
          <>
            <dt className="text-stone-600">{delivery.service === "locker" ? "Locker" : "Counter"}</dt>
            <dd>
              {delivery.pointName} ({delivery.pointCode})
              {delivery.pointAddress && <span className="block text-stone-600">{delivery.pointAddress}</span>}
            </dd>
          </>
        )}
        {delivery.expectedDay && (
          <>
            <dt className="text-stone-600">Expected</dt>
            <dd>{formatCalendarDate(delivery.expectedDay)}</dd>
          </>
        )}
      </dl>
      {isPending ? (
        <LoadingRows rows={1} label="Loading the waybill" />
      ) : isError ? (
        <LoadError what="the waybill" onRetry={() => refetch()} />
      ) : shipment ? (
        <div className="grid gap-3 border-t border-stone-100 pt-3">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 gap-y-1">
              <dt className="text-stone-600">Waybill</dt>
              <dd className="tabular font-semibold text-stone-900">{shipment.waybillNumber}</dd>
              <dt className="text-stone-600">Courier</dt>
              <dd>
                {shipment.courierName}, booked {formatDateTime(shipment.createdAt)}
              </dd>
              <dt className="text-stone-600">Cost</dt>
              <dd>
                <ShipmentCost shipment={shipment} />
              </dd>
              <dt className="text-stone-600">Now</dt>
              <dd className="font-semibold text-stone-900">{shipment.stateLabel}</dd>
            </dl>
            <PdfLink href={labelPdfUrl(order.id)}>Download label</PdfLink>
          </div>
          {shipment.nextStep && (
            <p
              role="status"
              className="rounded-lg bg-amber-50 px-3 py-2 text-amber-950 ring-1 ring-amber-300 ring-inset"
            >
              {shipment.nextStep}
            </p>
          )}
          {shipment.events.length > 0 ? (
            <ParcelTimeline events={shipment.events} label="Where the parcel has been" />
          ) : (
            <p className="text-stone-600">The courier has not collected the parcel yet.</p>
          )}
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-stone-100 pt-3">
          <p className="min-w-0 flex-1 basis-56 text-stone-700">
            {blocked ??
              "No waybill yet. Create one to book the parcel with the courier; the order moves to shipped when the courier collects it."}
          </p>
          {!blocked && (
            <Button onClick={() => create.mutate(order.id)} disabled={create.isPending}>
              {create.isPending ? "Booking..." : "Create waybill"}
            </Button>
          )}
          {create.isError && (
            <p role="alert" className="w-full text-red-900">
              {errorMessage(create.error, "The waybill was not created.")}
            </p>
          )}
        </div>
      )}
    </Panel>
  );
}

type Shipment = NonNullable<AdminShipmentAnswer["shipment"]>;

/**
 * What delivery cost (decision 053): the fee the customer paid, the courier's quote at booking, and,
 * once the courier has re-weighed the parcel, its new charge and how much more (or less) it is.
 */
function ShipmentCost({ shipment }: { shipment: Shipment }) {
  const { customerPaidCents: paid, chargedCents: quoted, finalChargedCents: final, reweighedGrams } = shipment;
  const charged = final ?? quoted;
  const extra = final !== null && quoted !== null ? final - quoted : 0;
  return (
    <span className="grid gap-0.5 tabular">
      <span>
        Customer paid {formatRand(paid)}
        {quoted !== null && <> · courier quoted {formatRand(quoted)}</>}
      </span>
      {final !== null && (
        <span className={extra > 0 ? "font-semibold text-amber-900" : undefined}>
          Re-weighed by the courier
          {reweighedGrams !== null && ` at ${(reweighedGrams / 1000).toLocaleString("en-ZA")} kg`}: charged{" "}
          {formatRand(final)}
          {extra !== 0 && ` (${formatRand(Math.abs(extra))} ${extra > 0 ? "more" : "less"} than quoted)`}
        </span>
      )}
      {charged !== null && charged !== paid && (
        <span className="text-stone-600">
          {charged > paid
            ? `The shop pays ${formatRand(charged - paid)} more than the customer paid.`
            : `The customer paid ${formatRand(paid - charged)} more than the courier charged.`}
        </span>
      )}
    </span>
  );
}
