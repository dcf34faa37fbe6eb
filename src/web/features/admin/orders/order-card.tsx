import type { ReactNode } from "react";
import { Link } from "wouter";
import { formatRand, formatRandText, parseRandToCents } from "#domain/money.js";
import { orderNumber } from "#domain/order-status.js";
import { formatRecentDateTime } from "#domain/sa-format.js";
import { OrderStatusBadge } from "#web/components/ui/order-status-badge.js";
import { type AdminOrder, lineTotalCents, orderLines } from "./order-model";
import { OrderMoneyActions, OrderRefunds } from "./order-refunds";

/** What an order's promo code gave: off the goods and a waived delivery fee. */
const promoGiven = (order: AdminOrder) =>
  ((parseRandToCents(order.discount ?? "0") ?? 0) + (parseRandToCents(order.deliveryDiscount ?? "0") ?? 0)) / 100;

/** One order: number, customer, delivery details, lines, total, status and the action(s) it allows. */
export function OrderCard({
  order,
  action,
  headingLevel: Heading = "h3",
  linked = true,
}: {
  order: AdminOrder;
  action: ReactNode;
  /** h4 where the cards sit under a list's own h3; h2 on the order's own page. */
  headingLevel?: "h2" | "h3" | "h4";
  /** The number links to the order's own page (not on that page). */
  linked?: boolean;
}) {
  const Subheading = Heading === "h2" ? "h3" : Heading === "h3" ? "h4" : "h5";
  const number = orderNumber(order.id);
  const headingId = `order-${order.id}`;
  const lines = orderLines(order.items);
  const deliveryCents = parseRandToCents(String(order.deliveryFee ?? "0")) ?? 0;
  return (
    <article aria-labelledby={headingId} className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <Heading id={headingId} className="font-bold text-stone-900">
            {linked ? (
              <Link
                href={`/admin/orders/${order.id}`}
                className="text-brand-800 underline-offset-2 hover:text-brand-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-700"
              >
                Order #{number}
              </Link>
            ) : (
              <>Order #{number}</>
            )}
          </Heading>
          <p className="text-sm text-stone-600">
            <time dateTime={order.createdAt}>{formatRecentDateTime(order.createdAt)}</time>
            <span aria-hidden="true"> · </span>
            <span className="break-all">{order.customerEmail}</span>
          </p>
        </div>
        <OrderStatusBadge status={order.status} />
      </header>

      <div className="mt-3 grid gap-4 text-sm sm:grid-cols-2">
        <div>
          <Subheading className="text-xs font-semibold tracking-wide text-stone-600 uppercase">Delivery</Subheading>
          <address className="mt-1 text-stone-800 not-italic">
            {order.deliveryName}
            <br />
            {order.deliveryPhone}
            {order.deliveryAltPhone && <> · other {order.deliveryAltPhone}</>}
            {order.deliveryComplex && (
              <>
                <br />
                {order.deliveryComplex}
              </>
            )}
            <br />
            {order.deliveryAddress}
            {order.deliverySuburb && (
              <>
                <br />
                {order.deliverySuburb}
              </>
            )}
            <br />
            {order.deliveryCity}, {order.deliveryProvince} {order.deliveryZipCode}
          </address>
          {order.deliveryInstructions && (
            <p className="mt-1 text-stone-700">
              <span className="font-medium">Instructions:</span> {order.deliveryInstructions}
            </p>
          )}
          <ShippingNote order={order} />
          <PaidByNote order={order} />
          <PayfastPendingNote order={order} />
        </div>
        <div>
          <Subheading className="text-xs font-semibold tracking-wide text-stone-600 uppercase">Items</Subheading>
          <ul className="mt-1 grid gap-1 text-stone-800">
            {lines.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines may repeat a name and size
              <li key={index} className="flex justify-between gap-3">
                <span>
                  {line.name}
                  {line.size && <span className="text-stone-600"> ({line.size})</span>}
                  <span className="tabular block text-xs text-stone-600">
                    {line.quantity} × {formatRandText(line.price)}
                  </span>
                </span>
                <span className="tabular whitespace-nowrap">{formatRand(lineTotalCents(line))}</span>
              </li>
            ))}
            {lines.length === 0 && <li className="text-stone-600">No item details</li>}
          </ul>
        </div>
      </div>

      <OrderRefunds order={order} />

      <footer className="mt-3 flex flex-wrap items-center justify-between gap-3 border-t border-stone-100 pt-3">
        <p className="text-sm text-stone-700">
          Total <span className="tabular text-base font-bold text-stone-900">{formatRandText(order.total)}</span>
          <span className="text-stone-600">
            {" "}
            ({deliveryCents > 0 ? `incl. ${formatRand(deliveryCents)} delivery` : "free delivery"}
            {order.promoCode ? `; promo ${order.promoCode}, ${formatRandText(promoGiven(order))} off` : ""})
          </span>
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <OrderMoneyActions order={order} />
          {action}
        </div>
      </footer>
    </article>
  );
}

/** While PayFast reports the payment PENDING (a slow EFT or voucher): the order keeps its items until then. */
function PayfastPendingNote({ order }: { order: AdminOrder }) {
  if (order.payfastStatus !== "PENDING") return null;
  return (
    <p className="mt-2 text-amber-900">
      PayFast reports the payment as pending (a slow EFT or voucher)
      {order.holdUntil && (
        <>
          : the items are held until <time dateTime={order.holdUntil}>{formatRecentDateTime(order.holdUntil)}</time>
        </>
      )}
      .
    </p>
  );
}

/** "Marked paid by thandi_admin": who confirmed a payment by hand (PayFast's own payments need no name). */
function PaidByNote({ order }: { order: AdminOrder }) {
  if (order.paidBy !== "admin") return null;
  return (
    <p className="mt-2 text-stone-800">
      Marked paid by <span className="font-semibold">{order.paidByAdmin ?? "an admin whose account is gone"}</span>
    </p>
  );
}

/** "Shipped with The Courier Guy · tracking ABC123" and its Track parcel link, once given at Mark as Shipped. */
function ShippingNote({ order }: { order: AdminOrder }) {
  if (!order.courier && !order.trackingNumber) return null;
  return (
    <p className="mt-2 text-stone-800">
      {order.courier ? `Shipped with ${order.courier}` : "Shipped"}
      {order.trackingNumber && (
        <>
          <span aria-hidden="true"> · </span>
          tracking <span className="font-mono break-words">{order.trackingNumber}</span>
        </>
      )}
      {order.trackingUrl && (
        <>
          {" "}
          <a
            href={order.trackingUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="font-semibold whitespace-nowrap text-brand-800 underline underline-offset-2 hover:text-brand-900"
          >
            Track parcel
          </a>
        </>
      )}
    </p>
  );
}
