import { randomUUID } from "node:crypto";
import { isIP } from "node:net";
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { bearerToken, missingFields, parcelsOf, type WireAddress, type WireParcel } from "./emulator-checks.js";
import {
  EMULATED_LOCKER_BOXES,
  EMULATED_LOCKERS,
  EMULATED_PICKUP_POINTS,
  type EmulatedPoint,
} from "./emulator-points.js";
import {
  DOOR_FLOW,
  EmulatedShipments,
  type EmulatedVendor,
  LOCKER_FLOW,
  shipmentProblems,
  type WebhookTarget,
} from "./emulator-shipments.js";
import {
  chargeableKg,
  EMULATED_DOOR_RATES,
  type EmulatedZone,
  emulatedDoorRate,
  zoneOfPostalCode,
} from "./emulator-zones.js";

/**
 * A local stand-in for the couriers (COURIER_MODE=local, docs/decisions/051), mounted at
 * /courier-emulator like the PayFast one, answering each vendor's wire format under its own prefix:
 * - /shiplogic: POST /rates (ShipLogic: parcels in cm/kg, answers rates[] with service_level);
 * - /tcg-locker: GET /api/v1/lockers-data, GET /api/v1/locker-rates, POST /api/v1/rates (answers
 *   a rate_revision_id per box size to echo when booking);
 * - /pargo: GET /api/v1/pickup-points (optionally near lat/lng within radius_km).
 * It checks what it receives with its own code (emulator-checks.ts; nothing here imports the
 * shop's clients): the bearer token, the fields each vendor requires, a postal code it knows.
 * Controls make it fail as the vendors do. Shipments, labels and tracking webhooks: emulator-shipments.ts
 * (in memory), with POST /control/advance to move a parcel along and POST /control/reweigh to re-weigh
 * one (tests and the browser spec).
 */
export interface CourierEmulatorControls {
  /** Every call answers 503, as an API down does. */
  down: boolean;
  /** Each answer waits this long first (a slow API; the shop's timeout gives up before). */
  delayMs: number;
  /** Postal codes whose addresses ShipLogic cannot place (400 "address not found"). */
  unknownCodes: Set<string>;
  /** Lockers that are full: their rates are refused (409), and lockers-data marks them so. */
  fullLockers: Set<string>;
  /** Points closed since they were listed: lockers-data and pickup-points leave them out or mark them. */
  closedPoints: Set<string>;
}

export interface EmulatedRateRevision {
  id: string;
  terminalId: string;
  boxType: string;
  rateRand: number;
  issuedAt: number;
  /** Set by `staleRevisions`: a booking against it is refused in round 2. */
  stale: boolean;
}

/** What the emulator keeps between calls (memory; a restart begins again like a fresh sandbox). */
export interface CourierEmulatorState {
  controls: CourierEmulatorControls;
  rateRevisions: Map<string, EmulatedRateRevision>;
  /** Shipments by id, with their waybill, label link and tracking events (emulator-shipments.ts). */
  shipments: EmulatedShipments;
}

export interface CourierEmulator {
  plugin: FastifyPluginAsync;
  state: CourierEmulatorState;
  /** Every control back to normal, for the next test. */
  reset(): void;
  /** The rate revisions issued so far go stale, as after a price change. */
  staleRevisions(): void;
  /** The courier's next steps for a shipment (by tracking reference), sent as webhooks; the whole flow when none are given. */
  advance(trackingReference: string, statuses?: readonly string[]): void;
  /** The courier re-weighs a door parcel: its rate goes up for the new weight, and the shop hears by webhook. Answers the new rate in rand. */
  reweigh(trackingReference: string, weightKg: number): number | null;
}

/** The emulator's expected tokens (the shop's config gives the same in local mode). */
export interface EmulatorTokens {
  shiplogic: string;
  tcgLocker: string;
  pargo: string;
}

const freshControls = (): CourierEmulatorControls => ({
  down: false,
  delayMs: 0,
  unknownCodes: new Set(),
  fullLockers: new Set(),
  closedPoints: new Set(),
});

const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

function isLoopback(ip: string): boolean {
  const address = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  return address === "::1" || (isIP(address) === 4 && address.startsWith("127."));
}

