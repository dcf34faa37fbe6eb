import { Link } from "wouter";
import { formatRand, formatRandText, parseRandToCents } from "#domain/money.js";
import type { CancelReason } from "#domain/order-status.js";
import { formatDateTime } from "#domain/sa-format.js";
import type { Order } from "#domain/schemas/orders.js";
import { Button, buttonClass } from "#web/components/ui/button.js";
import { OrderStatusBadge } from "#web/components/ui/order-status-badge.js";
import { orderNumber } from "#web/lib/format.js";
import { useUserOrders } from "./api/get-user-orders";
import { OrderDocuments } from "./order-documents";
import { OrderPolicies } from "./order-policies";
import { OrderRequests } from "./order-requests";
import { useBuyAgain } from "./use-buy-again";

/** Why an order was cancelled, in the customer's words (the staff's are CANCEL_REASON_LABELS). */
const CANCELLED_BECAUSE: Record<CancelReason, string> = {
  expired: "Cancelled: not paid in time",
  shopper: "Cancelled by you",
  admin: "Cancelled by the shop",
};

/** The Order History tab: the customer's orders, newest first. */
export function OrderHistory({ userId }: { userId: string }) {
  const { data, isPending, isError, error, refetch, isFetching } = useUserOrders(userId);
  const { buyAgain, busyOrderId } = useBuyAgain();

  if (isPending) {
    return (
      <div role="status" aria-live="polite" className="grid gap-4">
        <span className="sr-only">Loading your orders...</span>
        {[0, 1].map((key) => (
          <div
            key={key}
            aria-hidden="true"
            className="h-40 animate-pulse rounded-2xl border border-stone-200 bg-white"
          />
        ))}
      </div>
    );
  }
  if (isError) {
    return (
      <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-5 text-red-950">
        <p className="font-semibold">We couldn't load your orders.</p>
        <p className="mt-1 text-sm">{error.message}</p>
        <Button variant="outline" className="mt-4" disabled={isFetching} onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (data.length === 0) {
    return (
      <div className="rounded-2xl border border-dashed border-stone-300 bg-white px-5 py-10 text-center">
        <h2 className="text-lg font-semibold text-stone-950">No orders yet</h2>
        <p className="mt-1 text-stone-600">When you place an order, you can follow it here.</p>
        <Link href="/" className={buttonClass({ className: "mt-5" })}>
          Start Shopping
        </Link>
      </div>
    );
  }

  const newestFirst = [...data].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  return (
    <section aria-label="Your orders">
      <p className="mb-4 text-sm text-stone-600">
        {newestFirst.length} {newestFirst.length === 1 ? "order" : "orders"}, newest first
      </p>
      <ol className="grid gap-4">
        {newestFirst.map((order) => (
          <li key={order.id}>
            <OrderCard order={order} onBuyAgain={() => void buyAgain(order)} adding={busyOrderId === order.id} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function OrderCard({ order, onBuyAgain, adding }: { order: Order; onBuyAgain: () => void; adding: boolean }) {
  const headingId = `order-${order.id}`;
  const deliveryCents = parseRandToCents(order.deliveryFee) ?? 0;
  return (
    <article aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 id={headingId} className="font-semibold text-stone-950">
            Order #{orderNumber(order.id)}
          </h3>
          <p className="text-sm text-stone-600">
            Placed <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
          </p>
          {order.status === "cancelled" && order.cancelReason && (
            <p className="text-sm font-medium text-stone-800">
              {CANCELLED_BECAUSE[order.cancelReason]}
              {order.cancelledAt && (
                <>
                  {" "}
                  on <time dateTime={order.cancelledAt}>{formatDateTime(order.cancelledAt)}</time>
                </>
              )}
            </p>
          )}
          {order.payfastStatus === "PENDING" && (
            <p className="text-sm font-medium text-stone-800">
              PayFast is still processing your payment
              {order.holdUntil && (
                <>
                  ; we keep your items for you until{" "}
                  <time dateTime={order.holdUntil}>{formatDateTime(order.holdUntil)}</time>
                </>
              )}
              .
            </p>
          )}
        </div>
        <OrderStatusBadge status={order.status} />
      </header>

      <ul className="mt-4 divide-y divide-stone-100 border-y border-stone-100">
        {order.items.map((item) => (
          <li key={`${item.name}|${item.size}|${item.price}`} className="flex justify-between gap-4 py-2.5 text-sm">
            <span className="min-w-0">
              <span className="font-medium text-stone-900">{item.name}</span>
              <span className="block text-stone-600">
                {item.size} · {item.quantity} × {formatRandText(item.price)}
              </span>
            </span>
            <span className="tabular shrink-0 font-medium text-stone-900">
              {formatRand((parseRandToCents(item.price) ?? 0) * item.quantity)}
            </span>
          </li>
        ))}
      </ul>

      <dl className="tabular mt-3 grid gap-1 text-sm">
        <div className="flex justify-between text-stone-700">
          <dt>Subtotal</dt>
          <dd>{formatRandText(order.subtotal)}</dd>
        </div>
        {order.promoCode && order.discount !== "0.00" && (
          <div className="flex justify-between text-stone-700">
            <dt>Promo code {order.promoCode}</dt>
            <dd>-{formatRandText(order.discount)}</dd>
          </div>
        )}
        <div className="flex justify-between text-stone-700">
          <dt>Delivery</dt>
          <dd>{deliveryCents === 0 ? "Free" : formatRandText(order.deliveryFee)}</dd>
        </div>
        <div className="flex justify-between text-base font-semibold text-stone-950">
          <dt>Total</dt>
          <dd>{formatRandText(order.total)}</dd>
        </div>
      </dl>
      <OrderDocuments order={order} />
      <OrderPolicies order={order} />
      <OrderRequests order={order} />
      <footer className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1 text-sm">
          <p className="text-stone-600">
            Delivering to{" "}
            {[
              order.deliveryName,
              order.deliveryComplex,
              order.deliveryAddress,
              order.deliverySuburb,
              order.deliveryCity,
              order.deliveryProvince,
              order.deliveryZipCode,
            ]
              .filter(Boolean)
              .join(", ")}
          </p>
          <p className="text-stone-600">
            {order.delivery.label}
            {order.delivery.pointName ? `: ${order.delivery.pointName}, ${order.delivery.pointAddress ?? ""}` : ""}
          </p>
          {order.deliveryInstructions && (
            <p className="text-stone-600">Delivery instructions: {order.deliveryInstructions}</p>
          )}
          <ShippingNote order={order} />
        </div>
        <Button
          variant="outline"
          onClick={onBuyAgain}
          disabled={adding}
          aria-describedby={headingId}
          className="w-full sm:w-auto"
        >
          {adding ? "Adding..." : "Buy again"}
        </Button>
      </footer>
    </article>
  );
}

/**
 * "Shipped with The Courier Guy · tracking ABC123" and a Track parcel link, when the shop gave them;
 * and on every paid order, the shop's own tracking page (/orders/{id}/tracking).
 */
function ShippingNote({ order }: { order: Order }) {
  if (order.status !== "processed" && order.status !== "completed") return null;
  const followLink = (
    <Link
      href={`/orders/${order.id}/tracking`}
      className="inline-flex min-h-11 items-center font-semibold whitespace-nowrap text-brand-800 underline underline-offset-2 hover:text-brand-900"
    >
      Follow your parcel
    </Link>
  );
  if (order.status !== "processed" || (!order.courier && !order.trackingNumber)) {
    return <div className="flex flex-wrap items-center gap-x-3 text-stone-800">{followLink}</div>;
  }
  return (
    <div className="flex flex-wrap items-center gap-x-3 text-stone-800">
      <p>
        {order.courier ? `Shipped with ${order.courier}` : "Shipped"}
        {order.trackingNumber && (
          <>
            <span aria-hidden="true"> · </span>
            <span className="whitespace-nowrap">tracking</span>{" "}
            <span className="font-mono break-words">{order.trackingNumber}</span>
          </>
        )}
      </p>
      {order.trackingUrl && (
        <a
          href={order.trackingUrl}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`Track parcel (opens ${order.courier ?? "the courier's site"} in a new tab)`}
          className="inline-flex min-h-11 items-center font-semibold whitespace-nowrap text-brand-800 underline underline-offset-2 hover:text-brand-900"
        >
          Track parcel
        </a>
      )}
      {followLink}
    </div>
  );
}
