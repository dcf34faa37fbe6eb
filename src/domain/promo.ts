import { type Cents, formatRand } from "./money.js";
import { deliveryFeeCents, PAYFAST_MINIMUM_CENTS } from "./pricing.js";
import { formatShortDate } from "./sa-format.js";
import { apportion } from "./vat.js";

/**
 * Promo codes (docs/decisions/023-promo-codes.md): what a code gives, when it may be used, and how
 * its discount is spread over the lines it applies to. Shared by the checkout (to show the figures
 * the server will charge) and the server (which alone decides).
 */

export const PROMO_KINDS = ["percent", "fixed", "free_delivery"] as const;
export type PromoKind = (typeof PROMO_KINDS)[number];

export const PROMO_KIND_LABELS: Record<PromoKind, string> = {
  percent: "Percentage off",
  fixed: "Fixed amount off",
  free_delivery: "Free delivery",
};

/** A code as people type it: letters, digits, "-" and "_", 3 to 32 of them; compared in capitals. */
export const PROMO_CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;
export const normalisePromoCode = (code: string): string => code.trim().toUpperCase();

export interface PromoRule {
  code: string;
  kind: PromoKind;
  /** percent: 1 to 100. */
  percent: number | null;
  /** fixed: the amount off, in cents. */
  amountCents: Cents | null;
  /** Of the whole cart's goods, before the discount. */
  minSpendCents: Cents | null;
  startsAt: Date | null;
  /** The code works until this moment (exclusive). */
  endsAt: Date | null;
  maxUses: number | null;
  maxUsesPerCustomer: number | null;
  /** Both empty: every product. Otherwise a line applies when its product or its category is named. */
  productIds: readonly string[];
  categoryIds: readonly string[];
  /** A code the admin switched off reads as unknown to shoppers. */
  active: boolean;
}

/** A cart line as a promo sees it: its product, category and amount (unit price x quantity). */
export interface PromoLine {
  productId: string;
  categoryId: string | null;
  amountCents: Cents;
}

export const PROMO_FAILURES = [
  "PROMO_UNKNOWN",
  "PROMO_NOT_STARTED",
  "PROMO_EXPIRED",
  "PROMO_MINIMUM_SPEND",
  "PROMO_ALREADY_USED",
  "PROMO_LIMIT_REACHED",
  "PROMO_NOT_APPLICABLE",
] as const;
export type PromoFailure = (typeof PROMO_FAILURES)[number];

/** The HTTP status of each refusal: the limits are about other orders (409); the rest is this cart or code (400). */
export const PROMO_FAILURE_STATUS: Record<PromoFailure, 400 | 409> = {
  PROMO_UNKNOWN: 400,
  PROMO_NOT_STARTED: 400,
  PROMO_EXPIRED: 400,
  PROMO_MINIMUM_SPEND: 400,
  PROMO_ALREADY_USED: 409,
  PROMO_LIMIT_REACHED: 409,
  PROMO_NOT_APPLICABLE: 400,
};

export interface PromoFigures {
  /** The goods before the discount. */
  subtotalCents: Cents;
  /** Off the goods: the sum of lineDiscountsCents. */
  discountCents: Cents;
  /** Per cart line, in the order given: 0 for a line the code does not apply to. */
  lineDiscountsCents: Cents[];
  /** What the shopper pays for delivery (0 with a free-delivery code). */
  deliveryFeeCents: Cents;
  /** The delivery fee a free-delivery code waived. */
  deliveryDiscountCents: Cents;
  totalCents: Cents;
}

export type PromoCheck = { ok: true; figures: PromoFigures } | { ok: false; code: PromoFailure; message: string };

export interface PromoUses {
  /** Paid uses and unpaid orders holding the code. */
  total: number;
  /** The same, of this customer. */
  byCustomer: number;
}

const fail = (code: PromoFailure, message: string): PromoCheck => ({ ok: false, code, message });

/** Whether a line is one the code applies to. */
export function promoAppliesTo(rule: Pick<PromoRule, "productIds" | "categoryIds">, line: PromoLine): boolean {
  if (rule.productIds.length === 0 && rule.categoryIds.length === 0) return true;
  return (
    rule.productIds.includes(line.productId) || (line.categoryId !== null && rule.categoryIds.includes(line.categoryId))
  );
}

/**
 * Spreads a discount over the lines it applies to, in proportion to their amounts, in whole cents
 * that add up exactly (largest remainder). Never more than a line's amount; 0 for the others.
 */
export function spreadDiscount(
  discountCents: Cents,
  amountsCents: readonly Cents[],
  applies: readonly boolean[],
): Cents[] {
  const weights = amountsCents.map((amount, index) => (applies[index] ? amount : 0));
  const base = weights.reduce((sum, weight) => sum + weight, 0);
  if (!Number.isInteger(discountCents) || discountCents < 0 || discountCents > base) {
    throw new RangeError(`a discount of ${discountCents} cents on ${base} cents`);
  }
  return apportion(discountCents, weights);
}

