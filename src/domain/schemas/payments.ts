import { z } from "zod";
import { ORDER_STATUSES } from "../order-status.js";
import { adminOrder } from "./orders.js";

/**
 * What a PayFast notification (or a reconciliation) concluded. Those in ITN_ATTENTION_OUTCOMES
 * are real payments the shop could not simply book: they wait in the admin's "Needs attention".
 */
export const ITN_OUTCOMES = [
  "accepted", // paid a pending order
  "duplicate", // this pf_payment_id was already booked
  "paid_twice", // a second payment for an order already paid
  "paid_after_cancel", // a payment for a cancelled order (before stock was counted: now such a payment revives the order)
  "paid_out_of_stock", // a payment revived a cancelled order whose stock had gone in the meantime
  "wrong_amount", // amount_gross is not the order total
  "unknown_order", // m_payment_id names no order of ours
  "foreign_merchant", // merchant_id is not ours
  "failed", // payment_status FAILED: noted on the order
  "pending", // payment_status PENDING: noted on the order
  "ignored", // any other payment_status
  "unconfirmed", // PayFast's server confirmation did not say VALID (or did not answer): reconciliation will ask again
  "source_refused", // signed, from an address not PayFast's, and PayFast's confirmation did not say VALID: answered 400
  "refund_in_payfast", // reconciliation: PayFast's history shows a refund the shop has not booked
  "rejected", // bad signature: answered 400, only metadata kept
] as const;
export type ItnOutcome = (typeof ITN_OUTCOMES)[number];
/** Payments PayFast proved that the shop booked as flagged: the same pf_payment_id again is a duplicate. */
export const ITN_FLAGGED_OUTCOMES = [
  "paid_twice",
  "paid_after_cancel",
  "paid_out_of_stock",
  "wrong_amount",
  "unknown_order",
  "foreign_merchant",
] as const satisfies readonly ItnOutcome[];
/**
 * What waits in the admin's "Needs attention": the flagged payments, signed notifications the shop
 * could not confirm (until reconciliation books their payment), and refunds made in PayFast's
 * dashboard that the shop has not booked.
 */
export const ITN_ATTENTION_OUTCOMES = [
  ...ITN_FLAGGED_OUTCOMES,
  "unconfirmed",
  "source_refused",
  "refund_in_payfast",
] as const satisfies readonly ItnOutcome[];
/**
 * A parcel in a problem state (src/domain/tracking.ts ATTENTION_STATES): each waits in "Needs
 * attention" until an admin marks it resolved, or the courier moves it on (tries again).
 */
export const DELIVERY_ATTENTION_KINDS = [
  "delivery_failed_attempt",
  "delivery_not_collected",
  "delivery_returned",
  "delivery_lost",
] as const;
export type DeliveryAttentionKind = (typeof DELIVERY_ATTENTION_KINDS)[number];
/** What the admin's "Needs attention" list on Payment Verification holds: the payments above, and the shop's own findings. */
export const ATTENTION_KINDS = [
  ...ITN_ATTENTION_OUTCOMES,
  "pending_over_an_hour",
  "payfast_api_down",
  "payfast_ping_failed",
  "payfast_hosts_unresolved",
  "plan_charges_unsettled",
  ...DELIVERY_ATTENTION_KINDS,
] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

export const ATTENTION_LABELS: Record<AttentionKind, string> = {
  paid_twice: "Paid twice",
  paid_after_cancel: "Paid after cancel",
  paid_out_of_stock: "Paid, but out of stock",
  wrong_amount: "Wrong amount",
  unknown_order: "Unknown order",
  foreign_merchant: "Another merchant's payment",
  unconfirmed: "Payment not confirmed",
  source_refused: "Notification from an unknown address",
  refund_in_payfast: "Refund made in PayFast",
  pending_over_an_hour: "Pending over an hour",
  payfast_api_down: "PayFast's API not answering",
  payfast_ping_failed: "PayFast's API failed the start check",
  payfast_hosts_unresolved: "PayFast's addresses not found",
  plan_charges_unsettled: "Nappy plan charges not settled",
  delivery_failed_attempt: "Delivery attempt failed",
  delivery_not_collected: "Parcel not collected",
  delivery_returned: "Parcel returned to us",
  delivery_lost: "Parcel lost",
};

export const attentionItem = z.object({
  /** "payment-<n>" for a payment PayFast reported, "order-<uuid>" for an order that waits, "shipment-<uuid>" for a parcel. */
  id: z.string(),
  kind: z.enum(ATTENTION_KINDS),
  label: z.string(),
  orderId: z.string().nullable(),
  orderNumber: z.string().nullable(),
  orderStatus: z.enum(ORDER_STATUSES).nullable(),
  orderTotal: z.string().nullable(),
  /** What PayFast reported as paid ("574.99"), when a payment is involved. */
  amountGross: z.string().nullable(),
  /** Every PayFast payment id involved: for "Paid twice", the one that paid the order and the second. */
  pfPaymentIds: z.array(z.string()),
  /** A parcel's waybill number (the delivery kinds), to quote to the courier. */
  waybillNumber: z.string().nullable().optional(),
  since: z.string(),
  detail: z.string(),
  /** Whether the admin can mark it as dealt with (an order that waits is dealt with by paying or cancelling it). */
  resolvable: z.boolean(),
  /** Whether "Check with PayFast" can settle it now (an unpaid order PayFast may have been paid for). */
  checkable: z.boolean(),
});
export type AttentionItem = z.infer<typeof attentionItem>;

export const attentionList = z.object({ items: z.array(attentionItem) });

export const CHECK_OUTCOMES = ["paid", "flagged", "not_found"] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];

/** POST /api/admin/orders/{id}/check-payfast: what PayFast showed, a sentence for the admin, and the order now. */
export const checkPayfastAnswer = z.object({
  outcome: z.enum(CHECK_OUTCOMES),
  message: z.string(),
  order: adminOrder,
});
export type CheckPayfastAnswer = z.infer<typeof checkPayfastAnswer>;