/** TCG Locker's lockers-data item (field names from its Postman collection and plugins: see decision 051). */
function asTcgLocker(point: EmulatedPoint, controls: CourierEmulatorControls) {
  const closed = controls.closedPoints.has(point.code);
  return {
    code: point.code,
    name: point.name,
    latitude: String(point.lat),
    longitude: String(point.lng),
    address: `${point.street}, ${point.suburb}, ${point.city}, ${point.postalCode}`,
    detailed_address: {
      street: point.street,
      sublocality: point.suburb,
      locality: point.city,
      province: point.province,
      postal_code: point.postalCode,
      country: "South Africa",
    },
    status: closed ? "offline" : controls.fullLockers.has(point.code) ? "full" : "online",
    openinghours: point.hours.map(([day, open, close]) => ({
      day: DAY_NAMES[day],
      open_time: open,
      close_time: close,
    })),
    lstTypesBoxes: EMULATED_LOCKER_BOXES.map((box) => ({
      name: box.box_type,
      length: box.length,
      width: box.width,
      height: box.height,
      weight: box.weight,
    })),
  };
}

/** Pargo's pickup point (shape seen in third-party code only: unverified, decision 051). */
function asPargoPoint(point: EmulatedPoint) {
  return {
    pargoPointCode: point.code,
    storeName: point.name,
    address1: point.street,
    suburb: point.suburb,
    city: point.city,
    province: point.province,
    postalcode: point.postalCode,
    latitude: point.lat,
    longitude: point.lng,
    businessHours: point.hours
      .map(([day, open, close]) => `${DAY_NAMES[day]?.slice(0, 3)} ${open}-${close}`)
      .join(", "),
  };
}

function kmBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 12_742 * Math.asin(Math.sqrt(h));
}

/** ShipLogic's business days ahead, weekends skipped (the emulator does not know holidays: the shop does). */
function workingDaysAhead(days: number, from = new Date()): string {
  const date = new Date(from);
  for (let left = days; left > 0; ) {
    date.setUTCDate(date.getUTCDate() + 1);
    const dow = date.getUTCDay();
    if (dow !== 0 && dow !== 6) left -= 1;
  }
  return date.toISOString();
}

/** The courier's next steps for a shipment (by tracking reference), its vendor's whole flow when none are given; null for none. */
function advanceShipment(state: CourierEmulatorState, trackingReference: string, statuses?: readonly string[]) {
  const shipment = state.shipments.byReference(trackingReference);
  if (!shipment) return null;
  return state.shipments.advance(shipment, statuses ?? (shipment.vendor === "shiplogic" ? DOOR_FLOW : LOCKER_FLOW));
}

/**
 * POST /shipments: books a parcel once the vendor's checks pass. A TCG Locker booking echoes a rate
 * revision this emulator issued for that terminal (refused when stale, offline or full); a ShipLogic
 * booking is rated from its delivery zone and chargeable kg.
 */
async function bookShipment(
  state: CourierEmulatorState,
  vendor: EmulatedVendor,
  body: Record<string, unknown>,
  reply: FastifyReply,
) {
  const problem = shipmentProblems(vendor, body, state.controls.unknownCodes);
  if (problem) return reply.status(problem.status).send({ message: problem.message });
  let terminalId: string | null = null;
  let rateRevisionId: string | null = null;
  let rate = 0;
  let doorZone: EmulatedZone | null = null;
  let kg = 0;
  if (vendor === "tcg_locker") {
    terminalId = String((body.delivery_address as { terminal_id: unknown }).terminal_id);
    rateRevisionId = String(body.rate_revision_id);
    const revision = state.rateRevisions.get(rateRevisionId);
    if (!revision || revision.terminalId !== terminalId) {
      return reply.status(422).send({ message: `Unknown rate_revision_id ${rateRevisionId} for ${terminalId}` });
    }
    if (revision.stale) {
      return reply
        .status(409)
        .send({ message: `rate_revision_id ${rateRevisionId} is no longer valid: request rates again` });
    }
    if (state.controls.closedPoints.has(terminalId)) {
      return reply.status(409).send({ message: `Terminal ${terminalId} is offline` });
    }
    if (state.controls.fullLockers.has(terminalId)) {
      return reply.status(409).send({ message: `Terminal ${terminalId} has no available boxes` });
    }
    rate = revision.rateRand;
  } else {
    const parcels = parcelsOf(body.parcels) ?? [];
    const zone = zoneOfPostalCode(String((body.delivery_address as WireAddress).code));
    const level = body.service_level_code === "EXP" ? "EXP" : "ECO";
    rate = zone ? emulatedDoorRate(zone, level, chargeableKg(parcels)) : 0;
    doorZone = zone;
    kg = chargeableKg(parcels);
  }
  const shipment = state.shipments.book({
    vendor,
    serviceLevelCode: String(body.service_level_code),
    rate,
    terminalId,
    rateRevisionId,
    customerReference: String(body.customer_reference ?? ""),
    zone: doorZone,
    chargeableKg: kg,
  });
  return state.shipments.asWire(shipment);
}

