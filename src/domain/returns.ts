import { EVER_PAID_STATUSES } from "./order-status.js";
import { addBusinessDays, addDays, addMonths, daysBetween, saDay, saPublicHolidays, weekday } from "./sa-calendar.js";
import { lineOffCents } from "./vat.js";
/**
 * Cancellations, returns and complaints (docs/returns.md, docs/decisions/016): the windows the law
 * gives a customer, the deadlines it gives the shop, and the life of a request. Pure: the server
 * decides with these, the browser shows what they say.
 *
 * Every day here is a South African calendar day ("YYYY-MM-DD", Africa/Johannesburg, UTC+2 all
 * year): a window that "ends on" a day stays open until midnight at its end.
 */

/** Why a customer (or the shop) opens a request. */
export const RETURN_REASONS = [
  "changed_mind", // ECTA s44 cooling-off: sealed goods only
  "wrong_size", // sealed goods only: exchange or refund
  "defective", // CPA s56: defective or damaged
  "not_as_ordered", // CPA s56: not what was ordered
  "complaint", // anything else (free text): the CGSO's 15 business days
  "cancellation", // a paid order cancelled before it ships: a full refund
  "out_of_stock", // ECTA s46: paid, but the goods are not there; opened by the shop
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

/** What a customer can pick on a shipped order, in the form's order. */
export const SHIPPED_ORDER_REASONS = [
  "changed_mind",
  "wrong_size",
  "defective",
  "not_as_ordered",
  "complaint",
] as const satisfies readonly ReturnReason[];
export type ShippedOrderReason = (typeof SHIPPED_ORDER_REASONS)[number];

/** What a customer can ask: the shipped-order reasons, or cancelling a paid order not yet shipped. */
export const CUSTOMER_REASONS = [...SHIPPED_ORDER_REASONS, "cancellation"] as const satisfies readonly ReturnReason[];
export type CustomerReason = (typeof CUSTOMER_REASONS)[number];

export const RETURN_REASON_LABELS: Record<ReturnReason, string> = {
  changed_mind: "Changed my mind (sealed packs only)",
  wrong_size: "Wrong size (sealed packs only)",
  defective: "Defective or damaged",
  not_as_ordered: "Not what I ordered",
  complaint: "Another complaint",
  cancellation: "Cancel the order before it ships",
  out_of_stock: "Paid, but out of stock",
};

/** ECTA s44: the reasons that cancel a sale within the cooling-off period (sealed goods only). */
export const COOLING_OFF_REASONS: readonly ReturnReason[] = ["changed_mind", "wrong_size"];
/** CPA s56: defective goods, and goods not as ordered. */
export const DEFECT_REASONS: readonly ReturnReason[] = ["defective", "not_as_ordered"];
/** Reasons that send goods back, so their lines and quantities matter. */
export const REASONS_WITH_LINES: readonly ReturnReason[] = [...COOLING_OFF_REASONS, ...DEFECT_REASONS];
/** Reasons that cancel the whole order: nothing was delivered, so everything paid goes back. */
export const WHOLE_ORDER_REASONS: readonly ReturnReason[] = ["cancellation", "out_of_stock"];
/** Who pays to send goods back: the shop for defects (CPA s56), the customer for a change of mind (ECTA s44(1)). */
export function shopPaysReturn(reason: ReturnReason): boolean {
  return DEFECT_REASONS.includes(reason);
}

/** The numbers of the rules, each once. */
export const COOLING_OFF_DAYS = 7; // ECTA s44(1): 7 days after receiving the goods
export const DEFECT_MONTHS = 6; // CPA s56(2)
export const REFUND_DAYS = 30; // ECTA s44(2) and s46(2): refund within 30 days
export const COMPLAINT_BUSINESS_DAYS = 15; // CGSO: the supplier's time before the Ombud acts
export const PERFORM_DAYS = 30; // ECTA s46(1): execute the order within 30 days
export const LATE_SHIPMENT_ALERT_DAYS = 25; // the owner is alerted this long after payment, 5 days before s46's deadline

// ---------------------------------------------------------------------------------------------
// Windows

export interface DeliveryFacts {
  /** When the admin (or courier) recorded the delivery; null when nobody did. */
  deliveredAt: Date | null;
  /** When the order was marked shipped; null when it has not shipped. */
  shippedAt: Date | null;
}

/** The recorded delivery day (South African), or null when no delivery was recorded. */
export function deliveryDay({ deliveredAt }: Pick<DeliveryFacts, "deliveredAt">): string | null {
  return deliveredAt ? saDay(deliveredAt) : null;
}

/** What the windows count from: the delivery recorded by the shop or courier, or the day the customer says. */
export const RECEIPT_BASES = ["recorded_delivery", "customer_stated"] as const;
export type ReceiptBasis = (typeof RECEIPT_BASES)[number];

export const RECEIPT_BASIS_LABELS: Record<ReceiptBasis, string> = {
  recorded_delivery: "the delivery date recorded",
  customer_stated: "the day the customer says they received the goods",
};

export interface Receipt {
  day: string;
  basis: ReceiptBasis;
}

/**
 * The day the customer received the goods, for counting (ECTA s44(1)): the recorded delivery day
 * when there is one, else the day the customer states; null when neither is known (then the
 * customer is asked). No guess from the shipping day: a late courier must not close the window.
 */
export function receiptDay(order: Pick<DeliveryFacts, "deliveredAt">, statedReceivedOn: string | null): Receipt | null {
  const recorded = deliveryDay(order);
  if (recorded) return { day: recorded, basis: "recorded_delivery" };
  if (statedReceivedOn) return { day: statedReceivedOn, basis: "customer_stated" };
  return null;
}

/**
 * Why a stated receipt day cannot be true, or null when it can: not after today, not before the
 * order left the shop (its shipping day, or its payment day when no shipping was recorded).
 */
export function statedReceiptRefusal(stated: string, { today, shippedOn }: { today: string; shippedOn: string }) {
  if (daysBetween(today, stated) > 0) return `The day you received the goods cannot be after today (${today}).`;
  if (daysBetween(shippedOn, stated) < 0) {
    return `The day you received the goods cannot be before the order was sent (${shippedOn}).`;
  }
  return null;
}

/**
 * A last day that falls on a Sunday or a South African public holiday moves to the next business
 * day (Interpretation Act 33 of 1957 s4); a Saturday stays.
 */
export function movedOffSundayOrHoliday(day: string): string {
  const closed = weekday(day) === 0 || saPublicHolidays(Number(day.slice(0, 4))).has(day);
  return closed ? addBusinessDays(day, 1) : day;
}

/** The last day of the cooling-off period for goods received on `receivedOn` (ECTA s44(1)). */
export function coolingOffLastDay(receivedOn: string): string {
  return movedOffSundayOrHoliday(addDays(receivedOn, COOLING_OFF_DAYS));
}

/** The last day to return defective goods received on `receivedOn` (CPA s56(2)). */
export function defectLastDay(receivedOn: string): string {
  return movedOffSundayOrHoliday(addMonths(receivedOn, DEFECT_MONTHS));
}

/** Order statuses a complaint may be made about: every paid one. */
const COMPLAINT_STATUSES: readonly string[] = EVER_PAID_STATUSES;

export interface ReasonWindow {
  reason: CustomerReason;
  open: boolean;
  /** The last day it is open; null when it never closes (complaints) or does not apply. */
  lastDay: string | null;
  /** Why it is closed, for the customer; null when open. */
  closedBecause: string | null;
}

/**
 * What a customer may ask on an order today: each reason with whether it is open and until when.
 * The windows of returns and defects count from the receipt day (receiptDay); while it is not
 * known they are open with no last day, and the customer is asked the day they received the goods.
 */
export function returnWindows(
  order: DeliveryFacts & { status: string },
  today: string,
  statedReceivedOn: string | null = null,
): Record<CustomerReason, ReasonWindow> {
  const shipped = order.status === "processed";
  const received = receiptDay(order, statedReceivedOn);
  const coolingOffEnds = received ? coolingOffLastDay(received.day) : null;
  const defectEnds = received ? defectLastDay(received.day) : null;
  const notShipped =
    order.status === "refunded" ? "The order has been refunded in full." : "Only a shipped order can be returned.";
  const window = (reason: CustomerReason, lastDay: string | null, closedAfter: string): ReasonWindow => {
    if (!shipped) return { reason, open: false, lastDay: null, closedBecause: notShipped };
    const open = lastDay === null || daysBetween(today, lastDay) >= 0;
    return { reason, open, lastDay, closedBecause: open ? null : closedAfter };
  };
  const coolingOffClosed = `Sealed packs can be sent back until ${COOLING_OFF_DAYS} days after you received them; that was ${coolingOffEnds}.`;
  const defectClosed = `Defective or wrong goods can be reported until ${DEFECT_MONTHS} months after you received them; that was ${defectEnds}.`;
  return {
    changed_mind: window("changed_mind", coolingOffEnds, coolingOffClosed),
    wrong_size: window("wrong_size", coolingOffEnds, coolingOffClosed),
    defective: window("defective", defectEnds, defectClosed),
    not_as_ordered: window("not_as_ordered", defectEnds, defectClosed),
    // A complaint is heard about any paid order, at any time.
    complaint: COMPLAINT_STATUSES.includes(order.status)
      ? { reason: "complaint", open: true, lastDay: null, closedBecause: null }
      : {
          reason: "complaint",
          open: false,
          lastDay: null,
          closedBecause: "Only a paid order can be complained about.",
        },
    cancellation:
      order.status === "completed"
        ? { reason: "cancellation", open: true, lastDay: null, closedBecause: null }
        : {
            reason: "cancellation",
            open: false,
            lastDay: null,
            closedBecause:
              order.status === "processed"
                ? "The order has shipped: return it instead."
                : "Only a paid order that has not shipped can be cancelled this way.",
          },
  };
}

// ---------------------------------------------------------------------------------------------
// Deadlines

export type DeadlineKind = "refund_30_days" | "resolve_15_business_days";

export const DEADLINE_LABELS: Record<DeadlineKind, string> = {
  refund_30_days: `Refund within ${REFUND_DAYS} days (ECTA)`,
  resolve_15_business_days: `Resolve within ${COMPLAINT_BUSINESS_DAYS} business days (CGSO)`,
};

/**
 * The shop's deadline for a request opened on `openedOn`: 30 days to refund an ECTA cancellation
 * (s44: changed mind, wrong size, a cancelled order; s46: out of stock), 15 business days to
 * resolve a complaint (defects included) before the CGSO may take it. The deadline is the last day.
 */
export function requestDeadline(reason: ReturnReason, openedOn: string): { kind: DeadlineKind; lastDay: string } {
  if (COOLING_OFF_REASONS.includes(reason) || WHOLE_ORDER_REASONS.includes(reason)) {
    return { kind: "refund_30_days", lastDay: addDays(openedOn, REFUND_DAYS) };
  }
  return { kind: "resolve_15_business_days", lastDay: addBusinessDays(openedOn, COMPLAINT_BUSINESS_DAYS) };
}

/**
 * ECTA s46(1): the last day to execute (ship) a paid order, 30 days after the day it was paid (the
 * order is accepted when PayFast confirms the payment: content/policies/terms.md).
 */
export function shipByDay(paidAt: Date): string {
  return addDays(saDay(paidAt), PERFORM_DAYS);
}

// ---------------------------------------------------------------------------------------------
// Statuses

export const RETURN_STATUSES = [
  "requested",
  "accepted",
  "declined",
  "received",
  "refunded",
  "exchanged",
  "resolved",
] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  requested: "Requested",
  accepted: "Accepted",
  declined: "Declined",
  received: "Goods received",
  refunded: "Refunded",
  exchanged: "Exchanged",
  resolved: "Resolved",
};

