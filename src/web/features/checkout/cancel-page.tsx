import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Link, useSearch } from "wouter";
import type { Order } from "#domain/schemas/orders.js";
import { buttonClass } from "#web/components/ui/button.js";
import { ApiError } from "#web/lib/api.js";
import { orderNumber } from "#web/lib/format.js";
import { useSession } from "../account";
import { useCart } from "../cart";
import { useCancelOrder } from "./api/cancel-order";
import { orderQueryOptions } from "./api/get-order";
import {
  ContinueShoppingLink,
  OrderNumberLine,
  ResultCard,
  ResultIcon,
  RetryPaymentLink,
  Spinner,
  StatusPill,
} from "./result-views";

const isPaid = (order: Order | undefined) => order?.status === "completed" || order?.status === "processed";

/**
 * PayFast's cancel_url. A signed-in shopper's pending order is cancelled here, once, so the stock it
 * held is for sale again; the cart is kept for another try. When PayFast took the payment before
 * the cancel arrived, the page says the order is paid instead.
 */
export default function CancelPage() {
  const orderId = new URLSearchParams(useSearch()).get("orderId");
  const { user, restoring } = useSession();
  const { mutate: cancel, isIdle, isPending, error } = useCancelOrder();
  const signedIn = user !== null;

  // Once per order id: StrictMode runs this effect twice, and the ref outlives that.
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (!orderId || !signedIn || asked.current === orderId) return;
    asked.current = orderId;
    cancel(orderId);
  }, [orderId, signedIn, cancel]);

  // Not pending any more: paid meanwhile, or cancelled already (a reload, or it expired).
  const notPending = error instanceof ApiError && error.code === "ORDER_STATUS_CONFLICT";
  const current = useQuery(orderQueryOptions(notPending ? orderId : null));

  const cart = useCart();
  const paid = isPaid(current.data);
  const clearCart = cart.clear;
  useEffect(() => {
    if (paid) clearCart();
  }, [paid, clearCart]);

  if (orderId && (restoring || (signedIn && (isIdle || isPending)) || (notPending && current.isPending))) {
    return (
      <ResultCard actions={<ContinueShoppingLink />}>
        <Spinner />
        <h1 className="mt-4 text-balance text-2xl font-bold">Cancelling your order...</h1>
        <OrderNumberLine number={orderNumber(orderId)} />
      </ResultCard>
    );
  }
  if (orderId && paid) return <PaidMeanwhile orderId={orderId} />;
  return <Cancelled orderId={orderId} />;
}

function Cancelled({ orderId }: { orderId: string | null }) {
  return (
    <ResultCard
      actions={
        <>
          <RetryPaymentLink />
          <ContinueShoppingLink />
        </>
      }
    >
      <ResultIcon shape="cross" tone="amber" />
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">Payment Cancelled</h1>
      {orderId && (
        <p className="mt-2 text-stone-700">
          Order number: <strong className="tabular">{orderNumber(orderId)}</strong>
        </p>
      )}
      <StatusPill tone="amber">Status: Cancelled</StatusPill>
      <p className="mt-4 text-stone-700">
        Nothing was charged. Your cart has been kept, so you can try again whenever you are ready.
      </p>
    </ResultCard>
  );
}

function PaidMeanwhile({ orderId }: { orderId: string }) {
  return (
    <ResultCard
      actions={
        <>
          <Link href={`/success?orderId=${encodeURIComponent(orderId)}`} className={buttonClass({ size: "lg" })}>
            View your order
          </Link>
          <ContinueShoppingLink />
        </>
      }
    >
      <ResultIcon shape="check" tone="brand" />
      <h1 className="mt-4 text-balance text-2xl font-bold sm:text-3xl">Your payment went through</h1>
      <StatusPill tone="brand">Status: Paid</StatusPill>
      <p className="mt-4 text-stone-700">
        PayFast took your payment before the cancellation reached us, so this order is paid and we are getting it ready.
        There is no need to pay again.
      </p>
      <OrderNumberLine number={orderNumber(orderId)} />
    </ResultCard>
  );
}
