import type { ReactNode } from "react";
import { Link } from "wouter";
import { orderNumber } from "#domain/order-status.js";
import { formatDateTime } from "#domain/sa-format.js";
import type { AdminOrderDetail } from "#domain/schemas/admin-orders.js";
import { EMAIL_KIND_LABELS } from "#domain/schemas/emails.js";
import { OrderStatusBadge } from "#web/components/ui/order-status-badge.js";
import { ApiError } from "#web/lib/api.js";
import { usePageTitle } from "#web/lib/use-page-title.js";
import { ActivityEntry } from "../activity";
import { EmailStatusBadge } from "../emails";
import { EmptyState, LoadError, LoadingRows, Panel } from "../shared";
import { useAdminOrder } from "./api/get-order";
import { OrderActions } from "./order-actions";
import { OrderCard } from "./order-card";
import { OrderDocuments, OrderLineVat } from "./order-documents";
import { OrderShipment } from "./order-shipment";
import { PAID_BY_LABELS, paymentOutcomeLabel, paymentOutcomeTone } from "./payment-outcomes";
import { OrderReturnRequests } from "./requests-tab";

const TONE_CLASSES = { good: "text-green-800", warn: "text-amber-900 font-semibold", plain: "text-stone-700" };

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-2">
      <h2 id={id} className="text-base font-bold text-stone-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Customer({ detail }: { detail: AdminOrderDetail }) {
  const { customer, order } = detail;
  return (
    <Panel className="p-4 text-sm text-stone-800">
      {customer?.closedAt ? (
        <p>
          The customer closed their account on {formatDateTime(customer.closedAt)}; its details were removed. The order
          and its invoice are kept for the tax records, with the delivery details given at checkout.
        </p>
      ) : customer ? (
        <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 gap-y-1">
          <dt className="text-stone-600">Name</dt>
          <dd>{customer.fullName}</dd>
          <dt className="text-stone-600">Username</dt>
          <dd className="break-all">{customer.username}</dd>
          <dt className="text-stone-600">E-mail</dt>
          <dd className="break-all">{customer.email}</dd>
          <dt className="text-stone-600">Phone</dt>
          <dd>{customer.phone || "Not given"}</dd>
        </dl>
      ) : (
        <p>
          Checked out without an account (or the account was deleted). E-mail on the order:{" "}
          <span className="break-all">{order.customerEmail}</span>
        </p>
      )}
      {detail.anonymisedAt && (
        <p className="mt-3 border-t border-stone-100 pt-3 text-stone-700">
          Delivery details anonymised on {formatDateTime(detail.anonymisedAt)}: the order is past the time the shop
          keeps them (RETENTION_YEARS).
        </p>
      )}
      <p className="mt-3 border-t border-stone-100 pt-3 text-stone-700">
        {detail.paidBy ? `Paid through ${PAID_BY_LABELS[detail.paidBy]}` : "Not paid"}
        {order.paidAt && <> on {formatDateTime(order.paidAt)}</>}
        {detail.shippedAt && <>; shipped on {formatDateTime(detail.shippedAt)}</>}.
      </p>
    </Panel>
  );
}

