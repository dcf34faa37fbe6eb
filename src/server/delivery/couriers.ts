import type { FastifyInstance } from "fastify";
import type { Config } from "../platform/config.js";
import type { CourierApi } from "./courier-api.js";
import { CourierError, type CourierRequest, type CourierSend } from "./courier-http.js";
import { pargoPickupPoints } from "./pargo.js";
import { shiplogicDoorRates } from "./shiplogic.js";
import { shiplogicBook, shiplogicCharge, shiplogicLabel, shiplogicTracking } from "./shipments.js";
import { tcgLockerBook, tcgLockerRates, tcgLockers } from "./tcg-locker.js";

/**
 * COURIER_MODE=manual: the shop ships by hand and asks no courier. Nothing should call this (options
 * are flat and door only, waybills are refused first); if something does, it fails as a courier that
 * refuses, which every caller already answers plainly.
 */
function noCourier(): never {
  throw new CourierError("refused", "this shop ships by hand (COURIER_MODE=manual): no courier is connected");
}
const MANUAL_API: CourierApi = {
  doorRates: async () => noCourier(),
  lockerRates: async () => noCourier(),
  lockers: async () => noCourier(),
  pickupPoints: async () => noCourier(),
  bookDoor: async () => noCourier(),
  bookLocker: async () => noCourier(),
  labelPdf: async () => noCourier(),
  tracking: async () => noCourier(),
  shipmentCharge: async () => noCourier(),
};

/** The vendors behind the one interface, each with its base URL, token and the time limit. */
export function courierApi(config: Config, send: CourierSend): CourierApi {
  if (config.courier.mode === "manual") return MANUAL_API;
  const { baseUrls, tokens, timeoutMs } = config.courier;
  const at = (vendor: keyof typeof baseUrls): CourierRequest => ({
    send,
    baseUrl: baseUrls[vendor],
    token: tokens[vendor],
    timeoutMs,
  });
  return {
    doorRates: (from, to, boxes) => shiplogicDoorRates(at("shiplogic"), from, to, boxes),
    lockerRates: (from, terminalId) => tcgLockerRates(at("tcgLocker"), from, terminalId),
    lockers: () => tcgLockers(at("tcgLocker")),
    pickupPoints: () => pargoPickupPoints(at("pargo")),
    bookDoor: (booking) => shiplogicBook(at("shiplogic"), booking),
    bookLocker: (booking) => tcgLockerBook(at("tcgLocker"), booking),
    labelPdf: (vendor, id) =>
      vendor === "shiplogic" ? shiplogicLabel(at("shiplogic"), "", id) : shiplogicLabel(at("tcgLocker"), "/api/v1", id),
    tracking: (vendor, reference) =>
      vendor === "shiplogic"
        ? shiplogicTracking(at("shiplogic"), "", reference)
        : shiplogicTracking(at("tcgLocker"), "/api/v1", reference),
    shipmentCharge: (vendor, reference) =>
      vendor === "shiplogic"
        ? shiplogicCharge(at("shiplogic"), "", reference)
        : shiplogicCharge(at("tcgLocker"), "/api/v1", reference),
  };
}

/**
 * Local mode: the emulator is reached through the shop's own router (app.inject), as HTTP without
 * a socket, so a shop on any port (and every API test) talks to it in its wire format.
 */
export function sendThroughApp(app: FastifyInstance): CourierSend {
  return async (url, init) => {
    const answer = await app.inject({
      method: (init.method ?? "GET") as "GET" | "POST",
      url,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      ...(typeof init.body === "string" ? { payload: init.body } : {}),
    });
    return new Response(new Uint8Array(answer.rawPayload), {
      status: answer.statusCode,
      headers: { "content-type": String(answer.headers["content-type"] ?? "application/json") },
    });
  };
}
