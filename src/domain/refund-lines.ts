import { type Cents, formatRand } from "./money.js";
import { apportion } from "./vat.js";

/**
 * Which lines of an order a refund credits (docs/decisions/036-credit-notes-per-line.md), so its
 * credit note reverses each line at that line's own rate (VAT Act s21) and the delivery fee only
 * when it is refunded. Recorded on the refund as its basis:
 * - "lines": the admin chose the lines, units and delivery fee, or a return request named them;
 * - "proportional": no lines chosen (a goodwill amount spread on purpose, a refund made in PayFast's
 *   dashboard): the amount spread over what is still uncredited of every line, delivery included;
 * - "legacy": a refund recorded before refunds had lines; its credit note keeps what it said
 *   (its amount apportioned when the VAT is worked out, as decision 017 did).
 * Either way the split is stored line by line when the refund is made; a credit note never changes.
 */
export const REFUND_BASES = ["legacy", "lines", "proportional"] as const;
export type RefundBasis = (typeof REFUND_BASES)[number];

/** An order line as a refund sees it: what was paid for it and what earlier credit notes credited. */
export interface CreditableLine {
  orderItemId: number;
  /** How people know the line in a message: "Cotton Pads (Regular)". */
  label: string;
  /** Units bought. */
  quantity: number;
  /** What was paid for the line: its amount less its share of a promo discount. */
  paidCents: Cents;
  creditedCents: Cents;
  /** Units earlier refunds named (a spread refund names none). */
  creditedUnits: number;
}

export interface CreditableOrder {
  lines: readonly CreditableLine[];
  deliveryFeeCents: Cents;
  deliveryCreditedCents: Cents;
}

export interface RefundLineChoice {
  orderItemId: number;
  quantity: number;
  /** Less than the units' price (a partial refund of them); the units' price when left out. */
  amountCents?: Cents | undefined;
}

export interface RefundChoice {
  /** The refund's amount: required without lines; with lines it must equal their sum when given. */
  amountCents?: Cents | undefined;
  lines?: readonly RefundLineChoice[] | undefined;
  /** The part of the delivery fee refunded. */
  deliveryCents?: Cents | undefined;
}

export interface RefundSplit {
  basis: Exclude<RefundBasis, "legacy">;
  amountCents: Cents;
  /** Lines credited, each with what it credits; quantity 0 where a spread amount names no units. */
  lines: { orderItemId: number; quantity: number; amountCents: Cents }[];
  deliveryCents: Cents;
}

export type RefundSplitRefusal = {
  ok: false;
  code:
    | "VALIDATION_FAILED"
    | "REFUND_LINE_UNKNOWN"
    | "REFUND_LINE_TOO_LARGE"
    | "REFUND_LINES_MISMATCH"
    | "REFUND_TOO_LARGE";
  message: string;
};
export type RefundSplitResult = { ok: true; split: RefundSplit } | RefundSplitRefusal;

const leftOf = (line: CreditableLine) => line.paidCents - line.creditedCents;
const unitsLeftOf = (line: CreditableLine) => line.quantity - line.creditedUnits;

/**
 * The price of `quantity` more units of a line: the line's paid amount shared over its units so
 * that all of them add up to it exactly (rounded half up at each count), never more than is left
 * of the line; the last units take whatever is left.
 */
export function unitsValueCents(line: CreditableLine, quantity: number): Cents {
  const at = (units: number) => Math.floor((2 * line.paidCents * units + line.quantity) / (2 * line.quantity));
  const left = leftOf(line);
  if (line.creditedUnits + quantity >= line.quantity) return left;
  return Math.max(0, Math.min(at(line.creditedUnits + quantity) - at(line.creditedUnits), left));
}

function totalLeft(order: CreditableOrder): Cents {
  return (
    order.lines.reduce((sum, line) => sum + leftOf(line), 0) + order.deliveryFeeCents - order.deliveryCreditedCents
  );
}

/** An amount spread over what is left of every line and the delivery fee, in proportion. */
export function spreadRefund(order: CreditableOrder, amountCents: Cents): RefundSplitResult {
  const left = totalLeft(order);
  if (!Number.isInteger(amountCents) || amountCents <= 0) {
    return { ok: false, code: "VALIDATION_FAILED", message: "amountCents must be at least 1" };
  }
  if (amountCents > left) {
    return {
      ok: false,
      code: "REFUND_TOO_LARGE",
      message: `At most ${formatRand(left)} is left to credit on this order.`,
    };
  }
  const parts = apportion(amountCents, [
    ...order.lines.map(leftOf),
    order.deliveryFeeCents - order.deliveryCreditedCents,
  ]);
  return {
    ok: true,
    split: {
      basis: "proportional",
      amountCents,
      lines: order.lines
        .map((line, index) => ({ orderItemId: line.orderItemId, quantity: 0, amountCents: parts[index] ?? 0 }))
        .filter((line) => line.amountCents > 0),
      deliveryCents: parts[order.lines.length] ?? 0,
    },
  };
}

