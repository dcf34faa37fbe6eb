import { Link } from "wouter";
import { formatRandText, parseRandToCents } from "#domain/money.js";
import { formatRecentDateTime } from "#domain/sa-format.js";
import type { AttentionItem, AttentionKind } from "#domain/schemas/payments.js";
import { Button } from "#web/components/ui/button.js";
import { OrderStatusBadge } from "#web/components/ui/order-status-badge.js";
import { LoadError, LoadingRows } from "../shared";
import { useCheckPayfast } from "./api/check-payfast";
import { usePaymentAttention } from "./api/get-payment-attention";
import { useResolveAttentionItem } from "./api/resolve-attention-item";

/** Money that arrived and may have to go back is red; the rest, to look into, is amber. */
const MONEY_AT_STAKE: ReadonlySet<AttentionKind> = new Set([
  "paid_twice",
  "paid_after_cancel",
  "paid_out_of_stock",
  "wrong_amount",
  "unconfirmed",
  "source_refused",
  "payfast_api_down",
  "payfast_ping_failed",
]);

const kindClass = (kind: AttentionKind) =>
  MONEY_AT_STAKE.has(kind) ? "bg-red-50 text-red-900 ring-red-300" : "bg-amber-50 text-amber-900 ring-amber-300";

const edgeClass = (kind: AttentionKind) => (MONEY_AT_STAKE.has(kind) ? "border-l-red-600" : "border-l-amber-500");

/** What the admin does about each kind; the server's detail says what happened. */
const NEXT_STEP: Partial<Record<AttentionKind, string>> = {
  paid_twice: "Refund the second payment from your PayFast dashboard, then mark this resolved.",
  paid_after_cancel:
    "Refund the payment from your PayFast dashboard, or agree with the customer, then mark this resolved.",
  paid_out_of_stock:
    "The customer paid after the order had been cancelled, and some of its items have sold out since. Restock them and ship the order, or refund the customer from your PayFast dashboard (in part or in full), then mark this resolved.",
  wrong_amount:
    "Settle the difference with the customer (refund, or confirm the order by hand), then mark this resolved.",
  unknown_order: "Look the payment up in your PayFast dashboard and refund it if no order is behind it.",
  unconfirmed:
    "The shop asks PayFast's records again at every reconciliation. Press Check with PayFast to ask now, or look the payment up in your PayFast dashboard.",
  source_refused:
    "If your PayFast dashboard shows the payment, press Check with PayFast: the shop books it from PayFast's own records.",
  refund_in_payfast:
    "Open the order and press Record a refund made in PayFast, with the amount, day and PayFast's reference, so the credit note is issued.",
  payfast_api_down:
    "Payments whose notification did not arrive wait until PayFast answers again. Check PayFast's status page; this clears by itself.",
  payfast_ping_failed:
    "Check PAYFAST_MERCHANT_ID and PAYFAST_PASSPHRASE against your PayFast account's settings, and that its API is enabled; then restart the shop.",
  payfast_hosts_unresolved:
    "Check the server's DNS. Meanwhile notifications from other addresses are confirmed with PayFast before they are booked.",
  plan_charges_unsettled:
    "These boxes are never charged again until settled. Look each order up in your PayFast dashboard: paid, press Check with PayFast on the order; not paid, cancel the order. The shop also settles them by itself once PayFast's history answers.",
  delivery_failed_attempt:
    "The courier tries again on the next business day; this clears by itself when it does. Call the customer if the address or phone may be wrong.",
  delivery_not_collected:
    "The parcel comes back to you. Ask the customer whether to send it again or refund them, then mark this resolved.",
  delivery_returned: "Check the parcel back into stock, send it again or refund the customer, then mark this resolved.",
  delivery_lost:
    "Claim from the courier with the waybill number, and send the order again or refund the customer in full; then mark this resolved.",
};

const isDelivery = (kind: AttentionKind) => kind.startsWith("delivery_");

/**
 * "Needs attention" on Payment Verification: what PayFast reported that the shop could not book
 * by itself, orders waiting too long, and parcels in trouble (a failed attempt, not collected,
 * returned, lost) until resolved. Refreshed with the pending list, every 30 seconds.
 */