function Payments({ detail }: { detail: AdminOrderDetail }) {
  if (detail.payments.length === 0) {
    return <EmptyState title="No payment notifications">PayFast has not told the shop about this order.</EmptyState>;
  }
  return (
    <Panel>
      <ul aria-label="Payment notifications" className="divide-y divide-stone-100">
        {detail.payments.map((payment) => (
          <li key={payment.id} className="grid gap-1 px-4 py-3 text-sm sm:grid-cols-[11rem_minmax(0,1fr)_auto]">
            <time dateTime={payment.receivedAt} className="text-stone-600">
              {formatDateTime(payment.receivedAt)}
            </time>
            <div>
              <p className={TONE_CLASSES[paymentOutcomeTone(payment.outcome)]}>
                {paymentOutcomeLabel(payment.outcome)}
              </p>
              <p className="text-stone-600">
                {payment.via === "reconcile" ? "Found in PayFast's transaction history" : "PayFast's notification"}
                {payment.paymentStatus && <> · {payment.paymentStatus}</>}
                {payment.pfPaymentId && <> · PayFast id {payment.pfPaymentId}</>}
              </p>
              {payment.reason && <p className="text-stone-600">{payment.reason}</p>}
            </div>
            <span className="tabular font-semibold text-stone-900 sm:text-right">
              {payment.amountGross ? `R${payment.amountGross}` : ""}
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

function Emails({ detail }: { detail: AdminOrderDetail }) {
  if (detail.emails.length === 0) {
    return <EmptyState title="No e-mails yet">The confirmation is written when the order is paid.</EmptyState>;
  }
  return (
    <Panel>
      <ul aria-label="E-mails about this order" className="divide-y divide-stone-100">
        {detail.emails.map((email) => (
          <li key={email.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
            <div className="min-w-0">
              <p className="font-semibold text-stone-900">{EMAIL_KIND_LABELS[email.kind]}</p>
              <p className="break-all text-stone-600">
                To {email.to} · {formatDateTime(email.sentAt ?? email.createdAt)}
              </p>
            </div>
            <EmailStatusBadge status={email.status} />
          </li>
        ))}
      </ul>
    </Panel>
  );
}

function Activity({ detail }: { detail: AdminOrderDetail }) {
  if (detail.activity.length === 0) {
    return <p className="text-sm text-stone-700">No one has acted on this order yet.</p>;
  }
  return (
    <Panel>
      <ul aria-label="What was done to this order" className="divide-y divide-stone-100">
        {detail.activity.map((entry) => (
          <li key={entry.id}>
            <ActivityEntry entry={entry} />
          </li>
        ))}
      </ul>
    </Panel>
  );
}

/** /admin/orders/{id}: one order with everything needed to answer its customer, and its actions. */
export default function OrderPage({ id }: { id: string }) {
  const { data: detail, isPending, isError, error, refetch } = useAdminOrder(id);
  usePageTitle(`Order #${orderNumber(id)}`);
  return (
    <div className="mx-auto grid max-w-4xl gap-5 px-4 py-6 sm:py-8">
      <nav>
        <Link
          href="/admin?tab=orders"
          className="text-sm font-semibold text-brand-800 underline-offset-2 hover:underline"
        >
          ← Back to orders
        </Link>
      </nav>
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-stone-900">Order #{orderNumber(id)}</h1>
        {detail && <OrderStatusBadge status={detail.order.status} />}
      </header>
      {isPending ? (
        <LoadingRows label="Loading the order" />
      ) : isError ? (
        error instanceof ApiError && (error.code === "NOT_FOUND" || error.code === "VALIDATION_FAILED") ? (
          <EmptyState title="No such order">Check the order number, or find it on the Orders tab.</EmptyState>
        ) : (
          <LoadError what="the order" onRetry={() => refetch()} />
        )
      ) : (
        <>
          <OrderCard
            order={detail.order}
            headingLevel="h2"
            linked={false}
            action={<OrderActions order={detail.order} />}
          />
          <Section id="order-delivery" title="Delivery">
            <OrderShipment order={detail.order} />
          </Section>
          <Section id="order-vat" title="VAT per line">
            <OrderLineVat detail={detail} />
          </Section>
          <Section id="order-documents" title="Invoices and credit notes">
            <OrderDocuments detail={detail} />
          </Section>
          <Section id="order-requests" title="Returns and complaints">
            <OrderReturnRequests orderId={id} />
          </Section>
          <Section id="order-customer" title="Customer">
            <Customer detail={detail} />
          </Section>
          <Section id="order-payments" title="Payment notifications">
            <Payments detail={detail} />
          </Section>
          <Section id="order-emails" title="E-mails sent">
            <Emails detail={detail} />
          </Section>
          <Section id="order-activity" title="Activity">
            <Activity detail={detail} />
          </Section>
        </>
      )}
    </div>
  );
}
