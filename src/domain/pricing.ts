import { type Cents, formatRandShort } from "./money.js";

/** Prices include VAT, worked out per line at each line's rate: src/domain/vat.ts. */
export const FREE_DELIVERY_THRESHOLD_CENTS: Cents = 50_000;
export const DELIVERY_FEE_CENTS: Cents = 7_500;
/** The least a live PayFast payment may be (docs/payfast.md): no order may total less. */
export const PAYFAST_MINIMUM_CENTS: Cents = 500;

/** When paid orders leave (ECTA s43(1)(l)), in one wording for every page and the terms ({{dispatchPromise}}). */
export const DISPATCH_PROMISE = "Orders are dispatched within 24 hours on business days.";

/** The rule in the shop's words, for every text that states it ("Free delivery on orders of R500 or more"). */
export const FREE_DELIVERY_FROM_TEXT = formatRandShort(FREE_DELIVERY_THRESHOLD_CENTS);
export const DELIVERY_FEE_TEXT = formatRandShort(DELIVERY_FEE_CENTS);

export function deliveryFeeCents(subtotalCents: Cents): Cents {
  return subtotalCents >= FREE_DELIVERY_THRESHOLD_CENTS ? 0 : DELIVERY_FEE_CENTS;
}

/** How much more the shopper must add for free delivery (0 once it is free). */
export function amountToFreeDeliveryCents(subtotalCents: Cents): Cents {
  return Math.max(0, FREE_DELIVERY_THRESHOLD_CENTS - subtotalCents);
}

export interface PricedLine {
  unitPriceCents: Cents;
  quantity: number;
}

export function orderTotals(lines: readonly PricedLine[]) {
  const subtotalCents = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const feeCents = deliveryFeeCents(subtotalCents);
  return { subtotalCents, deliveryFeeCents: feeCents, totalCents: subtotalCents + feeCents };
}
