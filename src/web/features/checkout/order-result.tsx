import { useEffect } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { orderNumber } from "../../lib/format";
import { useCart } from "../cart/cart-context";
import { sendConversion } from "./ad-conversion";
import { useOrder } from "./use-order";

/**
 * /success and /thank-you: Payment Successful once the server has the order as paid (PayFast's
 * notification is the proof, not the return to this page). The cart is cleared only then.
 */
export function PaymentResult({ trackConversion }: { trackConversion: boolean }) {
  const orderId = new URLSearchParams(useSearch()).get("orderId");
  const [, navigate] = useLocation();
  const cart = useCart();
  const { data: order, isLoading, error } = useOrder(orderId, { waitForPayment: true });
  const paid = order?.status === "completed" || order?.status === "processed";

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

  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-16">
      <div className="rounded-3xl border border-stone-200 bg-white p-6 text-center shadow-sm sm:p-10">
        {error ? (
          <>
            <h1 className="text-2xl font-bold">We could not find this order</h1>
            <p className="mt-2 text-stone-600">
              Please log in with the account you ordered with, or contact us with your order number.
            </p>
          </>
        ) : isLoading || !order || !paid ? (
          <div role="status" aria-live="polite">
            <Spinner />
            <h1 className="mt-4 text-2xl font-bold">Confirming your payment...</h1>
            <p className="mt-2 text-stone-600">
              {order && !isLoading
                ? "PayFast has not confirmed this payment yet. This page updates by itself; if it takes more than a few minutes, contact us with your order number."
                : "This takes a moment."}
            </p>
            <p className="mt-4 text-sm text-stone-600">Order number: {orderNumber(orderId)}</p>
          </div>
        ) : (
          <>
            <div className="mx-auto grid size-16 place-items-center rounded-full bg-brand-100 text-brand-800">
              <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true">
                <path
                  d="M5 12.5l4.5 4.5L19 7.5"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2.5"
                  strokeLinecap="round"
                />
              </svg>
            </div>
            <h1 className="mt-4 text-2xl font-bold sm:text-3xl">Payment Successful</h1>
            <p className="mt-2 text-stone-700">
              Thank you! Your order number is <strong className="tabular">{orderNumber(order.id)}</strong>.
            </p>
            <p className="mt-1 inline-block rounded-full bg-blue-50 px-3 py-1 text-sm font-medium text-blue-900">
              Order Processing
            </p>
            <div className="mt-6 rounded-2xl bg-stone-50 p-5 text-left">
              <h2 className="font-semibold">What happens next</h2>
              <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-stone-700">
                <li>Orders are processed within 24 hours.</li>
                <li>Your order is delivered by courier in 2-5 business days.</li>
                <li>We send updates to {order.customerEmail}.</li>
              </ul>
            </div>
          </>
        )}
        <Link
          href="/"
          className="mt-8 inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          Continue Shopping
        </Link>
      </div>
    </div>
  );
}

function Spinner() {
  return (
    <svg viewBox="0 0 24 24" width="40" height="40" className="mx-auto animate-spin text-brand-700" aria-hidden="true">
      <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" />
      <path d="M22 12a10 10 0 0 0-10-10" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
