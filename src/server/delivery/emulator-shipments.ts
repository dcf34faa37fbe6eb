import { randomBytes, randomInt } from "node:crypto";
import type { FastifyReply } from "fastify";
import {
  emulatorLinkSignature,
  emulatorWebhookSignature,
  missingFields,
  parcelsOf,
  type WireAddress,
} from "./emulator-checks.js";
import { EMULATED_LOCKERS } from "./emulator-points.js";
import { type EmulatedZone, emulatedDoorRate, zoneOfPostalCode } from "./emulator-zones.js";

/**
 * The courier emulator's shipments (docs/decisions/051, round 2), kept in memory: a restart begins
 * again like a fresh sandbox (the shop keeps its own copy of every waybill, label and event, so
 * nothing of the shop's is lost). ShipLogic: POST /shipments, GET /shipments/label?id=,
 * GET /tracking/shipments?tracking_reference=; TCG Locker the same under /api/v1, with the
 * rate_revision_id a locker rate gave echoed and refused when stale. Labels are PDFs at a link that
 * expires after 24 hours (403, as an expired S3 link answers). Tracking events are sent to the shop
 * as signed webhooks, retried until answered 2xx, and duplicated, reordered or lost on request.
 */
export type EmulatedVendor = "shiplogic" | "tcg_locker";

export interface EmulatedEvent {
  id: number;
  date: string;
  status: string;
  message: string;
  location: string;
  /** The locker's collection PIN, on the in-locker event. */
  pin?: string;
}

export interface EmulatedShipment {
  id: number;
  vendor: EmulatedVendor;
  shortReference: string;
  customReference: string;
  serviceLevelCode: string;
  rate: number;
  terminalId: string | null;
  rateRevisionId: string | null;
  customerReference: string;
  /** ShipLogic: the delivery zone and the chargeable kg the rate was worked out from (a re-weigh re-rates it). */
  zone: EmulatedZone | null;
  chargeableKg: number;
  status: string;
  events: EmulatedEvent[];
  createdAt: string;
}

export interface ShipmentControls {
  /** Each webhook is sent twice. */
  duplicateWebhooks: boolean;
  /** The events of one advance are sent newest first. */
  reverseWebhooks: boolean;
  /** Webhooks are not sent at all (the hourly poll must find the events). */
  loseWebhooks: boolean;
  /** Door deliveries fail at the door: "out-for-delivery" is followed by a failed attempt. */
  failDelivery: boolean;
  /** Parcels booked from now on are lost after collection. */
  loseParcels: boolean;
  /** The emulator's clock runs this far ahead (a label link "a day later"). */
  clockAheadMs: number;
}

export const freshShipmentControls = (): ShipmentControls => ({
  duplicateWebhooks: false,
  reverseWebhooks: false,
  loseWebhooks: false,
  failDelivery: false,
  loseParcels: false,
  clockAheadMs: 0,
});

/** How the emulator reaches the shop's webhook endpoint: answers the HTTP status. */
export type WebhookPost = (path: string, body: string, headers: Record<string, string>) => Promise<number>;

export interface WebhookTarget {
  post: WebhookPost;
  secret: string;
  paths: Record<EmulatedVendor, string>;
}

const LABEL_LINK_MS = 24 * 3_600_000;
/** Retries of an unanswered webhook: at once, then sped up as the PayFast emulator does. */
const RETRY_DELAYS_MS = [200, 1_000, 5_000, 15_000];

/** The locker flow and the door flow, as ShipLogic names its statuses (src/Enums/ShipmentStatus.php of its SDK). */
export const DOOR_FLOW = ["collected", "in-transit", "out-for-delivery", "delivered"];
export const LOCKER_FLOW = ["collected", "in-transit", "in-locker", "collected-from-locker"];

export class EmulatedShipments {
  readonly byId = new Map<number, EmulatedShipment>();
  controls = freshShipmentControls();
  #nextId = 108_000;
  #nextEvent = 418_000;
  readonly #linkKey = randomBytes(16).toString("hex");
  #pending = new Set<NodeJS.Timeout>();

  constructor(
    private readonly prefix: string,
    private readonly target: () => WebhookTarget | null,
  ) {}

  now(): number {
    return Date.now() + this.controls.clockAheadMs;
  }

  byReference(reference: string): EmulatedShipment | undefined {
    for (const shipment of this.byId.values()) {
      if (shipment.customReference === reference || shipment.shortReference === reference) return shipment;
    }
    return undefined;
  }

  book(input: Omit<EmulatedShipment, "id" | "shortReference" | "customReference" | "status" | "events" | "createdAt">) {
    const id = this.#nextId++;
    const short = randomBytes(3).toString("hex").toUpperCase();
    const shipment: EmulatedShipment = {
      ...input,
      id,
      shortReference: short,
      customReference: `${input.vendor === "shiplogic" ? "SLX" : "TCG"}${short}`,
      status: "submitted",
      events: [],
      createdAt: new Date(this.now()).toISOString(),
    };
    this.byId.set(id, shipment);
    return shipment;
  }

