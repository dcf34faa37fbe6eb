import { Link, useSearch } from "wouter";
import { orderNumber } from "../../lib/format";

/** PayFast's cancel_url: nothing was charged and the cart is kept for another try. */
export default function CancelPage() {
  const orderId = new URLSearchParams(useSearch()).get("orderId");
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-16">
      <div className="rounded-3xl border border-stone-200 bg-white p-6 text-center shadow-sm sm:p-10">
        <div className="mx-auto grid size-16 place-items-center rounded-full bg-amber-100 text-amber-900">
          <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true">
            <path d="M7 7l10 10M17 7L7 17" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
        </div>
        <h1 className="mt-4 text-2xl font-bold sm:text-3xl">Payment Cancelled</h1>
        {orderId && (
          <p className="mt-2 text-stone-700">
            Order number: <strong className="tabular">{orderNumber(orderId)}</strong>
          </p>
        )}
        <p className="mt-1 inline-block rounded-full bg-amber-50 px-3 py-1 text-sm font-medium text-amber-900">
          Status: Cancelled
        </p>
        <p className="mt-4 text-stone-700">
          Nothing was charged. Your cart has been kept, so you can try again whenever you are ready.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link
            href="/checkout"
            className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            Retry Payment
          </Link>
          <Link
            href="/"
            className="inline-flex min-h-11 items-center justify-center rounded-lg border border-stone-300 px-5 py-2.5 font-semibold text-stone-800 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            Continue Shopping
          </Link>
        </div>
      </div>
    </div>
  );
}
