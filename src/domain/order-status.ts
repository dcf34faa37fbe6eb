export const ORDER_STATUSES = ["pending", "completed", "processed", "cancelled", "refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Who moves an order: a person at the shop, its shopper, a payment PayFast proved, the unpaid-order expiry, a refund, a courier's tracking event. */
export const ORDER_MOVERS = ["admin", "shopper", "payment", "expiry", "refund", "courier"] as const;
export type OrderMover = (typeof ORDER_MOVERS)[number];

export interface OrderTransition {
  from: OrderStatus;
  to: OrderStatus;
  by: readonly OrderMover[];
}

/** Every order is placed `pending` (orders/place-order.ts): the status machine's one way in. */
export const ORDER_START_STATUS: OrderStatus = "pending";

/**
 * The order status machine (docs/decisions/028): every move an order may make, and who may make
 * it. Every other move is refused (409). src/server/orders/status.ts is the one writer of an
 * order's status and reads this table for each write. A cancelled order leaves that state only
 * through a verified payment (docs/product.md §4: money is never ignored), never by a status change.
 */
export const ORDER_TRANSITIONS: readonly OrderTransition[] = [
  // Paid: PayFast proved it (payments/mark-paid.ts), or an admin marked it paid by hand.
  { from: "pending", to: "completed", by: ["admin", "payment"] },
  { from: "cancelled", to: "completed", by: ["payment"] },
  // Shipped: an admin, with the courier and tracking number, or the courier's "collected" on a
  // waybill the shop booked (delivery/tracking.ts).
  { from: "completed", to: "processed", by: ["admin", "courier"] },
  // Cancelled unpaid (orders/cancel.ts): by its shopper, an admin with a reason, or the expiry job.
  { from: "pending", to: "cancelled", by: ["admin", "shopper", "expiry"] },
  // Refunded in full (payments/refunds.ts): a partial refund leaves the status as it was.
  { from: "completed", to: "refunded", by: ["refund"] },
  { from: "processed", to: "refunded", by: ["refund"] },
];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Needs Payment",
  completed: "Paid - Ready to Ship",
  processed: "Shipped",
  cancelled: "Cancelled",
  refunded: "Refunded",
};

/** Why an order was cancelled (docs/product.md §10). */
export const CANCEL_REASONS = ["expired", "shopper", "admin"] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** The reason as the shop's staff read it; the shopper's own order history says "you" (features/account). */
export const CANCEL_REASON_LABELS: Record<CancelReason, string> = {
  expired: "Not paid in time",
  shopper: "Cancelled by the shopper",
  admin: "Cancelled by the shop",
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === "string" && (ORDER_STATUSES as readonly string[]).includes(value);
}

/** Whether `by` may move an order from `from` to `to` (the table above). */
export function canMoveOrder(from: OrderStatus, to: OrderStatus, by: OrderMover): boolean {
  return ORDER_TRANSITIONS.some((move) => move.from === from && move.to === to && move.by.includes(by));
}

/** The statuses `by` may move an order to `to` from. */
export function movableFrom(to: OrderStatus, by: OrderMover): OrderStatus[] {
  return ORDER_TRANSITIONS.filter((move) => move.to === to && move.by.includes(by)).map((move) => move.from);
}

/**
 * The admin's one forward move from a status (Mark as Paid, Mark as Shipped: the order page's
 * button and PATCH /api/admin/orders/:id/status), or null when none is left. Cancelling is its own
 * action, with the admin's reason.
 */
export function nextOrderStatus(status: OrderStatus): OrderStatus | null {
  const forward = ORDER_TRANSITIONS.find(
    (move) => move.from === status && move.to !== "cancelled" && move.by.includes("admin"),
  );
  return forward?.to ?? null;
}

/** Paid orders an admin may refund (docs/product.md §11); fully refunded ones become `refunded`. */
export const REFUNDABLE_STATUSES: readonly OrderStatus[] = movableFrom("refunded", "refund");

/** Orders a payment may still pay (pending, or cancelled before the payment arrived). */
export const UNPAID_STATUSES: readonly OrderStatus[] = movableFrom("completed", "payment");

/** Orders that were paid and are not refunded in full: the shop's takings. */
export const PAID_STATUSES: readonly OrderStatus[] = REFUNDABLE_STATUSES;

/** Orders that were paid at some time: the paid ones, and those refunded in full since. */
export const EVER_PAID_STATUSES: readonly OrderStatus[] = [...PAID_STATUSES, "refunded"];

export function orderStatusLabel(status: string): string {
  return isOrderStatus(status) ? ORDER_STATUS_LABELS[status] : status;
}

// How an order is named lives on its own (order-number.ts): the storefront's first load shows it
// without this module's tables.
export { orderNumber } from "./order-number.js";
