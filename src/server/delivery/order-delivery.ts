import type { FastifyBaseLogger } from "fastify";
import { type DeliveryService, isPointService } from "#domain/delivery.js";
import type { DeliveryChoice, DeliveryDestination } from "#domain/schemas/delivery.js";
import { badRequest, conflict } from "../platform/errors.js";
import type { DirectoryPoint } from "./courier-api.js";
import { type Directory, nearestPoints } from "./directory.js";
import { type CartLine, chargeOf, type DeliveryQuotes, optionLabel } from "./options.js";

/** What an order records of its delivery (orders.delivery_*), and its fee for a subtotal. */
export interface OrderDeliveryChoice {
  service: DeliveryService;
  pointCode: string | null;
  pointName: string | null;
  pointAddress: string | null;
  quotedCents: number;
  source: "live" | "flat" | "fallback";
  rateRevisionId: string | null;
  expectedDay: string;
  /** What the shopper pays for it on goods of this subtotal (the free-delivery threshold). */
  feeOf: (subtotalCents: number) => number;
}

/**
 * Create-order's delivery step (docs/decisions/051): the server prices the chosen option itself
 * (the same cached quote the checkout showed), refuses one not on offer, and checks a chosen
 * locker or pickup point again against the vendor's directory, read fresh: a point closed since
 * it was offered is refused with others nearby named. When the directory cannot be read, the last
 * good copy decides, so a courier's outage never blocks paying.
 */
export async function deliveryForOrder(
  deps: { quotes: DeliveryQuotes; directory: Directory; log: FastifyBaseLogger },
  lines: readonly CartLine[],
  destination: DeliveryDestination,
  choice: DeliveryChoice = { service: "door_economy" },
  /** A nappy plan's box (at plan prices): the checkout asked for its options with `plan: true`. */
  plan = false,
): Promise<OrderDeliveryChoice> {
  const { service } = choice;
  if (!deps.quotes.offers(service)) {
    throw conflict(
      `${optionLabel(service)} is not offered: this shop delivers to your door. Choose door delivery and try again.`,
      "DELIVERY_UNAVAILABLE",
    );
  }
  let point: DirectoryPoint | null = null;
  if (isPointService(service)) {
    if (!choice.pointCode) {
      throw badRequest(`delivery.pointCode is required for ${optionLabel(service).toLowerCase()}`);
    }
    point = await recheckPoint(deps, service as "locker" | "pickup_point", choice.pointCode, destination.zipCode);
  }
  const quote =
    (service !== "locker" ? deps.quotes.flatQuote() : null) ??
    (await deps.quotes.quote(lines, destination, service === "locker" ? point?.code : undefined, plan));
  const option = quote.options.find((candidate) => candidate.service === service);
  if (!option?.available) {
    throw conflict(
      option?.unavailableReason ?? "That delivery option is not on offer for this order.",
      "DELIVERY_UNAVAILABLE",
    );
  }
  const offered = quote.options.filter((candidate) => candidate.available);
  return {
    service,
    pointCode: point?.code ?? null,
    pointName: point?.name ?? null,
    pointAddress: point?.address ?? null,
    quotedCents: option.priceCents,
    source: option.source,
    rateRevisionId: option.rateRevisionId,
    expectedDay: option.expectedDay,
    feeOf: (subtotalCents) => chargeOf({ ...quote, options: offered, subtotalCents }, service),
  };
}

async function recheckPoint(
  deps: { directory: Directory; log: FastifyBaseLogger },
  service: "locker" | "pickup_point",
  code: string,
  nearCode: string,
): Promise<DirectoryPoint> {
  // Pargo leaves a closed counter out of its list: one the shopper was offered (the copy before) is closed, not unknown.
  const before = await deps.directory.list(service).catch(() => [] as DirectoryPoint[]);
  let points: DirectoryPoint[];
  try {
    points = await deps.directory.fresh(service);
  } catch (error) {
    deps.log.warn(
      { err: error, service },
      "delivery point re-check: the directory did not answer, the last good copy decides",
    );
    points = await deps.directory.list(service);
  }
  const kind = service === "locker" ? "locker" : "pickup point";
  const same = (candidate: DirectoryPoint) => candidate.code.toLowerCase() === code.toLowerCase();
  const listed = points.find(same);
  const offered = before.find(same);
  const point = listed ?? (offered ? { ...offered, open: false } : undefined);
  if (!point) {
    throw conflict(`We could not find the ${kind} ${code}. Please choose another.`, "DELIVERY_POINT_UNKNOWN");
  }
  if (!point.open) {
    const others = nearestPoints(points, point.postalCode || nearCode, 3).filter((other) => other.code !== point.code);
    const offer =
      others.length > 0 ? ` Nearby: ${others.map((other) => `${other.name} (${other.code})`).join(", ")}.` : "";
    throw conflict(
      `The ${kind} ${point.name} is no longer taking parcels. Please choose another.${offer}`,
      "DELIVERY_POINT_CLOSED",
    );
  }
  return point;
}
