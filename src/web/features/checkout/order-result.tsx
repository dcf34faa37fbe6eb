import { useEffect } from "react";
import { useLocation, useSearch } from "wouter";
import { PAID_STATUSES } from "#domain/order-status.js";
import { DISPATCH_PROMISE } from "#domain/pricing.js";
import { formatRecentDateTime } from "#domain/sa-format.js";
import type { Order } from "#domain/schemas/orders.js";
import { invoicePath } from "#domain/tax-documents.js";
import { Button } from "#web/components/ui/button.js";
import { PdfLink } from "#web/components/ui/pdf-link.js";
import { ApiError, type ApiErrorCode } from "#web/lib/api.js";
import { orderNumber } from "#web/lib/format.js";
import { publicConfig } from "#web/lib/public-config.js";
import { useCart } from "../cart";
import { sendConversion } from "./ad-conversion";
import { useOrder } from "./api/get-order";
import {
  ContinueShoppingLink,
  OrderNumberLine,
  ResultCard,
  ResultIcon,
  RetryPaymentLink,
  Spinner,
  StatusPill,
} from "./result-views";

/** The order is not there for this browser: not signed in, someone else's, or no such order. */
const NOT_YOURS = new Set<ApiErrorCode>(["NOT_LOGGED_IN", "SESSION_MISMATCH", "FORBIDDEN", "NOT_FOUND"]);

const isPaid = (order: Order | undefined) => order !== undefined && PAID_STATUSES.includes(order.status);

/**
 * /success and /thank-you: Payment Successful once the server has the order as paid (PayFast's
 * notification, or reconciliation with PayFast's records, is the proof, not the return to this
 * page). The cart is cleared only then. While the order waits, the page says what PayFast last
 * said about it: failed (try again), still processing, or nothing yet.
 */