/** The admin's moves from each status; the last four end a request. */
const MOVES: Record<ReturnStatus, readonly ReturnStatus[]> = {
  // Goods may arrive before the shop answered: received straight from requested.
  requested: ["accepted", "received", "declined", "refunded", "resolved"],
  accepted: ["received", "declined", "refunded", "exchanged", "resolved"],
  received: ["declined", "refunded", "exchanged", "resolved"],
  declined: [],
  refunded: [],
  exchanged: [],
  resolved: [],
};

export function canMoveRequest(from: ReturnStatus, to: ReturnStatus): boolean {
  return MOVES[from].includes(to);
}

export function isOpenRequest(status: ReturnStatus): boolean {
  return MOVES[status].length > 0;
}

/**
 * Whether the shop may decline a request now, and why not. ECTA s44 and s48: a sealed pack sent
 * back inside the cooling-off window cannot be refused as "non-returnable"; only goods that came
 * back opened (seen once received) fall outside it. A paid order the shop cannot fill, or one the
 * customer cancelled before it shipped, is always refunded in full.
 */
export function declineRefusal(reason: ReturnReason, status: ReturnStatus): string | null {
  if (WHOLE_ORDER_REASONS.includes(reason)) {
    return "A paid order that is cancelled before it ships, or that the shop cannot fill, is refunded in full: it cannot be declined.";
  }
  if (COOLING_OFF_REASONS.includes(reason) && status !== "received") {
    return `A sealed pack sent back within ${COOLING_OFF_DAYS} days of receipt cannot be declined (ECTA s44). Decline only once the goods are received and were opened.`;
  }
  return null;
}

