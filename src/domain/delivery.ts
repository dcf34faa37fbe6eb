import type { Cents } from "./money.js";
import type { LockerCompartment } from "./parcels.js";
import { DELIVERY_FEE_CENTS, FREE_DELIVERY_THRESHOLD_CENTS } from "./pricing.js";
import { addBusinessDays, isBusinessDay, saDay } from "./sa-calendar.js";

/**
 * The ways an order can travel (docs/decisions/051): to the door (economy or express), to a
 * locker, or to a pickup point's counter. What each costs, when it arrives, and how the
 * free-delivery threshold applies: the one home of these rules, read by the checkout and the server.
 */
export const DELIVERY_SERVICES = ["door_economy", "door_express", "locker", "pickup_point"] as const;
export type DeliveryService = (typeof DELIVERY_SERVICES)[number];

export const DELIVERY_SERVICE_LABELS: Record<DeliveryService, string> = {
  door_economy: "To your door (economy)",
  door_express: "To your door (express)",
  locker: "To a TCG Locker",
  pickup_point: "To a Pargo pickup point",
};

/** The services that end at a point the shopper chooses from a list. */
export const POINT_SERVICES: readonly DeliveryService[] = ["locker", "pickup_point"];
export const isPointService = (service: DeliveryService) => POINT_SERVICES.includes(service);

/**
 * The owner's flat price per service (DELIVERY_FLAT_* in the environment): used when rates are
 * set to flat, and whenever a live quote fails. Door economy keeps the shop's R75 of old.
 */
export const DEFAULT_FLAT_PRICES_CENTS: Record<DeliveryService, Cents> = {
  door_economy: DELIVERY_FEE_CENTS,
  door_express: 15_000,
  locker: 6_000,
  pickup_point: 6_500,
};

/** Business days from dispatch to delivery, when the courier's quote gives no date. */
export const DEFAULT_TRANSIT_BUSINESS_DAYS: Record<DeliveryService, number> = {
  door_economy: 3,
  door_express: 1,
  locker: 3,
  pickup_point: 3,
};

/** Where an option's price came from: the courier's live quote, the owner's flat price, or the flat price because the quote failed. */
export const PRICE_SOURCES = ["live", "flat", "fallback"] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

export interface PricedService {
  service: DeliveryService;
  /** What the courier (or the owner's flat price) charges for it. */
  priceCents: Cents;
}

/**
 * What the shopper pays for a service: from FREE_DELIVERY_THRESHOLD_CENTS the cheapest way to the
 * door (economy, the shop's free delivery of old) is free, and so is any option that costs no
 * more; a dearer one costs what it costs above it. Without a door option, the cheapest on offer.
 */
export function deliveryChargeCents(
  chosen: PricedService,
  offered: readonly PricedService[],
  subtotalCents: Cents,
): Cents {
  if (subtotalCents < FREE_DELIVERY_THRESHOLD_CENTS) return chosen.priceCents;
  const door = offered.find((option) => option.service === "door_economy");
  const allowance = door?.priceCents ?? Math.min(chosen.priceCents, ...offered.map((option) => option.priceCents));
  return Math.max(0, chosen.priceCents - allowance);
}

/** "14:00": the owner's same-day cut-off (DELIVERY_CUTOFF). */
export const CUTOFF_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The day a paid order leaves: today when it is a business day before the cut-off (South African
 * time), otherwise the next business day.
 */
export function dispatchDay(now: Date, cutoff: string): string {
  const today = saDay(now);
  const saTime = new Date(now.getTime() + 2 * 3_600_000).toISOString().slice(11, 16);
  if (isBusinessDay(today) && saTime < cutoff) return today;
  return addBusinessDays(today, 1);
}

/** The expected delivery day: so many business days after dispatch, holidays skipped. */
export function expectedDeliveryDay(now: Date, cutoff: string, transitBusinessDays: number): string {
  return addBusinessDays(dispatchDay(now, cutoff), transitBusinessDays);
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Thu 4 Dec": a delivery day as the checkout shows it. */
export function formatDeliveryDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
}

/** A South African postal code: four digits. */
export const POSTAL_CODE_PATTERN = /^\d{4}$/;

/**
 * TCG Locker's compartments (box types XS-XL), inside measures and the most each takes, from its
 * published sizes (decision 051, unverified against a live account): whether an order's box fits.
 */
export const TCG_LOCKER_COMPARTMENTS: readonly LockerCompartment[] = [
  { code: "XS", lengthMm: 600, widthMm: 170, heightMm: 80, maxWeightGrams: 2_000 },
  { code: "S", lengthMm: 600, widthMm: 410, heightMm: 80, maxWeightGrams: 5_000 },
  { code: "M", lengthMm: 600, widthMm: 410, heightMm: 190, maxWeightGrams: 10_000 },
  { code: "L", lengthMm: 600, widthMm: 410, heightMm: 410, maxWeightGrams: 15_000 },
  { code: "XL", lengthMm: 600, widthMm: 410, heightMm: 690, maxWeightGrams: 20_000 },
];
