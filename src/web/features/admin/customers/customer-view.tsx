import { useState } from "react";
import { formatRandText } from "#domain/money.js";
import { formatDate } from "#domain/sa-format.js";
import { Button } from "#web/components/ui/button.js";
import { useSession } from "../../account";
import { OrderCard } from "../orders";
import { EmptyState, LoadError, LoadingRows, StatCard } from "../shared";
import { AccountAccess } from "./account-access";
import { AdminRightsDialog } from "./admin-rights-dialog";
import { useAdminUser, useAdminUserOrders } from "./api/get-user";
import { useSetAdmin } from "./api/set-admin";
import { SecondFactorReset } from "./second-factor-reset";

/** A customer's page in the Users tab: their details, figures, orders, and making or removing an admin. */
export function CustomerView({ id, onBack }: { id: string; onBack: () => void }) {
  const { data: customer, isPending, isError, refetch } = useAdminUser(id);
  const { userId } = useSession();
  const setAdmin = useSetAdmin();
  const [confirming, setConfirming] = useState(false);
  const back = (
    <Button variant="ghost" onClick={onBack} className="mb-3">
      ← All customers
    </Button>
  );
  if (isPending) return <LoadingRows label="Loading the customer" />;
  if (isError) {
    return (
      <>
        {back}
        <LoadError what="this customer" onRetry={() => refetch()} />
      </>
    );
  }
  const isAdmin = customer.isAdmin === "true";
  const self = customer.id === userId;
  return (
    <section aria-labelledby="customer-heading">
      {back}
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="customer-heading" className="text-lg font-bold text-stone-900">
            {customer.fullName}
            {customer.closedAt && (
              <span className="ml-2 rounded-full bg-stone-200 px-2 py-0.5 align-middle text-xs font-semibold text-stone-800">
                Closed
              </span>
            )}
            {isAdmin && (
              <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 align-middle text-xs font-semibold text-brand-900">
                Admin
              </span>
            )}
            {customer.disabled && (
              <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 align-middle text-xs font-semibold text-red-900">
                Disabled
              </span>
            )}
          </h2>
          {customer.closedAt ? (
            <p className="mt-1 max-w-prose text-sm text-stone-700">
              The customer closed this account on {formatDate(customer.closedAt)}: their name, e-mail, phone and address
              were removed. Their orders and invoices are kept for the tax records.
            </p>
          ) : (
            <p className="text-sm text-stone-600">
              @{customer.username} · {customer.email}
              {customer.phone && ` · ${customer.phone}`}
            </p>
          )}
          {(customer.address || customer.city) && (
            <p className="text-sm text-stone-600">
              {[customer.address, customer.city, customer.zipCode].filter(Boolean).join(", ")}
            </p>
          )}
        </div>
        {customer.closedAt ? null : self ? (
          <p className="max-w-xs text-sm text-stone-600">This is you. Another admin can change your admin rights.</p>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button variant={isAdmin ? "danger-outline" : "outline"} onClick={() => setConfirming(true)}>
              {isAdmin ? "Remove admin rights" : "Make admin"}
            </Button>
            <AccountAccess customer={customer} />
            <SecondFactorReset customer={customer} />
          </div>
        )}
      </div>
      <dl className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-3">
        <StatCard label="Orders" value={customer.orderCount} />
        <StatCard label="Spent" value={formatRandText(customer.spent)} hint="Paid and shipped orders" />
        <StatCard label="Customer since" value={formatDate(customer.createdAt)} />
      </dl>
      <CustomerOrders id={id} />
      <AdminRightsDialog
        customer={customer}
        open={confirming}
        onOpenChange={setConfirming}
        pending={setAdmin.isPending}
        onConfirm={() =>
          setAdmin.mutate({ id: customer.id, isAdmin: !isAdmin }, { onSettled: () => setConfirming(false) })
        }
      />
    </section>
  );
}

function CustomerOrders({ id }: { id: string }) {
  const {
    data: orders,
    isPending,
    isError,
    refetch,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage,
  } = useAdminUserOrders(id);
  return (
    <section aria-labelledby="customer-orders">
      <h3 id="customer-orders" className="mb-3 font-bold text-stone-900">
        Their orders
      </h3>
      {isPending ? (
        <LoadingRows label="Loading their orders" />
      ) : isError ? (
        <LoadError what="their orders" onRetry={() => refetch()} />
      ) : orders.length === 0 ? (
        <EmptyState title="No orders yet" />
      ) : (
        <div className="grid gap-3">
          {orders.map((order) => (
            <OrderCard key={order.id} order={order} action={null} headingLevel="h4" />
          ))}
          {hasNextPage && (
            <Button
              variant="outline"
              onClick={() => fetchNextPage()}
              disabled={isFetchingNextPage}
              className="justify-self-start"
            >
              {isFetchingNextPage ? "Loading..." : "Load more orders"}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
