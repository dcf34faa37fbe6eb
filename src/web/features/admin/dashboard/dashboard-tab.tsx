import type { ReactNode } from "react";
import { Link } from "wouter";
import { formatRandText } from "#domain/money.js";
import { orderNumber } from "#domain/order-status.js";
import { formatDate, formatRecentDateTime } from "#domain/sa-format.js";
import type { Dashboard } from "#domain/schemas/dashboard.js";
import { OrderStatusBadge } from "#web/components/ui/order-status-badge.js";
import { LowStockList } from "../catalog";
import { LaunchChecklistNote } from "../launch";
import { cancelReasonText } from "../orders";
import { EmptyState, LoadError, LoadingRows, Panel, SectionHeader, StatCard } from "../shared";
import { useAdminDashboard } from "./api/get-dashboard";
import { PlansFigures } from "./plans-figures";
import { RevenueChart } from "./revenue-chart";
import { StatusChart } from "./status-chart";

/** The Dashboard tab: every figure comes computed from GET /api/admin/dashboard (no orders are loaded here). */
export function DashboardTab() {
  const { data, isPending, isError, refetch } = useAdminDashboard();
  if (isPending) return <LoadingRows label="Loading the dashboard" />;
  if (isError) return <LoadError what="the dashboard" onRetry={() => refetch()} />;
  const { figures } = data;
  const waiting = `${figures.pendingOrders} waiting for payment`;
  return (
    <div className="grid gap-6">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard
          label="Total Orders"
          value={figures.totalOrders}
          hint={figures.cancelledOrders > 0 ? `${waiting}, ${figures.cancelledOrders} cancelled` : waiting}
        />
        <StatCard label="Paid Orders" value={figures.paidOrders} hint="Ready to ship" />
        <StatCard label="Shipped Orders" value={figures.shippedOrders} />
        <StatCard label="Total Revenue" value={formatRandText(figures.revenue)} hint="Paid and shipped orders" />
      </dl>
      <AttentionNote count={data.needsAttention} deliveryProblems={data.deliveryProblems} late={data.lateShipments} />
      <LaunchChecklistNote />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <RevenueChart days={data.revenueByDay} />
        <StatusChart statuses={data.ordersByStatus} />
      </div>
      <RecentOrders orders={data.recentOrders} />
      <PlansFigures plans={data.plans} />
      <LowStockList entries={data.lowStock} />
      <BackupNote backup={data.backup} />
      <ReleaseNote release={data.release} />
    </div>
  );
}

/** Which release runs, as /api/health says it: what to quote when asking for help or checking an upgrade. */
function ReleaseNote({ release }: { release: Dashboard["release"] }) {
  const revision = release.revision === "unknown" ? "revision unknown" : `revision ${release.revision.slice(0, 12)}`;
  return (
    <footer className="text-xs text-stone-600">
      Snug &amp; Dry {release.version} ({revision})
    </footer>
  );
}

/** The latest backup's outcome (docs/backups.md): when, which file and how big, or why it failed. */
function BackupNote({ backup }: { backup: Dashboard["backup"] }) {
  const { last, lastGoodAt, everyHours, minute } = backup;
  const every = everyHours === 1 ? "hour" : everyHours === 24 ? "day" : `${everyHours} hours`;
  const schedule =
    everyHours > 0
      ? `The shop backs up every ${every}, at ${minute} minutes past the hour (UTC).`
      : "The shop makes no backups itself (BACKUP_EVERY_HOURS=0).";
  let line: ReactNode;
  let failed = false;
  if (!last) {
    line = everyHours > 0 ? "No backup yet: the first is made within a minute of the shop starting." : "No backup yet.";
  } else if (last.error) {
    failed = true;
    line = (
      <>
        The last backup failed (<time dateTime={last.finishedAt}>{formatRecentDateTime(last.finishedAt)}</time>):{" "}
        {last.error}.{" "}
        {lastGoodAt ? (
          <>
            The last good one is from <time dateTime={lastGoodAt}>{formatRecentDateTime(lastGoodAt)}</time>.
          </>
        ) : (
          "There is no good backup yet."
        )}
      </>
    );
  } else {
    line = (
      <>
        Last backup <time dateTime={last.finishedAt}>{formatRecentDateTime(last.finishedAt)}</time>:{" "}
        <span className="break-all font-mono text-xs">{last.file}</span>
        {last.bytes !== null ? <span className="tabular"> ({formatBytes(last.bytes)})</span> : null}.
      </>
    );
  }
  return (
    <section aria-labelledby="backups">
      <SectionHeader id="backups" title="Backups" />
      <p
        className={
          failed
            ? "rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
            : "rounded-xl border border-stone-200 bg-white px-4 py-3 text-sm text-stone-700"
        }
      >
        {line} {schedule}
      </p>
      <CopyNote copy={backup.copy} />
    </section>
  );
}

