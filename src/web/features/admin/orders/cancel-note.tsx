import { formatRecentDateTime } from "#domain/sa-format.js";
import { type AdminOrder, cancelReasonText } from "./order-model";

/** Why and when a cancelled order was cancelled ("Not paid in time · 3 Mar, 14:05"); nothing for other orders. */
export function CancelNote({
  order,
  className = "text-sm text-stone-700",
}: {
  order: Pick<AdminOrder, "status" | "cancelReason" | "cancelledAt"> & { cancelNote?: string | null };
  className?: string;
}) {
  const reason = cancelReasonText(order);
  if (!reason) return null;
  return (
    <p className={className}>
      <span className="font-medium">{reason}</span>
      {order.cancelNote && <>: {order.cancelNote}</>}
      {order.cancelledAt && (
        <>
          {" · "}
          <time dateTime={order.cancelledAt}>{formatRecentDateTime(order.cancelledAt)}</time>
        </>
      )}
    </p>
  );
}