export function AttentionList() {
  const { data: items, isPending, isError, refetch } = usePaymentAttention();
  const count = items?.length ?? 0;

  return (
    <section aria-labelledby="needs-attention" className="mb-8">
      <div className="mb-3 flex items-center gap-2">
        <h3 id="needs-attention" className="text-base font-bold text-stone-900">
          Needs attention
        </h3>
        {count > 0 && (
          <span className="tabular grid h-6 min-w-6 place-items-center rounded-full bg-red-700 px-2 text-xs font-bold text-white">
            {count}
            <span className="sr-only"> {count === 1 ? "item" : "items"}</span>
          </span>
        )}
      </div>
      {isPending ? (
        <LoadingRows rows={1} label="Loading payments that need attention" />
      ) : isError ? (
        <LoadError what="the payments that need attention" onRetry={() => refetch()} />
      ) : count === 0 ? (
        <p className="flex items-center gap-2 rounded-xl border border-stone-200 bg-white px-4 py-3 text-sm text-stone-700">
          <span aria-hidden="true" className="size-2 shrink-0 rounded-full bg-green-600" />
          Nothing needs attention. Payments the shop could not book by itself, orders waiting over an hour, and parcels
          the courier could not deliver show up here.
        </p>
      ) : (
        <ul aria-labelledby="needs-attention" className="grid gap-3">
          {items.map((item) => (
            <AttentionCard key={item.id} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AttentionCard({ item }: { item: AttentionItem }) {
  const resolve = useResolveAttentionItem();
  const check = useCheckPayfast();
  const busy = resolve.isPending && resolve.variables === item.id;
  const headingId = `attention-${item.id}`;
  const amountDiffers =
    item.amountGross !== null &&
    item.orderTotal !== null &&
    parseRandToCents(item.amountGross) !== parseRandToCents(item.orderTotal);
  const markResolved = () => {
    if (window.confirm(`Mark "${item.label}" as resolved? It leaves the Needs attention list.`)) {
      resolve.mutate(item.id);
    }
  };

  return (
    <li
      aria-labelledby={headingId}
      className={`rounded-xl border border-l-4 border-stone-200 bg-white p-4 shadow-sm ${edgeClass(item.kind)}`}
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h4 id={headingId} className="flex flex-wrap items-center gap-x-2 gap-y-1 font-bold text-stone-900">
            <span
              className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${kindClass(item.kind)}`}
            >
              {item.label}
            </span>
            {item.orderId && item.orderNumber ? (
              <Link
                href={`/admin/orders/${item.orderId}`}
                className="text-brand-800 underline-offset-2 hover:text-brand-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-700"
              >
                Order #{item.orderNumber}
              </Link>
            ) : (
              <span>{item.kind.startsWith("payfast_") ? "The shop and PayFast" : "No matching order"}</span>
            )}
          </h4>
          <p className="mt-1 text-sm text-stone-600">
            <time dateTime={item.since}>{formatRecentDateTime(item.since)}</time>
          </p>
        </div>
        {item.orderStatus && <OrderStatusBadge status={item.orderStatus} />}
      </header>

      {isDelivery(item.kind) ? (
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs font-semibold tracking-wide text-stone-600 uppercase">Waybill</dt>
            <dd className="tabular mt-0.5 font-semibold break-all text-stone-900">{item.waybillNumber ?? "None"}</dd>
          </div>
          <div>
            <dt className="text-xs font-semibold tracking-wide text-stone-600 uppercase">Order total</dt>
            <dd className="tabular mt-0.5 font-semibold text-stone-900">
              {item.orderTotal === null ? "No order" : formatRandText(item.orderTotal)}
            </dd>
          </div>
        </dl>
      ) : (
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs font-semibold tracking-wide text-stone-600 uppercase">PayFast reported</dt>
            <dd className={`tabular mt-0.5 font-semibold ${amountDiffers ? "text-red-800" : "text-stone-900"}`}>
              {item.amountGross === null ? "No payment" : formatRandText(item.amountGross)}
            </dd>
          </div>
          <div>
            <dt className="text-xs font-semibold tracking-wide text-stone-600 uppercase">Order total</dt>
            <dd className="tabular mt-0.5 font-semibold text-stone-900">
              {item.orderTotal === null ? "No order" : formatRandText(item.orderTotal)}
            </dd>
          </div>
          <div className="col-span-2 sm:col-span-1">
            <dt className="text-xs font-semibold tracking-wide text-stone-600 uppercase">
              {item.pfPaymentIds.length > 1 ? "PayFast payment IDs" : "PayFast payment ID"}
            </dt>
            <dd className="tabular mt-0.5 break-all text-stone-900">
              {item.pfPaymentIds.length > 0 ? item.pfPaymentIds.join(", ") : "None"}
            </dd>
          </div>
        </dl>
      )}

      <footer className="mt-3 flex flex-wrap items-center justify-between gap-3 border-t border-stone-100 pt-3">
        <div className="min-w-0 flex-1 basis-64 text-sm">
          <p className="text-stone-800">{item.detail}</p>
          {NEXT_STEP[item.kind] && <p className="mt-1 text-stone-600">{NEXT_STEP[item.kind]}</p>}
        </div>
        <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
          {item.checkable && item.orderId && (
            <Button
              variant="outline"
              className="w-full sm:w-auto"
              onClick={() => check.mutate(item.orderId as string)}
              disabled={check.isPending}
            >
              {check.isPending ? "Checking..." : "Check with PayFast"}
            </Button>
          )}
          {item.resolvable ? (
            <Button variant="outline" className="w-full sm:w-auto" onClick={markResolved} disabled={resolve.isPending}>
              {busy ? "Saving..." : "Mark resolved"}
            </Button>
          ) : (
            <p className="text-xs text-stone-600">
              {item.kind.startsWith("payfast_")
                ? "Clears by itself once it works again."
                : "Clears once the order is paid or cancelled."}
            </p>
          )}
        </div>
      </footer>
    </li>
  );
}