/** The off-site copy's outcome (BACKUP_S3_URL): when, which object, or why it failed. */
function CopyNote({ copy }: { copy: Dashboard["backup"]["copy"] }) {
  const { configured, last, lastGoodAt } = copy;
  const failed = configured && last?.error != null;
  let line: ReactNode;
  if (!configured) {
    line = "Backups stay on this machine: set BACKUP_S3_URL to copy each one to a bucket elsewhere.";
  } else if (!last) {
    line = "No backup has been copied off the machine yet: each new backup is copied to the bucket (BACKUP_S3_URL).";
  } else if (last.error) {
    line = (
      <>
        The off-site copy failed (<time dateTime={last.finishedAt}>{formatRecentDateTime(last.finishedAt)}</time>,{" "}
        <span className="break-all font-mono text-xs">{last.key}</span>): {last.error}.{" "}
        {lastGoodAt ? (
          <>
            The last good copy is from <time dateTime={lastGoodAt}>{formatRecentDateTime(lastGoodAt)}</time>.
          </>
        ) : (
          "No copy has succeeded yet."
        )}
      </>
    );
  } else {
    line = (
      <>
        Copied off the machine <time dateTime={last.finishedAt}>{formatRecentDateTime(last.finishedAt)}</time>:{" "}
        <span className="break-all font-mono text-xs">{last.key}</span>.
      </>
    );
  }
  return (
    <p
      className={
        failed
          ? "mt-2 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
          : "mt-2 rounded-xl border border-stone-200 bg-white px-4 py-3 text-sm text-stone-700"
      }
    >
      {line}
    </p>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function AttentionNote({
  count,
  deliveryProblems,
  late,
}: {
  count: number;
  deliveryProblems: number;
  late: Dashboard["lateShipments"];
}) {
  if (count === 0 && late.length === 0) {
    return (
      <p className="rounded-xl border border-stone-200 bg-white px-4 py-3 text-sm text-stone-700">
        No orders need attention.
      </p>
    );
  }
  return (
    <section
      aria-label="Needs attention"
      className="grid gap-2 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      {count > 0 && (
        <p>
          <span className="tabular font-bold">{count}</span> {count === 1 ? "item needs" : "items need"} attention: see{" "}
          <Link href="/admin?tab=payments#needs-attention" className="font-semibold underline">
            Needs attention
          </Link>{" "}
          in Payment Verification.
        </p>
      )}
      {deliveryProblems > 0 && (
        <p>
          Of them, <span className="tabular font-bold">{deliveryProblems}</span>{" "}
          {deliveryProblems === 1 ? "is a delivery problem" : "are delivery problems"} (a failed attempt, a parcel not
          collected, returned or lost).
        </p>
      )}
      {late.length > 0 && (
        <div>
          <p className="font-semibold">
            Paid but not shipped for 25 days or more: the law gives 30 days to deliver (ECTA s46).
          </p>
          <ul className="mt-1 grid gap-1">
            {late.map((order) => (
              <li key={order.orderId}>
                <Link href={`/admin/orders/${order.orderId}`} className="font-semibold underline">
                  Order #{orderNumber(order.orderId)}
                </Link>{" "}
                · paid <time dateTime={order.paidAt}>{formatRecentDateTime(order.paidAt)}</time> · ship by{" "}
                <time dateTime={order.shipBy}>{formatDate(`${order.shipBy}T12:00:00+02:00`)}</time>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function RecentOrders({ orders }: { orders: Dashboard["recentOrders"] }) {
  return (
    <section aria-labelledby="recent-orders">
      <SectionHeader id="recent-orders" title="Recent Orders" />
      {orders.length === 0 ? (
        <EmptyState title="No orders yet">New orders show here as soon as shoppers check out.</EmptyState>
      ) : (
        <Panel>
          <ul className="divide-y divide-stone-100">
            {orders.map((order) => (
              <li
                key={order.id}
                className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 px-4 py-3 text-sm md:grid-cols-[6.5rem_minmax(0,1fr)_7.5rem_6.5rem_10.5rem]"
              >
                <span className="font-semibold text-stone-900">#{orderNumber(order.id)}</span>
                <span className="tabular text-right font-semibold md:order-4">{formatRandText(order.total)}</span>
                <span className="min-w-0 truncate text-stone-700 md:order-2">{order.customerEmail}</span>
                <time className="text-right text-stone-600 md:order-3 md:text-left" dateTime={order.createdAt}>
                  {formatRecentDateTime(order.createdAt)}
                </time>
                <div className="col-span-2 md:order-5 md:col-span-1">
                  <OrderStatusBadge status={order.status} />
                  {cancelReasonText(order) && <p className="mt-1 text-xs text-stone-600">{cancelReasonText(order)}</p>}
                </div>
              </li>
            ))}
          </ul>
        </Panel>
      )}
    </section>
  );
}