  asWire(shipment: EmulatedShipment) {
    return {
      id: shipment.id,
      short_tracking_reference: shipment.shortReference,
      custom_tracking_reference: shipment.customReference,
      customer_reference: shipment.customerReference,
      status: shipment.status,
      service_level_code: shipment.serviceLevelCode,
      rate: shipment.rate,
      time_created: shipment.createdAt,
      ...(shipment.rateRevisionId ? { rate_revision_id: shipment.rateRevisionId } : {}),
      ...(shipment.terminalId ? { delivery_address: { terminal_id: shipment.terminalId } } : {}),
    };
  }

  labelUrl(shipment: EmulatedShipment): string {
    const expires = Math.floor((this.now() + LABEL_LINK_MS) / 1000);
    const signature = emulatorLinkSignature(this.#linkKey, String(shipment.id), expires);
    return `${this.prefix}/labels/${shipment.id}.pdf?Expires=${expires}&Signature=${signature}`;
  }

  /** A label link's check: unknown or tampered 403, expired 403 "Request has expired" (S3's answers). */
  async serveLabel(id: string, query: Record<string, string | undefined>, reply: FastifyReply) {
    const expires = Number(query.Expires);
    const shipment = this.byId.get(Number(id));
    const denied = (message: string) =>
      reply
        .status(403)
        .type("application/xml")
        .send(
          `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>${message}</Message></Error>`,
        );
    if (
      !shipment ||
      !Number.isFinite(expires) ||
      query.Signature !== emulatorLinkSignature(this.#linkKey, id, expires)
    ) {
      return denied("Access Denied");
    }
    if (expires * 1000 < this.now()) return denied("Request has expired");
    return reply.type("application/pdf").send(await labelPdf(shipment));
  }

  /**
   * The courier's next steps for a shipment: each status becomes an event (a locker's in-locker
   * event with its PIN), the shipment's status the last, and each is sent to the shop as a webhook
   * (subject to the controls). `failDelivery` and `loseParcels` bend the flow as the controls say.
   */
  advance(shipment: EmulatedShipment, statuses: readonly string[]): EmulatedEvent[] {
    const made: EmulatedEvent[] = [];
    for (const wanted of statuses) {
      let status = wanted;
      if (this.controls.loseParcels && !["submitted", "collected"].includes(status)) status = "lost";
      if (this.controls.failDelivery && status === "delivered" && shipment.vendor === "shiplogic") {
        status = "delivery-failed-attempt";
      }
      const event: EmulatedEvent = {
        id: this.#nextEvent++,
        date: new Date(this.now() + made.length).toISOString(),
        status,
        message: MESSAGES[status] ?? status,
        location: shipment.terminalId ?? "JNB",
        ...(status === "in-locker" ? { pin: String(randomInt(100_000, 1_000_000)) } : {}),
      };
      if (event.pin) event.message = `In the locker; collect with PIN ${event.pin}`;
      shipment.events.push(event);
      shipment.status = status;
      made.push(event);
      if (status === "lost") break;
    }
    if (!this.controls.loseWebhooks) {
      const order = this.controls.reverseWebhooks ? [...made].reverse() : made;
      const twice = this.controls.duplicateWebhooks;
      // One after another, each answered before the next is sent, so they arrive in this order
      // (newest first when reversed); a failed one is retried later on its own, out of order.
      void (async () => {
        for (const event of order) {
          await this.#send(shipment, event, 0);
          if (twice) await this.#send(shipment, event, 0);
        }
      })();
    }
    return made;
  }

  /**
   * The courier weighs the parcel at its hub and finds it heavier (or lighter): the shipment's `rate`
   * becomes the rate for the new weight (or its volume, if more), and a `parcel-dimension-changes`
   * webhook tells the shop (fields of its SDK's ParcelDimensionChangePayload; it carries no amount, so
   * the shop asks GET /shipments?tracking_reference= for the rate). ShipLogic only: a locker's price
   * is its box size's. Answers the new rate, or null for a locker parcel.
   */
  reweigh(shipment: EmulatedShipment, weightKg: number): number | null {
    if (shipment.vendor !== "shiplogic" || !shipment.zone) return null;
    const level = shipment.serviceLevelCode === "EXP" ? "EXP" : "ECO";
    shipment.chargeableKg = Math.max(weightKg, shipment.chargeableKg);
    shipment.rate = emulatedDoorRate(shipment.zone, level, shipment.chargeableKg);
    if (!this.controls.loseWebhooks) {
      const body = JSON.stringify({
        shipment_id: shipment.id,
        shipment_tracking_reference: shipment.shortReference,
        parcel_reference: `${shipment.customReference}/1`,
        source: "hub-scale",
        event_type: "parcel-dimension-changes",
        event_time: new Date(this.now()).toISOString(),
        length_cm: 0,
        width_cm: 0,
        height_cm: 0,
        weight_kg: weightKg,
      });
      void this.#post(shipment, body, 0);
    }
    return shipment.rate;
  }

  /** ShipLogic's tracking-event webhook body (its SDK's TrackingEventPayload). */
  webhookBody(shipment: EmulatedShipment, event: EmulatedEvent): string {
    return JSON.stringify({
      shipment_id: shipment.id,
      custom_tracking_reference: shipment.customReference,
      short_tracking_reference: shipment.shortReference,
      status: event.status,
      event_time: event.date,
      service_level_code: shipment.serviceLevelCode,
      tracking_events: [event],
    });
  }

  /** Posts one webhook; resolves once the shop answered (or failed to), a retry scheduled when it did not take it. */
  #send(shipment: EmulatedShipment, event: EmulatedEvent, attempt: number): Promise<void> {
    return this.#post(shipment, this.webhookBody(shipment, event), attempt);
  }

  #post(shipment: EmulatedShipment, body: string, attempt: number): Promise<void> {
    const target = this.target();
    if (!target) return Promise.resolve();
    const headers = {
      "content-type": "application/json",
      "x-shiplogic-signature": emulatorWebhookSignature(target.secret, body),
    };
    const retry = () => {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) return;
      const timer = setTimeout(() => {
        this.#pending.delete(timer);
        void this.#post(shipment, body, attempt + 1);
      }, delay);
      timer.unref();
      this.#pending.add(timer);
    };
    return target.post(target.paths[shipment.vendor], body, headers).then(
      (status) => {
        if (status < 200 || status >= 300) retry();
      },
      () => retry(),
    );
  }

  /** Every shipment and retry forgotten, controls back to normal (between tests). */
  reset(): void {
    for (const timer of this.#pending) clearTimeout(timer);
    this.#pending.clear();
    this.controls = freshShipmentControls();
  }

  tracking(shipment: EmulatedShipment) {
    return {
      shipments: [
        {
          shipment_id: shipment.id,
          customer_reference: shipment.customerReference,
          short_tracking_reference: shipment.shortReference,
          custom_tracking_reference: shipment.customReference,
          status: shipment.status,
          service_level_code: shipment.serviceLevelCode,
          tracking_events: [...shipment.events].reverse(),
        },
      ],
    };
  }
}

