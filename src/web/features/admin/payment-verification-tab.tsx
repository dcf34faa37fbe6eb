import { useConfirmPayment } from "./api/confirm-payment";
import { usePreparingOrders } from "./api/get-preparing-orders";
import { OrderCard } from "./order-card";
import { Button, EmptyState, LoadError, LoadingRows, SectionHeader } from "./ui";

export function PaymentVerificationTab() {
  const { data: orders, isPending, isError, refetch, isFetching } = usePreparingOrders();
  const confirm = useConfirmPayment();

  return (
    <section aria-labelledby="payment-verification">
      <SectionHeader
        id="payment-verification"
        title="Payment Verification"
        description="Orders placed but not yet paid. Confirm a payment once it shows in the bank account. This list checks for new orders every 30 seconds."
        action={
          <Button variant="secondary" onClick={() => refetch()} disabled={isFetching}>
            {isFetching ? "Refreshing..." : "Refresh"}
          </Button>
        }
      />
      {isPending ? (
        <LoadingRows label="Loading orders waiting for payment" />
      ) : isError ? (
        <LoadError what="the orders waiting for payment" onRetry={() => refetch()} />
      ) : orders.length === 0 ? (
        <EmptyState title="No payments to verify">Every order placed so far has been paid.</EmptyState>
      ) : (
        <div className="grid gap-3">
          {orders.map((order) => {
            const busy = confirm.isPending && confirm.variables === order.id;
            return (
              <OrderCard
                key={order.id}
                order={order}
                action={
                  <Button onClick={() => confirm.mutate(order.id)} disabled={confirm.isPending}>
                    {busy ? "Confirming..." : "Confirm Payment"}
                  </Button>
                }
              />
            );
          })}
        </div>
      )}
    </section>
  );
}