/**
 * The admin's choice of lines, units and delivery fee, checked against what the order has left:
 * a line of this order, once; no more units than were bought less those already credited; no more
 * than is left of a line or of the delivery fee; an amount, when given, that is the sum.
 */
export function splitRefund(order: CreditableOrder, choice: RefundChoice): RefundSplitResult {
  const chosen = choice.lines ?? [];
  const deliveryCents = choice.deliveryCents ?? 0;
  if (chosen.length === 0 && deliveryCents === 0) {
    if (choice.amountCents === undefined) {
      return {
        ok: false,
        code: "VALIDATION_FAILED",
        message: "Give the lines refunded, the delivery fee, or an amount to spread over the order.",
      };
    }
    return spreadRefund(order, choice.amountCents);
  }
  const lines: RefundSplit["lines"] = [];
  for (const pick of chosen) {
    const line = order.lines.find((candidate) => candidate.orderItemId === pick.orderItemId);
    if (!line) {
      return {
        ok: false,
        code: "REFUND_LINE_UNKNOWN",
        message: `Line ${pick.orderItemId} is not a line of this order.`,
      };
    }
    if (lines.some((done) => done.orderItemId === pick.orderItemId)) {
      return { ok: false, code: "VALIDATION_FAILED", message: `${line.label} is given twice.` };
    }
    if (!Number.isInteger(pick.quantity) || pick.quantity < 1) {
      return { ok: false, code: "VALIDATION_FAILED", message: `The quantity of ${line.label} must be at least 1.` };
    }
    if (pick.quantity > unitsLeftOf(line)) {
      return {
        ok: false,
        code: "REFUND_LINE_TOO_LARGE",
        message: `${line.label}: ${line.quantity} bought and ${line.creditedUnits} already credited, so at most ${Math.max(unitsLeftOf(line), 0)} can be refunded.`,
      };
    }
    const amountCents = pick.amountCents ?? unitsValueCents(line, pick.quantity);
    if (!Number.isInteger(amountCents) || amountCents < 0) {
      return { ok: false, code: "VALIDATION_FAILED", message: `The amount of ${line.label} must be 0 or more cents.` };
    }
    if (amountCents > leftOf(line)) {
      return {
        ok: false,
        code: "REFUND_LINE_TOO_LARGE",
        message: `${line.label}: at most ${formatRand(leftOf(line))} of this line is left to refund.`,
      };
    }
    lines.push({ orderItemId: line.orderItemId, quantity: pick.quantity, amountCents });
  }
  const deliveryLeft = order.deliveryFeeCents - order.deliveryCreditedCents;
  if (!Number.isInteger(deliveryCents) || deliveryCents < 0) {
    return { ok: false, code: "VALIDATION_FAILED", message: "deliveryCents must be 0 or more cents." };
  }
  if (deliveryCents > deliveryLeft) {
    return {
      ok: false,
      code: "REFUND_LINE_TOO_LARGE",
      message: `At most ${formatRand(deliveryLeft)} of the delivery fee is left to refund.`,
    };
  }
  const amountCents = lines.reduce((sum, line) => sum + line.amountCents, 0) + deliveryCents;
  if (choice.amountCents !== undefined && choice.amountCents !== amountCents) {
    return {
      ok: false,
      code: "REFUND_LINES_MISMATCH",
      message: `The lines and delivery fee chosen come to ${formatRand(amountCents)}, not ${formatRand(choice.amountCents)}.`,
    };
  }
  if (amountCents <= 0) {
    return { ok: false, code: "VALIDATION_FAILED", message: "The lines chosen come to nothing to refund." };
  }
  return { ok: true, split: { basis: "lines", amountCents, lines, deliveryCents } };
}

/**
 * A return request's refund: the units it names, at their price, for the amount the shop owes.
 * Less than their price shares the amount over them; more puts the rest on the delivery fee (the
 * whole order came back). What cannot be fitted to its units (they were credited another way
 * since, or the amount is more than they and the delivery fee) is spread over the order instead.
 */
export function fitRefundToUnits(
  order: CreditableOrder,
  units: readonly { orderItemId: number; quantity: number }[],
  amountCents: Cents,
): RefundSplitResult {
  const priced = splitRefund(order, { lines: units });
  if (units.length === 0 || !priced.ok) return spreadRefund(order, amountCents);
  const lines = priced.split.lines;
  const worth = priced.split.amountCents;
  if (amountCents === worth) return priced;
  if (amountCents < worth) {
    const parts = apportion(
      amountCents,
      lines.map((line) => line.amountCents),
    );
    return splitRefund(order, {
      amountCents,
      lines: lines.map((line, index) => ({ ...line, amountCents: parts[index] ?? 0 })),
    });
  }
  const fitted = splitRefund(order, { amountCents, lines, deliveryCents: amountCents - worth });
  return fitted.ok ? fitted : spreadRefund(order, amountCents);
}