/** Booking, label and tracking, the same calls at ShipLogic and (under /api/v1) TCG Locker. */
const shipmentRoutes = (state: CourierEmulatorState, vendor: EmulatedVendor) => async (scope: FastifyInstance) => {
  scope.post("/shipments", async (request, reply) =>
    bookShipment(state, vendor, (request.body ?? {}) as Record<string, unknown>, reply),
  );
  scope.get("/shipments/label", async (request, reply) => {
    const id = Number((request.query as { id?: string }).id);
    const shipment = state.shipments.byId.get(id);
    if (!shipment || shipment.vendor !== vendor) return reply.status(404).send({ message: `Shipment ${id} not found` });
    return { url: state.shipments.labelUrl(shipment) };
  });
  // The shipment as it is now (its SDK's getShipmentByTrackingReference): `rate` re-rated after a re-weigh.
  scope.get("/shipments", async (request, reply) => {
    const reference = String((request.query as { tracking_reference?: string }).tracking_reference ?? "");
    const shipment = state.shipments.byReference(reference);
    if (!shipment || shipment.vendor !== vendor) {
      return reply.status(404).send({ message: `No shipment with tracking reference ${reference}` });
    }
    return { shipments: [state.shipments.asWire(shipment)] };
  });
  scope.get("/tracking/shipments", async (request, reply) => {
    const reference = String((request.query as { tracking_reference?: string }).tracking_reference ?? "");
    const shipment = state.shipments.byReference(reference);
    if (!shipment || shipment.vendor !== vendor) {
      return reply.status(404).send({ message: `No shipment with tracking reference ${reference}` });
    }
    return state.shipments.tracking(shipment);
  });
};

/** The common gate: this machine only, the vendor's token, the controls' failures. */
const gate =
  (state: CourierEmulatorState, expected: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isLoopback(request.ip)) {
      return reply
        .status(403)
        .send({ message: "The courier emulator answers this machine only.", code: "EMULATOR_LOCAL_ONLY" });
    }
    if (state.controls.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.controls.delayMs));
    if (state.controls.down) return reply.status(503).send({ message: "Service Unavailable" });
    if (bearerToken(request.headers.authorization) !== expected) {
      return reply.status(401).send({ message: "Unauthorized" });
    }
  };

/** ShipLogic's economy and express rates for a zone and chargeable kg, each with its delivery day. */
function shiplogicRates(zone: EmulatedZone, kg: number) {
  return (["ECO", "EXP"] as const).map((level, index) => {
    const rate = emulatedDoorRate(zone, level, kg);
    const days = EMULATED_DOOR_RATES[zone][level].days;
    return {
      rate,
      rate_excluding_vat: Math.round((rate / 1.15) * 100) / 100,
      service_level: {
        id: 23_000 + index,
        code: level,
        name: level === "ECO" ? "Economy" : "Express",
        delivery_date_from: workingDaysAhead(days),
        delivery_date_to: workingDaysAhead(days),
      },
    };
  });
}

