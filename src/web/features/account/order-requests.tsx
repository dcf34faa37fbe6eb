import { lazy, Suspense, useState } from "react";
import { formatRandText } from "#domain/money.js";
import { EVER_PAID_STATUSES } from "#domain/order-status.js";
import { RETURN_REASON_LABELS, RETURN_STATUS_LABELS, type ReturnStatus } from "#domain/returns.js";
import { formatDate } from "#domain/sa-format.js";
import type { Order } from "#domain/schemas/orders.js";
import type { ReturnRequest } from "#domain/schemas/returns.js";
import { Button } from "#web/components/ui/button.js";
import { useMyReturns } from "./api/get-my-returns";

// The form loads when it is first opened: the profile's first load stays as it was.
const loadReturnRequestDialog = () => import("./return-request-dialog");
const ReturnRequestDialog = lazy(loadReturnRequestDialog);

const STATUS_TONE: Record<ReturnStatus, string> = {
  requested: "bg-amber-100 text-amber-900 ring-amber-300",
  accepted: "bg-blue-100 text-blue-900 ring-blue-300",
  received: "bg-blue-100 text-blue-900 ring-blue-300",
  declined: "bg-stone-100 text-stone-800 ring-stone-300",
  refunded: "bg-violet-100 text-violet-900 ring-violet-300",
  exchanged: "bg-green-100 text-green-900 ring-green-300",
  resolved: "bg-green-100 text-green-900 ring-green-300",
};

/**
 * The order's requests with their status, and the way to ask: "Return or report a problem" once
 * shipped, "Cancel order" while paid and waiting, "Report a problem" (a complaint) once refunded.
 */
export function OrderRequests({ order }: { order: Order }) {
  const canAsk = EVER_PAID_STATUSES.includes(order.status);
  const { data } = useMyReturns();
  const [open, setOpen] = useState(false);
  const requests = (data ?? []).filter((request) => request.orderId === order.id);
  if (!canAsk && requests.length === 0) return null;
  return (
    <div className="mt-3 grid gap-2">
      {requests.length > 0 && (
        <ul aria-label={`Requests about order ${order.id.slice(-8).toUpperCase()}`} className="grid gap-2">
          {requests.map((request) => (
            <li key={request.id}>
              <RequestStatus request={request} />
            </li>
          ))}
        </ul>
      )}
      {canAsk && (
        <div>
          <Button
            variant="outline"
            size="sm"
            onClick={() => setOpen(true)}
            onPointerEnter={() => void loadReturnRequestDialog()}
            className="w-full sm:w-auto"
          >
            {order.status === "completed"
              ? "Cancel order"
              : order.status === "refunded"
                ? "Report a problem"
                : "Return or report a problem"}
          </Button>
        </div>
      )}
      {open && (
        <Suspense fallback={null}>
          <ReturnRequestDialog order={order} open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </div>
  );
}

function RequestStatus({ request }: { request: ReturnRequest }) {
  const note =
    request.status === "accepted"
      ? request.instructions
      : request.status === "declined" || request.status === "resolved" || request.status === "exchanged"
        ? request.decision
        : null;
  return (
    <div className="rounded-xl border border-stone-200 bg-stone-50 p-3 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-stone-900">
          {request.reference} · {RETURN_REASON_LABELS[request.reason]}
        </p>
        <span
          className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATUS_TONE[request.status]}`}
        >
          {RETURN_STATUS_LABELS[request.status]}
        </span>
      </div>
      {request.lines.length > 0 && (
        <p className="mt-1 text-stone-700">
          {request.lines.map((line) => `${line.quantity} × ${line.name} (${line.size})`).join(", ")}
        </p>
      )}
      {note && <p className="mt-1 whitespace-pre-line text-stone-800">{note}</p>}
      <p className="mt-1 text-stone-600">
        Asked on <time dateTime={request.createdAt}>{formatDate(request.createdAt)}</time>
        {request.status === "refunded" && request.offeredRefund !== "0.00"
          ? ` · refunded ${formatRandText(request.offeredRefund)}`
          : request.closedAt
            ? ""
            : ` · we answer by ${formatDate(`${request.deadlineDay}T12:00:00+02:00`)}`}
      </p>
    </div>
  );
}
