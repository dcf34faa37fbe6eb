import { inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import {
  DEFAULT_TRANSIT_BUSINESS_DAYS,
  DELIVERY_SERVICE_LABELS,
  DELIVERY_SERVICES,
  type DeliveryService,
  deliveryChargeCents,
  expectedDeliveryDay,
  isPointService,
  type PriceSource,
  TCG_LOCKER_COMPARTMENTS,
} from "#domain/delivery.js";
import {
  compartmentFor,
  DEFAULT_BOX_SIZES,
  DEFAULT_PACKED_SIZE,
  type LockerCompartment,
  type Packing,
  packOrder,
} from "#domain/parcels.js";
import { planSavingBp, planUnitPriceCents } from "#domain/plans.js";
import type { DeliveryDestination } from "#domain/schemas/delivery.js";
import type { Config } from "../platform/config.js";
import type { Database } from "../platform/db/client.js";
import { deliveryBoxes, products } from "../platform/db/schema.js";
import type { CourierAddress, CourierApi, DoorRate, LockerBoxRate } from "./courier-api.js";
import type { Directory } from "./directory.js";

export interface CartLine {
  id: string;
  size: string;
  quantity: number;
}

/** One option as the server prices it: the courier's price, where it came from, and its day. */
export interface QuotedOption {
  service: DeliveryService;
  available: boolean;
  unavailableReason: string | null;
  priceCents: number;
  source: PriceSource;
  note: string | null;
  expectedDay: string;
  /** Locker only: the compartment and the quote's revision, echoed when booking (round 2). */
  rateRevisionId: string | null;
  lockerCode: string | null;
}

export interface DeliveryQuote {
  options: QuotedOption[];
  packing: Packing;
  /** The goods at the server's prices, for the free-delivery threshold. */
  subtotalCents: number;
}

/** At most this many quotes are kept (per cart, address and locker), the oldest dropped first. */
export const QUOTE_CACHE_ENTRIES = 1_000;

const FALLBACK_NOTE = "Live rates are unavailable right now, so this is our standard price.";

type CourierSettings = Config["courier"];

/** The couriers' live rates asked for one quote: door rates, and the chosen (or nearest) locker's box rates. */
interface LiveRates {
  door: DoorRate[] | null;
  locker: { code: string; rates: LockerBoxRate[] } | null;
}

/**
 * The delivery options for a cart and address (docs/decisions/051): the order packed into the
 * owner's boxes, then door rates (ShipLogic) and the locker's rate (TCG Locker) asked at once,
 * each within COURIER_TIMEOUT_MS; a quote that fails falls back to the owner's flat price, said
 * plainly. Quotes are kept per cart, postal code, province and locker (quoteKey) for
 * DELIVERY_QUOTE_CACHE_SECONDS, so the price shown is the price create-order charges.
 */
export function createDeliveryQuotes(deps: {
  db: Database;
  config: Config;
  api: CourierApi;
  directory: Directory;
  log: FastifyBaseLogger;
  now?: () => Date;
}) {
  const { db, config, api, directory, log } = deps;
  const now = deps.now ?? (() => new Date());
  const settings = config.courier;
  const cache = new Map<string, { quote: DeliveryQuote; expires: number }>();
  // A shop that ships by hand (COURIER_MODE=manual) offers the door only: no locker or counter to send to.
  const services: readonly DeliveryService[] =
    settings.mode === "manual" ? DELIVERY_SERVICES.filter((service) => !isPointService(service)) : DELIVERY_SERVICES;
  const from: CourierAddress = {
    street: config.shop.address ?? "",
    suburb: "",
    city: "",
    province: "",
    postalCode: settings.collectionCode,
  };
  const packCart = (lines: readonly CartLine[], plan = false) => packCartIn(db, lines, plan);

  async function quote(
    lines: readonly CartLine[],
    destination: DeliveryDestination,
    lockerCode?: string,
    plan = false,
  ) {
    const key = quoteKey(lines, destination, lockerCode, plan);
    const cached = cache.get(key);
    if (cached && cached.expires > Date.now()) return cached.quote;

    const { packing, subtotalCents } = await packCart(lines, plan);
    const compartment = compartmentFor(packing, TCG_LOCKER_COMPARTMENTS);
    const live = settings.pricing === "live" && packing.ok;
    const rates = await askLiveRates(
      { api, directory, log, from },
      { destination, lockerCode, packing, compartment, live },
    );
    const at = now();
    const options = services.map((service) =>
      quotedOption(settings, service, { at, packing, compartment, live, ...rates }),
    );

    const result: DeliveryQuote = { options, packing, subtotalCents };
    if (settings.quoteCacheMs > 0) {
      if (cache.size >= QUOTE_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(key, { quote: result, expires: Date.now() + settings.quoteCacheMs });
    }
    return result;
  }

  return {
    quote,
    flatQuote: () => flatQuote(settings, services, now),
    packCart,
    from,
    offers: (service: DeliveryService) => services.includes(service),
  };
}

/** The cart packed into boxes, and its goods at shelf prices, or at plan prices for a nappy plan's box (decision 050). */
async function packCartIn(db: Database, lines: readonly CartLine[], plan: boolean) {
  const ids = [...new Set(lines.map((line) => line.id))];
  const [found, boxes] = await Promise.all([
    db
      .select({
        id: products.id,
        priceCents: products.priceCents,
        sizePrices: products.sizePrices,
        sizeParcels: products.sizeParcels,
        planSavingBp: products.planSavingBp,
      })
      .from(products)
      .where(inArray(products.id, ids)),
    db.select().from(deliveryBoxes),
  ]);
  const byId = new Map(found.map((product) => [product.id, product]));
  let subtotalCents = 0;
  const items = lines.map((line) => {
    const product = byId.get(line.id);
    const shelfCents = product?.sizePrices[line.size] ?? product?.priceCents ?? 0;
    const unitCents = plan ? planUnitPriceCents(shelfCents, planSavingBp(product?.planSavingBp)) : shelfCents;
    subtotalCents += unitCents * line.quantity;
    return { ...(product?.sizeParcels[line.size] ?? DEFAULT_PACKED_SIZE), quantity: line.quantity };
  });
  // The owner's boxes, or the defaults until they set their own: the table starts empty, so a
  // freshly migrated database holds no rows (a restore's "empty database").
  return { packing: packOrder(items, boxes.length > 0 ? boxes : DEFAULT_BOX_SIZES), subtotalCents };
}

/**
 * Door rates and the locker's rates, asked at once and only when pricing live (the locker's only when
 * the order fits one: the locker chosen, or the nearest to the postal code). A rate that fails is null,
 * logged, and its option falls back to the flat price.
 */
async function askLiveRates(
  sources: { api: CourierApi; directory: Directory; log: FastifyBaseLogger; from: CourierAddress },
  ask: {
    destination: DeliveryDestination;
    lockerCode: string | undefined;
    packing: Packing;
    compartment: LockerCompartment | null;
    live: boolean;
  },
): Promise<LiveRates> {
  const { api, directory, log, from } = sources;
  const { destination, lockerCode, packing, compartment, live } = ask;
  const to: CourierAddress = {
    street: destination.address,
    suburb: destination.suburb,
    city: destination.city,
    province: destination.province,
    postalCode: destination.zipCode,
  };
  const lockerFor = async () =>
    lockerCode ?? (await directory.nearest("locker", destination.zipCode, 1).catch(() => []))[0]?.code ?? null;

  const [door, locker] = await Promise.all([
    live ? api.doorRates(from, to, packing.ok ? packing.boxes : []).catch(failed(log, "door")) : null,
    live && compartment
      ? lockerFor().then((code) =>
          code
            ? api
                .lockerRates(from, code)
                .then((rates) => ({ code, rates }))
                .catch(failed(log, "locker"))
            : null,
        )
      : null,
  ]);
  return { door, locker };
}

/** A failed rate's catch: the failure logged, and null so the flat price stands in. */
function failed(log: FastifyBaseLogger, what: string) {
  return (error: unknown) => {
    log.warn({ err: error, what }, "delivery quote failed: the flat price stands in");
    return null;
  };
}

/** The owner's flat price for a service, with where the price came from and why. */
function flatPrice(
  settings: CourierSettings,
  service: DeliveryService,
  source: PriceSource,
  note: string | null = null,
) {
  return { priceCents: settings.flatPricesCents[service], source, note };
}

/**
 * One option of a quote: a locker the order is too big for is unavailable; the courier's live rate
 * when pricing live and it answered (a pickup point is always flat); else the flat price, said plainly.
 */
function quotedOption(
  settings: CourierSettings,
  service: DeliveryService,
  quoted: LiveRates & { at: Date; packing: Packing; compartment: LockerCompartment | null; live: boolean },
): QuotedOption {
  const { at, packing, compartment, live, door, locker } = quoted;
  const transit = DEFAULT_TRANSIT_BUSINESS_DAYS[service];
  const base = {
    service,
    available: true,
    unavailableReason: null,
    expectedDay: expectedDeliveryDay(at, settings.cutoff, transit),
    rateRevisionId: null,
    lockerCode: null,
  };
  if (service === "locker" && !compartment) {
    return {
      ...base,
      ...flatPrice(settings, service, "flat"),
      available: false,
      unavailableReason: packing.ok
        ? "Your order is too big for a locker: choose door delivery or a pickup point."
        : "Your order is too big for a locker.",
    };
  }
  if (!live || service === "pickup_point") return { ...base, ...flatPrice(settings, service, "flat") };
  if (service === "locker") {
    const rate = pickLockerRate(locker, compartment?.code);
    return rate
      ? {
          ...base,
          priceCents: rate.priceCents,
          source: "live",
          note: null,
          rateRevisionId: rate.rateRevisionId,
          lockerCode: locker?.code ?? null,
        }
      : { ...base, ...flatPrice(settings, service, "fallback", FALLBACK_NOTE) };
  }
  const rate = pickDoorRate(door, service === "door_express" ? "express" : "economy");
  if (!rate) return { ...base, ...flatPrice(settings, service, "fallback", FALLBACK_NOTE) };
  return { ...base, priceCents: rate.priceCents, source: "live", note: null };
}

/**
 * With flat prices, every option but the locker is priced without the cart: create-order of a
 * door or pickup-point order reads nothing more (docs/decisions/005's statement count holds).
 */
function flatQuote(
  settings: CourierSettings,
  services: readonly DeliveryService[],
  now: () => Date,
): DeliveryQuote | null {
  if (settings.pricing !== "flat") return null;
  const at = now();
  return {
    options: services.map((service) => ({
      service,
      available: service !== "locker",
      unavailableReason: null,
      ...flatPrice(settings, service, "flat"),
      expectedDay: expectedDeliveryDay(at, settings.cutoff, DEFAULT_TRANSIT_BUSINESS_DAYS[service]),
      rateRevisionId: null,
      lockerCode: null,
    })),
    packing: { ok: true, boxes: [] },
    subtotalCents: 0,
  };
}

export type DeliveryQuotes = ReturnType<typeof createDeliveryQuotes>;

/**
 * A quote's key: the cart (each line's product, size and count, nothing else a caller's line may
 * carry), the postal code and province, the locker, and whether it is a plan's box. The checkout
 * asks with the postal code and province alone while the shopper types the rest, and create-order
 * asks with the whole address: the street, suburb and town are left out so that both find the same
 * quote, and the price shown is the price charged without asking the courier twice.
 */
export function quoteKey(
  lines: readonly CartLine[],
  destination: Pick<DeliveryDestination, "zipCode" | "province">,
  lockerCode: string | undefined,
  plan: boolean,
): string {
  const cart = lines
    .map((line) => [line.id, line.size, line.quantity] as const)
    .sort(([a, sizeA], [b, sizeB]) => `${a}${sizeA}`.localeCompare(`${b}${sizeB}`));
  return JSON.stringify([
    plan,
    cart,
    destination.zipCode.trim(),
    destination.province.trim().toLowerCase(),
    lockerCode?.toLowerCase() ?? null,
  ]);
}

function pickDoorRate(rates: DoorRate[] | null, level: DoorRate["level"]) {
  return rates?.find((rate) => rate.level === level) ?? null;
}

function pickLockerRate(locker: { rates: LockerBoxRate[] } | null, boxType: string | undefined) {
  return locker?.rates.find((rate) => rate.boxType === boxType) ?? null;
}

/** What the shopper pays for each option of a quote: the free-delivery threshold on the cheapest. */
export function chargeOf(quote: DeliveryQuote, service: DeliveryService): number {
  const offered = quote.options.filter((option) => option.available);
  const chosen = quote.options.find((option) => option.service === service);
  if (!chosen) return 0;
  return deliveryChargeCents(chosen, offered, quote.subtotalCents);
}

export const optionLabel = (service: DeliveryService) => DELIVERY_SERVICE_LABELS[service];
