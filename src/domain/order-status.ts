export const ORDER_STATUSES = ["pending", "completed", "processed", "cancelled", "refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * The admin's one forward move from each status. A cancelled order leaves that state only
 * through a verified payment (docs/product.md §4: money is never ignored), never by a status change.
 */
const NEXT: Record<OrderStatus, OrderStatus | null> = {
  pending: "completed",
  completed: "processed",
  processed: null,
  cancelled: null,
  refunded: null,
};

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

/** The one forward move an order may make, or null when it has shipped. */
export function nextOrderStatus(status: OrderStatus): OrderStatus | null {
  return NEXT[status];
}

export function canMoveOrder(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from] === to;
}

/** Paid orders an admin may refund (docs/product.md §11); fully refunded ones become `refunded`. */
export const REFUNDABLE_STATUSES: readonly OrderStatus[] = ["completed", "processed"];

export function orderStatusLabel(status: string): string {
  return isOrderStatus(status) ? ORDER_STATUS_LABELS[status] : status;
}

/** Orders are shown by the last 8 characters of their UUID. */
export function orderNumber(orderId: string): string {
  return orderId.slice(-8).toUpperCase();
}