/** ShipLogic under /shiplogic: its shipments, and POST /rates for a door parcel. */
const shiplogicRoutes =
  (state: CourierEmulatorState, token: string): FastifyPluginAsync =>
  async (scope) => {
    scope.addHook("onRequest", gate(state, token));
    await scope.register(shipmentRoutes(state, "shiplogic"));
    scope.post("/rates", async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const missing = missingFields(body, ["collection_address", "delivery_address", "parcels"]);
      const delivery = body.delivery_address as WireAddress | undefined;
      const collection = body.collection_address as WireAddress | undefined;
      missing.push(...missingFields(delivery, ["code", "country"], "delivery_address."));
      missing.push(...missingFields(collection, ["code", "country"], "collection_address."));
      const parcels: WireParcel[] | null = parcelsOf(body.parcels);
      if (missing.length > 0 || !parcels) {
        return reply
          .status(400)
          .send({ message: `Invalid request: ${[...missing, ...(parcels ? [] : ["parcels"])].join(", ")}` });
      }
      const code = String(delivery?.code ?? "");
      const zone = zoneOfPostalCode(code);
      if (!zone || state.controls.unknownCodes.has(code)) {
        return reply.status(400).send({ message: `Delivery address not found: postal code ${code}` });
      }
      return { rates: shiplogicRates(zone, chargeableKg(parcels)) };
    });
  };

/** A locker's rate per box size, each with a fresh rate revision kept to be echoed when booking. */
function issueLockerRates(state: CourierEmulatorState, terminalId: string) {
  return EMULATED_LOCKER_BOXES.map((box) => {
    const revision: EmulatedRateRevision = {
      id: randomUUID(),
      terminalId,
      boxType: box.box_type,
      rateRand: box.rand,
      issuedAt: Date.now(),
      stale: false,
    };
    state.rateRevisions.set(revision.id, revision);
    return {
      service_level: {
        code: `D2L${box.box_type} - ECO`,
        name: `Door to Locker ${box.box_type}`,
        box_type: box.box_type,
        box_type_name: box.box_type_name,
        dimensions: { length: box.length, width: box.width, height: box.height, weight: box.weight },
      },
      rate: box.rand,
      rate_excluding_vat: Math.round((box.rand / 1.15) * 100) / 100,
      rate_revision_id: revision.id,
    };
  });
}

/** TCG Locker under /tcg-locker: its shipments, lockers, box rates and a locker's rates. */
const tcgLockerRoutes =
  (state: CourierEmulatorState, token: string): FastifyPluginAsync =>
  async (scope) => {
    scope.addHook("onRequest", gate(state, token));
    await scope.register(shipmentRoutes(state, "tcg_locker"), { prefix: "/api/v1" });
    scope.get("/api/v1/lockers-data", async () => EMULATED_LOCKERS.map((point) => asTcgLocker(point, state.controls)));
    scope.get("/api/v1/locker-rates", async () =>
      EMULATED_LOCKER_BOXES.map((box) => ({
        box_type: box.box_type,
        box_type_name: box.box_type_name,
        rate: box.rand,
      })),
    );
    scope.post("/api/v1/rates", async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const missing = missingFields(body, ["collection_address", "delivery_address"]);
      const delivery = body.delivery_address as { terminal_id?: unknown } | undefined;
      missing.push(...missingFields(delivery, ["terminal_id"], "delivery_address."));
      if (missing.length > 0) return reply.status(400).send({ message: `Invalid request: ${missing.join(", ")}` });
      const terminalId = String(delivery?.terminal_id);
      const locker = EMULATED_LOCKERS.find((point) => point.code === terminalId);
      if (!locker) return reply.status(404).send({ message: `Terminal ${terminalId} not found` });
      if (state.controls.closedPoints.has(terminalId)) {
        return reply.status(409).send({ message: `Terminal ${terminalId} is offline` });
      }
      if (state.controls.fullLockers.has(terminalId)) {
        return reply.status(409).send({ message: `Terminal ${terminalId} has no available boxes` });
      }
      return { rates: issueLockerRates(state, terminalId) };
    });
  };

