import type { Cents } from "./money.js";

/**
 * The refund limit (docs/product.md §12): what is left to refund of an order is what was paid
 * less its completed refunds, never below nothing. The server refuses more (REFUND_TOO_LARGE,
 * payments/refunds.ts); the admin's refund dialogs offer and check the same figure.
 */
export function refundableCents(paidCents: Cents, refundedCents: Cents): Cents {
  return Math.max(0, paidCents - refundedCents);
}
