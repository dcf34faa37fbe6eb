import { useId, useState } from "react";
import { nextOrderStatus } from "#domain/order-status.js";
import { saDay } from "#domain/sa-calendar.js";
import { formatDate } from "#domain/sa-format.js";
import { Button } from "#web/components/ui/button.js";
import { errorMessage } from "#web/lib/api.js";
import { useMarkDelivered } from "./api/mark-delivered";
import { useUpdateOrderStatus } from "./api/update-order-status";
import { CancelNote } from "./cancel-note";
import type { AdminOrder } from "./order-model";
import { ShipOrderDialog } from "./ship-order-dialog";

/** The status machine's one move for an order: Mark as Paid, Mark as Shipped, or a note that none is left. */
function StatusAction({ order }: { order: AdminOrder }) {
  const update = useUpdateOrderStatus();
  const [shipping, setShipping] = useState(false);
  const next = nextOrderStatus(order.status);
  if (order.status === "cancelled") return <CancelNote order={order} />;
  if (order.status === "refunded") return <p className="text-sm font-medium text-violet-900">Refunded in full</p>;
  if (next === "processed") {
    return (
      <>
        <Button onClick={() => setShipping(true)}>Mark as Shipped</Button>
        <ShipOrderDialog order={order} open={shipping} onOpenChange={setShipping} />
      </>
    );
  }
  if (next !== "completed") return <DeliveredAction order={order} />;
  return (
    <Button onClick={() => update.mutate({ id: order.id, status: next })} disabled={update.isPending}>
      {update.isPending ? "Saving..." : "Mark as Paid"}
    </Button>
  );
}

/**
 * A shipped order: "Mark as delivered" on the day it reached the customer (today unless the courier
 * reported it late; the return windows count from it), or the day it was.
 */
function DeliveredAction({ order }: { order: AdminOrder }) {
  const delivered = useMarkDelivered();
  const today = saDay();
  const [deliveredOn, setDeliveredOn] = useState(today);
  const dayId = useId();
  if (order.deliveredAt) {
    return (
      <p className="text-sm font-medium text-green-800">
        Order shipped and completed · delivered{" "}
        <time dateTime={order.deliveredAt}>{formatDate(order.deliveredAt)}</time>
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <p className="text-sm font-medium text-green-800">Order shipped and completed</p>
      <label htmlFor={dayId} className="text-sm text-stone-700">
        Delivered on
      </label>
      <input
        id={dayId}
        type="date"
        max={today}
        value={deliveredOn}
        onChange={(event) => setDeliveredOn(event.target.value)}
        className="min-h-11 rounded-lg border border-stone-300 px-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-700"
      />
      <Button
        variant="outline"
        onClick={() =>
          delivered.mutate({ id: order.id, ...(deliveredOn && deliveredOn !== today ? { deliveredOn } : {}) })
        }
        disabled={delivered.isPending}
      >
        {delivered.isPending ? "Saving..." : "Mark as delivered"}
      </Button>
      {delivered.isError && (
        <p role="alert" className="w-full text-sm text-red-900">
          {errorMessage(delivered.error, "The delivery day was not saved.")}
        </p>
      )}
    </div>
  );
}

/**
 * Every action an order allows, as the order card and the order page show them. New actions
 * (refund, cancel, invoice...) are added to this list, and appear in both places.
 */
export function OrderActions({ order }: { order: AdminOrder }) {
  return (
    <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row sm:items-center">
      <StatusAction order={order} />
    </div>
  );
}
