import { useIsFetching, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { Button } from "#web/components/ui/button.js";
import { OrderCard, OrderSearch } from "../orders";
import { adminKeys, EmptyState, LoadError, LoadingRows, LoadMore, SectionHeader } from "../shared";
import { useCheckPayfast } from "./api/check-payfast";
import { useConfirmPayment } from "./api/confirm-payment";
import { usePreparingOrders } from "./api/get-preparing-orders";
import { AttentionList } from "./attention-list";

export function PaymentVerificationTab() {
  const [q, setQ] = useState("");
  const onSearch = useCallback((text: string) => setQ(text), []);
  const {
    data: orders,
    isPending,
    isError,
    refetch,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage,
  } = usePreparingOrders({ q: q || undefined });
  const queryClient = useQueryClient();
  // Both lists of this tab sit under ["admin", "payments"].
  const refreshing = useIsFetching({ queryKey: adminKeys.payments() }) > 0;
  const refreshAll = () => queryClient.refetchQueries({ queryKey: adminKeys.payments() });
  const confirm = useConfirmPayment();
  const check = useCheckPayfast();
  const working = confirm.isPending || check.isPending;

  return (
    <section aria-labelledby="payment-verification">
      <SectionHeader
        id="payment-verification"
        title="Payment Verification"
        description="Payments that need a look, and orders placed but not yet paid. Check with PayFast before confirming a payment by hand. These lists refresh every 30 seconds."
        action={
          <Button variant="outline" onClick={refreshAll} disabled={refreshing}>
            {refreshing ? "Refreshing..." : "Refresh"}
          </Button>
        }
      />
      <AttentionList />

      <section aria-labelledby="waiting-for-payment">
        <h3 id="waiting-for-payment" className="mb-3 flex items-baseline gap-2 text-base font-bold text-stone-900">
          Waiting for payment
          {orders && orders.length > 0 && (
            <span className="text-sm font-normal text-stone-600">
              ({orders.length}
              {hasNextPage ? "+" : ""} {orders.length === 1 ? "order" : "orders"})
            </span>
          )}
        </h3>
        <OrderSearch onSearch={onSearch} className="mb-3 max-w-md" />
        {isPending ? (
          <LoadingRows label="Loading orders waiting for payment" />
        ) : isError ? (
          <LoadError what="the orders waiting for payment" onRetry={() => refetch()} />
        ) : orders.length === 0 ? (
          <EmptyState title={q ? "No waiting orders match" : "No payments to verify"}>
            {q
              ? "Check the order number or try part of the e-mail, name or phone."
              : "Orders show here from checkout until their payment is confirmed."}
          </EmptyState>
        ) : (
          <div className="grid gap-3">
            {orders.map((order) => {
              const confirming = confirm.isPending && confirm.variables === order.id;
              const checking = check.isPending && check.variables === order.id;
              return (
                <OrderCard
                  key={order.id}
                  order={order}
                  headingLevel="h4"
                  action={
                    <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
                      <Button variant="outline" onClick={() => check.mutate(order.id)} disabled={working}>
                        {checking ? "Checking..." : "Check with PayFast"}
                      </Button>
                      <Button onClick={() => confirm.mutate(order.id)} disabled={working}>
                        {confirming ? "Confirming..." : "Confirm Payment"}
                      </Button>
                    </div>
                  }
                />
              );
            })}
            <LoadMore
              shown={orders.length}
              noun={["order", "orders"]}
              hasNextPage={hasNextPage}
              isFetchingNextPage={isFetchingNextPage}
              fetchNextPage={fetchNextPage}
            />
          </div>
        )}
      </section>
    </section>
  );
}
