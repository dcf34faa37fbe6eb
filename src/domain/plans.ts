import type { Cents } from "./money.js";
import { orderTotals } from "./pricing.js";

/**
 * Nappy plans (docs/decisions/050-nappy-plans.md): a box of lines delivered every 2 to 8 weeks,
 * each box priced on its charge day at that day's prices less the plan's saving.
 */
export const PLAN_STATUSES = ["pending_first_payment", "active", "paused", "needs_card", "cancelled"] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** "card": each box charged to the card tokenized at the first payment; "reminder": an e-mail with a pay link (EFT). */
export const PLAN_MODES = ["card", "reminder"] as const;
export type PlanMode = (typeof PLAN_MODES)[number];

/** What became of one delivery date of a plan (plan_charges): one row per plan and date, never two. */
export const PLAN_CHARGE_STATUSES = [
  "charging",
  "paid",
  "declined",
  "unknown",
  "skipped",
  "out_of_stock",
  "reminded",
] as const;
export type PlanChargeStatus = (typeof PLAN_CHARGE_STATUSES)[number];

/** The owner's saving for every product without its own (products.plan_saving_bp): 5%, in basis points. */
export const DEFAULT_PLAN_SAVING_BP = 500;
/** The "your next box" e-mail goes this many days before the charge. */
export const PLAN_NOTICE_DAYS = 3;
/** The skip link in the e-mail works until the charge day's end, and never longer than this. */
export const PLAN_SKIP_LINK_DAYS = 7;

/** A declined box is charged once more this many days later; declined again, the plan needs a new card. */
export const PLAN_DECLINE_RETRY_DAYS = 2;
/** A box's order is placed by the shop, not a client: the unpaid-order caps (a client's limit) are this, out of the way. */
export const PLAN_PLACE_CAP = 1_000_000;
/** A charge PayFast did not answer is settled as not paid only when its history still lacks it after this long. */
export const PLAN_UNKNOWN_SETTLE_MINUTES = 60;

/** Which statuses a plan may still be changed in by its customer (a cancelled plan is over). */
export const PLAN_OPEN_STATUSES: readonly PlanStatus[] = ["pending_first_payment", "active", "paused", "needs_card"];

/** A product's saving: its own, or the owner's default for all. */
export function planSavingBp(productSavingBp: number | null | undefined): number {
  return productSavingBp ?? DEFAULT_PLAN_SAVING_BP;
}

/** A unit's plan price: the price less the saving, the saving rounded to the nearest cent. */
export function planUnitPriceCents(priceCents: Cents, savingBp: number): Cents {
  return priceCents - Math.round((priceCents * savingBp) / 10_000);
}

export interface PlanQuoteLine {
  /** Today's price of the size, before the plan's saving. */
  priceCents: Cents;
  savingBp: number;
  quantity: number;
}

/**
 * What a box costs: each line at its plan price, then the delivery fee rule of every order (free
 * from the threshold). A plan's box takes the plan's saving instead of multi-buy tiers and promo codes.
 */
export function planBoxTotals(lines: readonly PlanQuoteLine[]) {
  return orderTotals(
    lines.map((line) => ({
      unitPriceCents: planUnitPriceCents(line.priceCents, line.savingBp),
      quantity: line.quantity,
    })),
  );
}

/** A South African day (YYYY-MM-DD) moved by whole days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** "Tue 12 Jan 2027": a plan's day as the shop writes it (the day is South African already). */
export function formatPlanDay(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString("en-ZA", {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** The later of two days (YYYY-MM-DD compares as text). */
export const laterDay = (a: string, b: string): string => (a < b ? b : a);

/** The pay link of a reminder plan's box works until the charge day's end, and never longer than this. */
export const PLAN_PAY_LINK_DAYS = 7;

/** Weeks in a year over months in a year: what turns "every N weeks" into a month's worth. */
const WEEKS_PER_MONTH = { weeks: 52, months: 12 };

/**
 * Monthly recurring revenue of plans: each box's total at today's plan prices (its delivery fee by
 * the rule of every order) × 52/12 ÷ its cadence in weeks, summed, rounded to the cent once.
 */
export function monthlyRecurringCents(boxes: readonly { totalCents: Cents; cadenceWeeks: number }[]): Cents {
  const exact = boxes.reduce(
    (sum, box) => sum + (box.totalCents * WEEKS_PER_MONTH.weeks) / (WEEKS_PER_MONTH.months * box.cadenceWeeks),
    0,
  );
  return Math.round(exact);
}

/** How the dashboard's MRR is computed, as the owner reads it beside the figure. */
export const MRR_METHOD_TEXT =
  "Each active plan's next box at today's plan prices, delivery included, × 52 ÷ 12 ÷ its weeks between boxes, added up.";