export function PaymentResult({ trackConversion }: { trackConversion: boolean }) {
  const orderId = new URLSearchParams(useSearch()).get("orderId");
  const [, navigate] = useLocation();
  const cart = useCart();
  const { query, waiting, checkAgain } = useOrder(orderId, { waitForPayment: true });
  const { data: order, error, refetch } = query;
  const paid = isPaid(order);

  useEffect(() => {
    if (!orderId) navigate("/", { replace: true });
  }, [orderId, navigate]);

  const clearCart = cart.clear;
  const hasItems = cart.items.length > 0;
  useEffect(() => {
    if (paid && hasItems) clearCart();
  }, [paid, hasItems, clearCart]);

  useEffect(() => {
    if (paid && trackConversion && order) sendConversion(order.id);
  }, [paid, trackConversion, order]);

  if (!orderId) return null;
  const number = orderNumber(orderId);

  if (!order) {
    if (!error) return <Checking number={number} text="This takes a moment." />;
    const missing = error instanceof ApiError && NOT_YOURS.has(error.code);
    return (
      <ResultCard
        actions={
          <>
            {!missing && <Button onClick={() => void refetch()}>Try again</Button>}
            <ContinueShoppingLink primary={missing} />
          </>
        }
      >
        <ResultIcon shape="question" tone="amber" />
        <h1 className="mt-4 text-balance text-2xl font-bold">
          {missing ? "We could not find this order" : "We could not load this order"}
        </h1>
        <p className="mt-2 text-stone-600">
          {missing
            ? "Please log in with the account you ordered with, or contact us with your order number."
            : "Check your connection and try again. Your payment is not affected."}
        </p>
        <OrderNumberLine number={number} />
      </ResultCard>
    );
  }

  if (paid) return <Paid order={order} />;

  if (order.status === "cancelled") {
    return (
      <ResultCard actions={<ContinueShoppingLink primary />}>
        <ResultIcon shape="cross" tone="amber" />
        <h1 className="mt-4 text-balance text-2xl font-bold sm:text-3xl">This order was cancelled</h1>
        <StatusPill tone="amber">Status: Cancelled</StatusPill>
        <p className="mt-4 text-stone-700">
          No payment is expected for it. If money left your account for this order, contact us with the order number and
          we will sort it out.
        </p>
        <OrderNumberLine number={number} />
      </ResultCard>
    );
  }

  if (order.payfastStatus === "FAILED") {
    return (
      <ResultCard
        actions={
          <>
            {hasItems && <RetryPaymentLink />}
            <ContinueShoppingLink primary={!hasItems} />
          </>
        }
      >
        <ResultIcon shape="cross" tone="red" />
        <h1 className="mt-4 text-balance text-2xl font-bold sm:text-3xl">Your payment did not go through</h1>
        <StatusPill tone="red">Status: Payment failed</StatusPill>
        <p className="mt-4 text-stone-700">
          PayFast could not take the payment, so nothing was charged for this order.{" "}
          {hasItems
            ? "Your cart has been kept, so you can try again with the same or another payment method."
            : "You can place the order again whenever you are ready."}
        </p>
        <OrderNumberLine number={number} />
      </ResultCard>
    );
  }

  if (!waiting) {
    return (
      <ResultCard
        actions={
          <>
            <Button size="lg" onClick={checkAgain}>
              Check again
            </Button>
            <ContinueShoppingLink />
          </>
        }
      >
        <ResultIcon shape="clock" tone="amber" />
        <h1 className="mt-4 text-balance text-2xl font-bold">PayFast has not confirmed this payment yet</h1>
        <p className="mt-2 text-stone-700">
          This page has stopped checking. If you paid, please do not pay again:{" "}
          <a href={`mailto:${publicConfig.email}`} className="font-semibold text-brand-800 underline">
            contact us
          </a>{" "}
          with your order number and we will check the payment with PayFast.
        </p>
        <OrderNumberLine number={number} />
      </ResultCard>
    );
  }

  if (order.payfastStatus === "PENDING") {
    return (
      <Checking
        number={number}
        title="PayFast is still processing your payment"
        text={`Some payments, such as instant EFT, take a little longer to clear. There is no need to pay again.${order.holdUntil ? ` We keep your items for you until ${formatRecentDateTime(order.holdUntil)}.` : ""} This page updates by itself as soon as PayFast confirms it.`}
      />
    );
  }

  return (
    <Checking
      number={number}
      text="PayFast has not confirmed this payment yet. This page updates by itself, so you can leave it open; it can take a few minutes."
    />
  );
}

function Checking({
  number,
  title = "Confirming your payment...",
  text,
}: {
  number: string;
  title?: string;
  text: string;
}) {
  return (
    <ResultCard actions={<ContinueShoppingLink />}>
      <Spinner />
      <h1 className="mt-4 text-balance text-2xl font-bold">{title}</h1>
      <p className="mt-2 text-stone-600">{text}</p>
      <OrderNumberLine number={number} />
    </ResultCard>
  );
}

function Paid({ order }: { order: Order }) {
  return (
    <ResultCard actions={<ContinueShoppingLink primary />}>
      <ResultIcon shape="check" tone="brand" />
      <h1 className="mt-4 text-balance text-2xl font-bold sm:text-3xl">Payment Successful</h1>
      <p className="mt-2 text-stone-700">
        Thank you! Your order number is <strong className="tabular">{orderNumber(order.id)}</strong>.
      </p>
      <StatusPill tone="brand">Order Processing</StatusPill>
      <div className="mt-6 rounded-2xl bg-stone-50 p-5 text-left">
        <h2 className="font-semibold">What happens next</h2>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-stone-700">
          <li>{DISPATCH_PROMISE}</li>
          <li>Your order is delivered by courier in 2-5 business days.</li>
          <li>We send updates to {order.customerEmail}.</li>
        </ul>
        {order.invoiceNumber && (
          <PdfLink href={invoicePath(order.id)} className="mt-2">{`Download invoice ${order.invoiceNumber}`}</PdfLink>
        )}
      </div>
    </ResultCard>
  );
}
