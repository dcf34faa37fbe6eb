/** What the shop made of a PayFast notification about an order (payfast_itns.outcome), in the staff's words. */
const OUTCOME_LABELS: Record<string, string> = {
  accepted: "Accepted: the order was paid",
  duplicate: "Repeat of a payment already booked",
  paid_twice: "Paid twice: needs attention",
  paid_after_cancel: "Paid after the order was cancelled",
  paid_out_of_stock: "Paid, but out of stock",
  wrong_amount: "Wrong amount: not booked",
  unknown_order: "Unknown order",
  foreign_merchant: "Another merchant's payment",
  failed: "Payment failed",
  pending: "PayFast is still processing it",
  ignored: "Ignored",
  unconfirmed: "Not confirmed by PayFast yet: checked again later",
  source_refused: "From an address not PayFast's, and not confirmed by PayFast",
  refund_in_payfast: "PayFast shows a refund the shop has not booked",
  rejected: "Refused: signature check failed",
};

export function paymentOutcomeLabel(outcome: string): string {
  return OUTCOME_LABELS[outcome] ?? outcome;
}

/** Outcomes that mean money arrived as it should, or nothing went wrong. */
export function paymentOutcomeTone(outcome: string): "good" | "warn" | "plain" {
  if (outcome === "accepted" || outcome === "duplicate") return "good";
  if (outcome === "failed" || outcome === "pending" || outcome === "ignored") return "plain";
  return "warn";
}

export const PAID_BY_LABELS: Record<"itn" | "reconcile" | "admin", string> = {
  itn: "PayFast's notification",
  reconcile: "PayFast's transaction history (reconciliation)",
  admin: "An admin (Mark as Paid)",
};