const MESSAGES: Record<string, string> = {
  collected: "Collected from sender",
  "in-transit": "In transit to the destination hub",
  "out-for-delivery": "Out for delivery",
  "delivery-failed-attempt": "Delivery attempted: nobody available to receive",
  delivered: "Delivered",
  "collected-from-locker": "Collected from the locker",
  "collect-and-return-to-hub": "Not collected in time: returning to hub",
  lost: "Parcel could not be traced",
};

async function labelPdf(shipment: EmulatedShipment): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({ size: "A6", margin: 24, info: { Title: `Waybill ${shipment.customReference}` } });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  doc.fontSize(10).text(shipment.vendor === "shiplogic" ? "The Courier Guy (emulated)" : "TCG Locker (emulated)");
  doc.moveDown().fontSize(22).text(shipment.customReference);
  doc.fontSize(10).text(`Service: ${shipment.serviceLevelCode}`);
  if (shipment.terminalId) doc.text(`Locker: ${shipment.terminalId}`);
  doc.text(`Reference: ${shipment.customerReference}`);
  doc.end();
  return done;
}

/** What a booking body must carry, checked by the emulator's own code; null when it is fine. */
export function shipmentProblems(
  vendor: EmulatedVendor,
  body: Record<string, unknown>,
  unknownCodes: ReadonlySet<string>,
): { status: number; message: string } | null {
  const required =
    vendor === "shiplogic"
      ? ["collection_address", "delivery_address", "delivery_contact", "parcels", "service_level_code"]
      : ["collection_address", "delivery_address", "delivery_contact", "service_level_code", "rate_revision_id"];
  const missing = missingFields(body, required);
  if (vendor === "shiplogic") {
    const delivery = body.delivery_address as WireAddress | undefined;
    missing.push(...missingFields(delivery, ["street_address", "code", "country"], "delivery_address."));
    if (!parcelsOf(body.parcels)) missing.push("parcels");
  } else {
    missing.push(...missingFields(body.delivery_address, ["terminal_id"], "delivery_address."));
  }
  missing.push(...missingFields(body.delivery_contact, ["name", "mobile_number"], "delivery_contact."));
  if (missing.length > 0) return { status: 400, message: `Invalid request: ${[...new Set(missing)].join(", ")}` };
  if (vendor === "shiplogic") {
    const code = String((body.delivery_address as WireAddress).code);
    if (!zoneOfPostalCode(code) || unknownCodes.has(code)) {
      return { status: 400, message: `Delivery address not found: postal code ${code}` };
    }
  } else {
    const terminal = String((body.delivery_address as { terminal_id: unknown }).terminal_id);
    if (!EMULATED_LOCKERS.some((locker) => locker.code === terminal)) {
      return { status: 404, message: `Terminal ${terminal} not found` };
    }
  }
  return null;
}
