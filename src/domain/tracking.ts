import type { DeliveryService } from "./delivery.js";

/**
 * A parcel's way from the shop to the customer (docs/decisions/051, round 2): the one home of the
 * states a shipment passes through, their order, and what each means to the shopper. A shipment
 * only moves forward: an event that arrives late (webhooks come out of order) is kept in the
 * timeline but never moves the state back.
 */
export const SHIPMENT_STATES = [
  "booked",
  "collected",
  "in_transit",
  "out_for_delivery",
  "failed_attempt",
  "ready_for_collection",
  "delivered",
  "not_collected",
  "returned",
  "lost",
] as const;
export type ShipmentState = (typeof SHIPMENT_STATES)[number];

/**
 * How far along each state is. A failed attempt follows "out for delivery", and another "out for
 * delivery" may follow it (the courier tries again: movesShipment); the ends (delivered, returned, lost) rank
 * highest, so nothing after them moves the shipment.
 */
const RANK: Record<ShipmentState, number> = {
  booked: 0,
  collected: 1,
  in_transit: 2,
  out_for_delivery: 3,
  failed_attempt: 3.5,
  ready_for_collection: 4,
  not_collected: 5,
  delivered: 6,
  returned: 6,
  lost: 6,
};

export const FINAL_SHIPMENT_STATES: readonly ShipmentState[] = ["delivered", "returned", "lost"];

/**
 * Whether a shipment in `from` moves to `to`: forward only, and a failed attempt may be followed by
 * another "out for delivery" (the courier tries again), never the other way round within a rank.
 */
export function movesShipment(from: ShipmentState, to: ShipmentState): boolean {
  if (FINAL_SHIPMENT_STATES.includes(from)) return false;
  if (RANK[to] > RANK[from]) return true;
  return from === "failed_attempt" && to === "out_for_delivery";
}

/** The states the customer is written to about, once each per order (out for delivery, ready, delivered) and the problems. */
export const NOTIFIED_STATES = [
  "out_for_delivery",
  "ready_for_collection",
  "delivered",
  "failed_attempt",
  "not_collected",
  "lost",
] as const satisfies readonly ShipmentState[];
export type NotifiedState = (typeof NOTIFIED_STATES)[number];

/** The states that need a person at the shop (the admin's "Needs attention"). */
export const ATTENTION_STATES: readonly ShipmentState[] = ["failed_attempt", "not_collected", "returned", "lost"];

export const SHIPMENT_STATE_LABELS: Record<ShipmentState, string> = {
  booked: "Waybill created",
  collected: "Collected by the courier",
  in_transit: "In transit",
  out_for_delivery: "Out for delivery",
  failed_attempt: "Delivery attempt failed",
  ready_for_collection: "Ready for collection",
  delivered: "Delivered",
  not_collected: "Not collected in time",
  returned: "Returned to us",
  lost: "Parcel lost",
};

/** What happens next after a problem, as the customer and the admin read it. */
export function nextStepText(state: ShipmentState, service: DeliveryService): string | null {
  switch (state) {
    case "failed_attempt":
      return "The courier could not deliver and will try again on the next business day. If it fails again, the parcel comes back to us and we will contact you.";
    case "not_collected":
      return service === "locker"
        ? "The parcel was not collected from the locker in time, so it is coming back to us. We will contact you to send it again or refund you."
        : "The parcel was not collected from the counter in time, so it is coming back to us. We will contact you to send it again or refund you.";
    case "returned":
      return "The parcel came back to us. We will contact you to send it again or refund you.";
    case "lost":
      return "The courier has lost the parcel. We will send the order again or refund you in full; we will contact you.";
    default:
      return null;
  }
}

/**
 * ShipLogic's tracking statuses (the same list for TCG Locker, on the same platform), mapped to
 * ours; a status not listed (on-hold, at-hub...) is kept in the timeline as in transit.
 */
const VENDOR_STATUSES: Record<string, ShipmentState> = {
  submitted: "booked",
  "collection-assigned": "booked",
  collected: "collected",
  "at-hub": "in_transit",
  "in-transit": "in_transit",
  "at-destination-hub": "in_transit",
  "delivery-assigned": "in_transit",
  "out-for-delivery": "out_for_delivery",
  "delivery-failed-attempt": "failed_attempt",
  "delivery-exception": "failed_attempt",
  "in-locker": "ready_for_collection",
  "ready-for-pickup": "ready_for_collection",
  delivered: "delivered",
  "collected-from-locker": "delivered",
  "collected-from-counter": "delivered",
  "collect-and-return-to-hub": "not_collected",
  "returned-to-sender": "returned",
  undeliverable: "returned",
  lost: "lost",
};

export function shipmentStateOfVendor(status: string): ShipmentState {
  return VENDOR_STATUSES[status] ?? "in_transit";
}

/** The signed tracking link in an e-mail works this long (a parcel takes days; a link forwarded months later does not). */
export const TRACKING_LINK_DAYS = 60;
