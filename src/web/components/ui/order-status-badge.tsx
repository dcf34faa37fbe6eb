import { ORDER_STATUS_LABELS, type OrderStatus } from "#domain/order-status.js";

/** DESIGN.md's status colours: Needs Payment amber, Paid - Ready to Ship blue, Shipped green. */
const STATUS_CLASSES: Record<OrderStatus, { badge: string; dot: string }> = {
  pending: { badge: "bg-amber-100 text-amber-900 ring-amber-300", dot: "bg-amber-500" },
  completed: { badge: "bg-blue-100 text-blue-900 ring-blue-300", dot: "bg-blue-600" },
  processed: { badge: "bg-green-100 text-green-900 ring-green-300", dot: "bg-green-600" },
  cancelled: { badge: "bg-stone-100 text-stone-800 ring-stone-300", dot: "bg-stone-500" },
  refunded: { badge: "bg-violet-100 text-violet-900 ring-violet-300", dot: "bg-violet-600" },
};

/** An order's status in the shop's words (domain/order-status.ts) and colour, for customers and the admin alike. */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const classes = STATUS_CLASSES[status];
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${classes.badge}`}
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${classes.dot}`} />
      {ORDER_STATUS_LABELS[status]}
    </span>
  );
}
