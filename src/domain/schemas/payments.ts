import { z } from "zod";
import { ORDER_STATUSES } from "../order-status.js";
import { adminOrder } from "./orders.js";

/** What the admin's "Needs attention" list on Payment Verification holds. */
export const ATTENTION_KINDS = [
  "paid_twice",
  "paid_after_cancel",
  "paid_out_of_stock",
  "wrong_amount",
  "unknown_order",
  "foreign_merchant",
  "unconfirmed",
  "source_refused",
  "refund_in_payfast",
  "pending_over_an_hour",
  "payfast_api_down",
  "payfast_ping_failed",
  "payfast_hosts_unresolved",
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
};

export const attentionItem = z.object({
  /** "payment-<n>" for a payment PayFast reported, "order-<uuid>" for an order that waits. */
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