/** The discount on the applicable goods: a percentage rounded half up to the cent, or the fixed amount at most. */
export function discountOn(rule: Pick<PromoRule, "kind" | "percent" | "amountCents">, applicableCents: Cents): Cents {
  if (rule.kind === "percent") return Math.floor((applicableCents * (rule.percent ?? 0) + 50) / 100);
  if (rule.kind === "fixed") return Math.min(rule.amountCents ?? 0, applicableCents);
  return 0;
}

/** What delivery costs on goods of a subtotal: the flat rule, or the chosen option's (src/domain/delivery.ts). */
export type DeliveryFeeRule = (subtotalCents: Cents) => Cents;

/** The order's figures without a code. */
export function plainFigures(lines: readonly PromoLine[], feeOf: DeliveryFeeRule = deliveryFeeCents): PromoFigures {
  const subtotalCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
  const fee = feeOf(subtotalCents);
  return {
    subtotalCents,
    discountCents: 0,
    lineDiscountsCents: lines.map(() => 0),
    deliveryFeeCents: fee,
    deliveryDiscountCents: 0,
    totalCents: subtotalCents + fee,
  };
}

/**
 * Checks a code against a cart, in the order a shopper can act on: the code itself (unknown, not
 * started, expired), then the cart (products, minimum spend), then the uses. The delivery fee is
 * worked out on the goods before the discount, as the checkout shows it, and so is the minimum
 * spend. `alreadyOffCents`, per line, is what a multi-buy tier already took off it (multibuy.ts,
 * rule "both"): the code works on what the lines come to after it, and the total is net of it.
 */
export function checkPromo(
  rule: PromoRule | null,
  lines: readonly PromoLine[],
  now: Date,
  uses: PromoUses,
  alreadyOffCents: readonly Cents[] = [],
  feeOf: DeliveryFeeRule = deliveryFeeCents,
): PromoCheck {
  if (!rule?.active) return fail("PROMO_UNKNOWN", "This promo code does not exist. Check the spelling.");
  if (rule.startsAt && now < rule.startsAt) {
    return fail("PROMO_NOT_STARTED", `The code ${rule.code} can be used from ${formatShortDate(rule.startsAt)}.`);
  }
  if (rule.endsAt && now >= rule.endsAt) {
    return fail("PROMO_EXPIRED", `The code ${rule.code} expired on ${formatShortDate(rule.endsAt)}.`);
  }
  const applies = lines.map((line) => promoAppliesTo(rule, line));
  if (!applies.some(Boolean)) {
    return fail("PROMO_NOT_APPLICABLE", `The code ${rule.code} is not for the products in your cart.`);
  }
  const plain = plainFigures(lines, feeOf);
  if (rule.minSpendCents !== null && plain.subtotalCents < rule.minSpendCents) {
    return fail(
      "PROMO_MINIMUM_SPEND",
      `The code ${rule.code} needs a minimum spend of ${formatRand(rule.minSpendCents)}; add ${formatRand(rule.minSpendCents - plain.subtotalCents)} more.`,
    );
  }
  if (rule.maxUsesPerCustomer !== null && uses.byCustomer >= rule.maxUsesPerCustomer) {
    return fail(
      "PROMO_ALREADY_USED",
      rule.maxUsesPerCustomer === 1
        ? `You have already used the code ${rule.code}.`
        : `You have already used the code ${rule.code} ${rule.maxUsesPerCustomer} times, its limit per customer.`,
    );
  }
  if (rule.maxUses !== null && uses.total >= rule.maxUses) {
    return fail("PROMO_LIMIT_REACHED", `The code ${rule.code} has been used as often as it may be.`);
  }

  const amounts = lines.map((line, index) => line.amountCents - (alreadyOffCents[index] ?? 0));
  const alreadyOff = alreadyOffCents.reduce((sum, cents) => sum + cents, 0);
  const applicable = amounts.reduce((sum, amount, index) => sum + (applies[index] ? amount : 0), 0);
  const deliveryDiscountCents = rule.kind === "free_delivery" ? plain.deliveryFeeCents : 0;
  const fee = plain.deliveryFeeCents - deliveryDiscountCents;
  // A code never takes the total under PayFast's minimum (R5.00), which it would refuse: a 100%
  // code on an order with free delivery leaves R5.00 to pay.
  const discountCents = Math.max(
    0,
    Math.min(discountOn(rule, applicable), plain.subtotalCents - alreadyOff + fee - PAYFAST_MINIMUM_CENTS),
  );
  const lineDiscountsCents = spreadDiscount(discountCents, amounts, applies);
  return {
    ok: true,
    figures: {
      subtotalCents: plain.subtotalCents,
      discountCents,
      lineDiscountsCents,
      deliveryFeeCents: fee,
      deliveryDiscountCents,
      totalCents: plain.subtotalCents - alreadyOff - discountCents + fee,
    },
  };
}

/** What a code gives, in a few words: "10% off", "R50.00 off", "Free delivery". */
export function describePromo(rule: Pick<PromoRule, "kind" | "percent" | "amountCents">): string {
  if (rule.kind === "percent") return `${rule.percent}% off`;
  if (rule.kind === "fixed") return `${formatRand(rule.amountCents ?? 0)} off`;
  return "Free delivery";
}