/** Which moves need what: the reasons whose goods come back (received, restock), and an exchange (wrong size, defects). */
export function canExchange(reason: ReturnReason): boolean {
  return reason === "wrong_size" || DEFECT_REASONS.includes(reason);
}

// ---------------------------------------------------------------------------------------------
// Amounts

export interface LineForRefund {
  unitPriceCents: number;
  /** The units returned. */
  quantity: number;
  /** The order line's share of a promo discount and its units bought: a returned unit refunds what was paid for it. */
  discountCents?: number;
  /** The line's share of a multi-buy saving: off what was paid, as the promo's share is. */
  multibuyDiscountCents?: number;
  boughtQuantity?: number;
}

/**
 * What was paid for `quantity` units of a line: their price less their part of the line's promo
 * discount, in proportion to the units, rounded down so the shop never refunds more than was paid
 * (all the units of a line refund exactly what was paid for it).
 */
export function paidForUnits(line: LineForRefund): number {
  const gross = line.unitPriceCents * line.quantity;
  const discount = lineOffCents(line);
  const bought = line.boughtQuantity ?? line.quantity;
  if (discount === 0 || bought <= 0) return gross;
  return gross - Math.ceil((discount * line.quantity) / bought);
}

/**
 * What the shop offers to refund for a request, in cents: the whole payment (delivery included)
 * for a cancelled or unfillable order; for returned lines what was paid for them (a promo
 * discount's share taken off), plus the delivery fee when
 * these lines complete the return of everything bought (ECTA s44: the full payment); for a
 * complaint nothing set (the admin decides). Never more than is left of the payment.
 */
export function offeredRefundCents({
  reason,
  lines,
  totalCents,
  deliveryFeeCents,
  refundedCents,
  returnsWholeOrder,
}: {
  reason: ReturnReason;
  lines: readonly LineForRefund[];
  totalCents: number;
  deliveryFeeCents: number;
  refundedCents: number;
  /** These lines and the order's other returns together cover every unit bought. */
  returnsWholeOrder: boolean;
}): number {
  const left = Math.max(totalCents - refundedCents, 0);
  if (WHOLE_ORDER_REASONS.includes(reason)) return left;
  if (!REASONS_WITH_LINES.includes(reason)) return 0;
  const goods = lines.reduce((sum, line) => sum + paidForUnits(line), 0);
  return Math.min(goods + (returnsWholeOrder ? deliveryFeeCents : 0), left);
}

/** A request's reference as people read it: RET-000001. */
export function returnReferenceText(number: number): string {
  return `RET-${String(number).padStart(6, "0")}`;
}