/** Pargo under /pargo: its open pickup points, optionally near a place. */
const pargoRoutes =
  (state: CourierEmulatorState, token: string): FastifyPluginAsync =>
  async (scope) => {
    scope.addHook("onRequest", gate(state, token));
    scope.get("/api/v1/pickup-points", async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const open = EMULATED_PICKUP_POINTS.filter((point) => !state.controls.closedPoints.has(point.code));
      if (query.lat === undefined && query.lng === undefined) return { data: open.map(asPargoPoint) };
      const lat = Number(query.lat);
      const lng = Number(query.lng);
      const radius = Number(query.radius_km ?? "10");
      if (![lat, lng, radius].every(Number.isFinite)) {
        return reply.status(422).send({ message: "lat, lng and radius_km must be numbers" });
      }
      return { data: open.filter((point) => kmBetween(point, { lat, lng }) <= radius).map(asPargoPoint) };
    });
  };

/** The emulator's own controls (no vendor has them), for this machine only: advance and re-weigh a parcel. */
async function controlRoutes(scope: FastifyInstance, state: CourierEmulatorState) {
  // Move a parcel along, as its courier would.
  scope.post("/control/advance", async (request, reply) => {
    if (!isLoopback(request.ip)) return reply.status(403).send({ message: "This machine only" });
    const body = (request.body ?? {}) as { tracking_reference?: unknown; statuses?: unknown };
    const statuses = Array.isArray(body.statuses) ? body.statuses.map(String) : undefined;
    const events = advanceShipment(state, String(body.tracking_reference ?? ""), statuses);
    if (!events) return reply.status(404).send({ message: "No such shipment" });
    return { events };
  });
  // The courier re-weighs a parcel at its hub (ShipLogic door parcels only).
  scope.post("/control/reweigh", async (request, reply) => {
    if (!isLoopback(request.ip)) return reply.status(403).send({ message: "This machine only" });
    const body = (request.body ?? {}) as { tracking_reference?: unknown; weight_kg?: unknown };
    const weightKg = Number(body.weight_kg);
    if (!Number.isFinite(weightKg) || weightKg <= 0)
      return reply.status(400).send({ message: "weight_kg must be above 0" });
    const shipment = state.shipments.byReference(String(body.tracking_reference ?? ""));
    if (!shipment) return reply.status(404).send({ message: "No such shipment" });
    const rate = state.shipments.reweigh(shipment, weightKg);
    if (rate === null) return reply.status(409).send({ message: "A locker parcel is priced by its box, not weighed" });
    return { rate };
  });
}

/** Every vendor under its prefix, the label links and the emulator's controls. */
const emulatorRoutes =
  (state: CourierEmulatorState, tokens: EmulatorTokens): FastifyPluginAsync =>
  async (scope) => {
    await scope.register(shiplogicRoutes(state, tokens.shiplogic), { prefix: "/shiplogic" });
    await scope.register(tcgLockerRoutes(state, tokens.tcgLocker), { prefix: "/tcg-locker" });
    await scope.register(pargoRoutes(state, tokens.pargo), { prefix: "/pargo" });
    // The label links, as S3 serves them: no token, the link's own signature and expiry.
    scope.get("/labels/:file", async (request, reply) => {
      const file = (request.params as { file: string }).file;
      return state.shipments.serveLabel(file.replace(/\.pdf$/, ""), request.query as Record<string, string>, reply);
    });
    await controlRoutes(scope, state);
  };

export function createCourierEmulator(
  tokens: EmulatorTokens,
  webhooks: () => WebhookTarget | null = () => null,
): CourierEmulator {
  const state: CourierEmulatorState = {
    controls: freshControls(),
    rateRevisions: new Map(),
    shipments: new EmulatedShipments("/courier-emulator", webhooks),
  };
  return {
    plugin: emulatorRoutes(state, tokens),
    state,
    reset() {
      state.controls = freshControls();
      state.shipments.reset();
    },
    advance(trackingReference, statuses) {
      advanceShipment(state, trackingReference, statuses);
    },
    reweigh(trackingReference, weightKg) {
      const shipment = state.shipments.byReference(trackingReference);
      return shipment ? state.shipments.reweigh(shipment, weightKg) : null;
    },
    staleRevisions() {
      for (const revision of state.rateRevisions.values()) revision.stale = true;
    },
  };
}
