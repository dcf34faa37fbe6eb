import type { CourierBooking, CourierTrackingEvent, DoorBooking } from "./courier-api.js";
import { CourierError, type CourierRequest, courierJson } from "./courier-http.js";
import { shiplogicAddress } from "./shiplogic.js";

/**
 * ShipLogic's shipments (decision 051, round 2; paths and fields from sonnenglas/shiplogic-php-sdk:
 * ShipmentService.php, ShipmentRequest.php, TrackingService.php and its fixtures): POST /shipments
 * books, GET /shipments/label?id= answers {url} (a signed link valid 24 hours), GET
 * /tracking/shipments?tracking_reference= the events. TCG Locker is on the same platform and is
 * called the same way under /api/v1 (unverified: tcg-locker.ts).
 */
interface WireShipment {
  id?: number | string;
  short_tracking_reference?: string;
  custom_tracking_reference?: string;
  service_level_code?: string;
  rate?: number;
}

interface WireTracking {
  shipments?: {
    tracking_events?: {
      id?: number | string;
      status?: string;
      date?: string;
      message?: string;
      location?: string;
      pin?: string;
    }[];
  }[];
}

const cm = (mm: number) => Math.round(mm / 10);

export function bookingOf(answer: WireShipment): CourierBooking {
  if (answer.id === undefined || !answer.short_tracking_reference) {
    throw new CourierError("down", "The courier answered a booking without a shipment id or tracking reference");
  }
  return {
    vendorShipmentId: String(answer.id),
    waybillNumber: answer.custom_tracking_reference ?? answer.short_tracking_reference,
    trackingReference: answer.short_tracking_reference,
    serviceLevelCode: answer.service_level_code ?? "",
    chargedCents: typeof answer.rate === "number" ? Math.round(answer.rate * 100) : null,
  };
}

export async function shiplogicBook(request: CourierRequest, booking: DoorBooking): Promise<CourierBooking> {
  const answer = await courierJson<WireShipment>(request, "POST", "/shipments", {
    collection_address: { ...shiplogicAddress(booking.from), type: "business" },
    collection_contact: { name: "Dispatch", mobile_number: "", email: "" },
    delivery_address: shiplogicAddress(booking.to),
    delivery_contact: {
      name: booking.contact.name,
      mobile_number: booking.contact.mobileNumber,
      email: booking.contact.email,
    },
    parcels: booking.boxes.map(({ box, weightGrams }) => ({
      submitted_length_cm: cm(box.lengthMm),
      submitted_width_cm: cm(box.widthMm),
      submitted_height_cm: cm(box.heightMm),
      submitted_weight_kg: Math.max(0.1, weightGrams / 1000),
    })),
    service_level_code: booking.level === "express" ? "EXP" : "ECO",
    customer_reference: booking.reference,
    mute_notifications: false,
  });
  return bookingOf(answer);
}

/** The label: its link asked for, then the PDF fetched from it at once (no token: the link is signed). */
export async function shiplogicLabel(request: CourierRequest, prefix: string, shipmentId: string): Promise<Buffer> {
  const answer = await courierJson<{ url?: string }>(
    request,
    "GET",
    `${prefix}/shipments/label?id=${encodeURIComponent(shipmentId)}`,
  );
  if (!answer.url) throw new CourierError("down", "The courier gave no label link");
  const response = await request.send(answer.url, { method: "GET" });
  if (!response.ok) throw new CourierError("refused", `The label link answered ${response.status}`, response.status);
  const pdf = Buffer.from(await response.arrayBuffer());
  if (pdf.subarray(0, 5).toString("latin1") !== "%PDF-") throw new CourierError("down", "The label is not a PDF");
  return pdf;
}

export async function shiplogicTracking(
  request: CourierRequest,
  prefix: string,
  reference: string,
): Promise<CourierTrackingEvent[]> {
  const answer = await courierJson<WireTracking>(
    request,
    "GET",
    `${prefix}/tracking/shipments?tracking_reference=${encodeURIComponent(reference)}`,
  );
  return (answer.shipments?.[0]?.tracking_events ?? []).flatMap((event) => trackingEventOf(event));
}

/**
 * The shipment as the courier has it now, `GET /shipments?tracking_reference=` (the SDK's
 * getShipmentByTrackingReference; it answers `shipments[]` or the shipment itself): its `rate` in
 * cents. That ShipLogic re-rates `rate` after a re-weigh is **unverified** (decision 053).
 */
export async function shiplogicCharge(
  request: CourierRequest,
  prefix: string,
  reference: string,
): Promise<number | null> {
  const answer = await courierJson<WireShipment & { shipments?: WireShipment[] }>(
    request,
    "GET",
    `${prefix}/shipments?tracking_reference=${encodeURIComponent(reference)}`,
  );
  const rate = (answer.shipments?.[0] ?? answer).rate;
  return typeof rate === "number" && Number.isFinite(rate) && rate >= 0 ? Math.round(rate * 100) : null;
}

/** A wire event, or nothing when it lacks an id, a status or a date. */
export function trackingEventOf(event: unknown): CourierTrackingEvent[] {
  const e = (event ?? {}) as Record<string, unknown>;
  const date = typeof e.date === "string" ? e.date : "";
  if ((typeof e.id !== "number" && typeof e.id !== "string") || typeof e.status !== "string" || !date) return [];
  if (Number.isNaN(Date.parse(date))) return [];
  return [
    {
      id: String(e.id),
      status: e.status,
      date,
      message: typeof e.message === "string" ? e.message.slice(0, 300) : "",
      location: typeof e.location === "string" ? e.location.slice(0, 100) : null,
      pin: typeof e.pin === "string" && /^\d{4,10}$/.test(e.pin) ? e.pin : null,
    },
  ];
}
