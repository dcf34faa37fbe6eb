import path from "node:path";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { centsToDecimal } from "#domain/money.js";
import { ORDER_STATUSES, type OrderStatus, PAID_STATUSES } from "#domain/order-status.js";
import { LATE_SHIPMENT_ALERT_DAYS, shipByDay } from "#domain/returns.js";
import { SA_TIME_ZONE } from "#domain/sa-format.js";
import { type Dashboard, dashboard } from "#domain/schemas/dashboard.js";
import { ITN_ATTENTION_OUTCOMES, ITN_FLAGGED_OUTCOMES } from "#domain/schemas/payments.js";
import { LOW_STOCK_LIMIT } from "#domain/stock.js";
import { ATTENTION_STATES } from "#domain/tracking.js";
import { statusList } from "../orders/status.js";
import { PENDING_TOO_LONG } from "../payments/admin-payments.js";
import { dashboardPlanFigures } from "../plans/admin-queries.js";
import { latestBackups, latestCopies } from "../platform/backup/daily.js";
import { buildInfo } from "../platform/build-info.js";
import type { Database } from "../platform/db/client.js";

const REVENUE_DAYS = 30;
const RECENT_ORDERS = 5;
/** Each kind of "Needs attention" item is counted up to this: the figure says "act now", not an exact backlog. */
export const ATTENTION_COUNT_CAP = 1000;
const COUNT_CAP = ATTENTION_COUNT_CAP;

/** Both halves of the counters (migration 0006): what is folded, and what changed since. */
const counters = sql`(
  select day, status, orders, total_cents from order_stats
  union all
  select day, status, orders, total_cents from order_stat_changes
) as counters`;

const PAID = statusList(PAID_STATUSES);

/**
 * What was given back of orders still counted as paid (partly refunded ones; a fully refunded
 * order is `refunded` and out of the revenue already), in all and per day of placing.
 */
async function partlyRefunded(db: Database): Promise<{ totalCents: number; byDay: Map<string, number> }> {
  const { rows } = await db.execute<{ day: string; cents: string }>(sql`
    select ((o.created_at at time zone ${SA_TIME_ZONE})::date)::text as day, sum(r.amount_cents)::bigint as cents
    from refunds r join orders o on o.id = r.order_id
    where r.status = 'completed' and o.status in ${PAID}
    group by 1`);
  const byDay = new Map(rows.map((row) => [row.day, Number(row.cents)]));
  return { totalCents: [...byDay.values()].reduce((sum, cents) => sum + cents, 0), byDay };
}

async function figures(db: Database, refunded: { totalCents: number }) {
  const { rows } = await db.execute<{ status: string; orders: number; cents: string }>(sql`
    select status, sum(orders)::int as orders, sum(total_cents)::bigint as cents from ${counters} group by status`);
  const byStatus = new Map(rows.map((row) => [row.status, row]));
  const count = (status: OrderStatus) => byStatus.get(status)?.orders ?? 0;
  const revenueCents =
    PAID_STATUSES.reduce((sum, status) => sum + Number(byStatus.get(status)?.cents ?? 0), 0) - refunded.totalCents;
  return {
    figures: {
      totalOrders: rows.reduce((sum, row) => sum + row.orders, 0),
      paidOrders: count("completed"),
      shippedOrders: count("processed"),
      pendingOrders: count("pending"),
      cancelledOrders: count("cancelled"),
      revenue: centsToDecimal(revenueCents),
    },
    ordersByStatus: ORDER_STATUSES.map((status) => ({ status, orders: count(status) })),
  };
}

/** The last 30 days of the shop's calendar, each with the orders placed that day that are paid now. */
async function revenueByDay(
  db: Database,
  refunded: { byDay: Map<string, number> },
): Promise<Dashboard["revenueByDay"]> {
  const { rows } = await db.execute<{ day: string; orders: number; cents: string }>(sql`
    with days as (
      select generate_series((today - ${REVENUE_DAYS - 1}::int)::timestamp, today::timestamp, interval '1 day')::date as day
      from (select (now() at time zone ${SA_TIME_ZONE})::date as today) as shop
    )
    select days.day::text as day, coalesce(sum(counters.orders), 0)::int as orders,
      coalesce(sum(counters.total_cents), 0)::bigint as cents
    from days left join ${counters} on counters.day = days.day and counters.status in ${PAID}
    group by days.day order by days.day`);
  return rows.map((row) => ({
    day: row.day,
    orders: row.orders,
    revenue: centsToDecimal(Number(row.cents) - (refunded.byDay.get(row.day) ?? 0)),
  }));
}

async function lowStock(db: Database): Promise<Dashboard["lowStock"]> {
  const { rows } = await db.execute<{
    product_id: string;
    name: string;
    size: string;
    units_left: number;
    held: number;
  }>(sql`
    select s.product_id, p.name, s.size, greatest(s.quantity - s.held, 0)::int as units_left, s.held
    from product_stock s join products p on p.id = s.product_id
    where s.quantity - s.held <= ${LOW_STOCK_LIMIT}
    order by units_left, p.name,
      (select sizes.ord from jsonb_array_elements_text(p.sizes) with ordinality as sizes(size, ord) where sizes.size = s.size)`);
  return rows.map((row) => ({
    productId: row.product_id,
    productName: row.name,
    size: row.size,
    left: row.units_left,
    held: row.held,
  }));
}

/**
 * Parcels in trouble (a failed attempt, not collected, returned, lost: ATTENTION_STATES) that no admin
 * has marked resolved: each is an item of Needs attention (payments/admin-payments.ts, `shipment-<id>`).
 */
async function deliveryProblems(db: Database): Promise<number> {
  const states = sql.join(
    ATTENTION_STATES.map((state) => sql`${state}`),
    sql`, `,
  );
  const { rows } = await db.execute<{ count: number }>(sql`
    select count(*)::int as count from (
      select 1 from shipments where state in (${states}) and attention_resolved_at is null limit ${COUNT_CAP}) as problems`);
  return rows[0]?.count ?? 0;
}

/**
 * As many as Payment Verification's "Needs attention" lists (payments/admin-payments.ts): problems reaching
 * PayFast, flagged payments not resolved, orders pending too long (delivery problems are added by the route).
 */
async function needsAttention(db: Database): Promise<number> {
  const booked = sql.join(
    ["accepted", ...ITN_FLAGGED_OUTCOMES].map((outcome) => sql`${outcome}`),
    sql`, `,
  );
  const outcomes = sql.join(
    ITN_ATTENTION_OUTCOMES.map((outcome) => sql`${outcome}`),
    sql`, `,
  );
  const { rows } = await db.execute<{ count: number }>(sql`
    select (select count(*) from (
        select 1 from payfast_itns p where resolved_at is null and outcome in (${outcomes})
          and (outcome not in ('unconfirmed', 'source_refused') or not exists (
            select 1 from payfast_itns booked where booked.pf_payment_id = p.pf_payment_id and booked.outcome in (${booked})))
          limit ${COUNT_CAP}) as flagged)::int
      + (select count(*) from payfast_problems where cleared_at is null)::int
      + (select count(*) from (
        select 1 from orders where status = 'pending' and created_at < now() - ${PENDING_TOO_LONG}::interval
        limit ${COUNT_CAP}) as waiting)::int
      as count`);
  return rows[0]?.count ?? 0;
}

/** The most late shipments listed: the alert e-mails name each one as well. */
const LATE_SHIPMENTS_LISTED = 50;

/** ECTA s46: paid orders not shipped LATE_SHIPMENT_ALERT_DAYS after payment, with the last day to ship. */
async function lateShipments(db: Database): Promise<Dashboard["lateShipments"]> {
  const { rows } = await db.execute<{ id: string; paid_at: Date | string; customer_email: string }>(sql`
    select id, paid_at, customer_email from orders
    where status = 'completed' and paid_at < now() - make_interval(days => ${LATE_SHIPMENT_ALERT_DAYS})
    order by paid_at limit ${LATE_SHIPMENTS_LISTED}`);
  return rows.map((row) => {
    const paidAt = new Date(row.paid_at);
    return {
      orderId: row.id,
      paidAt: paidAt.toISOString(),
      shipBy: shipByDay(paidAt),
      customerEmail: row.customer_email,
    };
  });
}

async function recentOrders(db: Database): Promise<Dashboard["recentOrders"]> {
  const { rows } = await db.execute<{
    id: string;
    status: OrderStatus;
    total_cents: number;
    customer_email: string;
    created_at: Date | string;
    cancel_reason: Dashboard["recentOrders"][number]["cancelReason"];
  }>(sql`
    select id, status, total_cents, customer_email, created_at, cancel_reason
    from orders order by created_at desc, id desc limit ${RECENT_ORDERS}`);
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    total: centsToDecimal(row.total_cents),
    customerEmail: row.customer_email,
    createdAt: new Date(row.created_at).toISOString(),
    cancelReason: row.status === "cancelled" ? row.cancel_reason : null,
  }));
}

/**
 * GET /api/admin/dashboard: every figure computed by PostgreSQL. Order counts and revenue come
 * from the counters the orders trigger keeps (per day and status), so the answer costs the same
 * with 200,000 orders as with 200 (bench/README.md); nothing loads the orders themselves. Partial
 * refunds come off the revenue (from the refunds table, joined to the orders they belong to).
 */
export const adminDashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/dashboard", { schema: { response: { 200: dashboard } } }, async () => {
    const refunded = await partlyRefunded(app.db);
    const [counts, series, stock, attention, problems, late, recent, backups, copies, planFigures] = await Promise.all([
      figures(app.db, refunded),
      revenueByDay(app.db, refunded),
      lowStock(app.db),
      needsAttention(app.db),
      deliveryProblems(app.db),
      lateShipments(app.db),
      recentOrders(app.db),
      latestBackups(app.pool),
      latestCopies(app.pool),
      dashboardPlanFigures(app.db),
    ]);
    const { last, lastGood } = backups;
    const backup = {
      everyHours: app.config.backup.everyHours,
      last: last && {
        finishedAt: last.finishedAt.toISOString(),
        file: last.file && path.basename(last.file),
        bytes: last.bytes,
        error: last.error,
      },
      lastGoodAt: lastGood?.finishedAt.toISOString() ?? null,
      minute: app.config.backup.minute,
      copy: {
        configured: app.config.backup.s3 !== undefined,
        last: copies.last && {
          key: copies.last.key,
          finishedAt: copies.last.finishedAt.toISOString(),
          error: copies.last.error,
        },
        lastGoodAt: copies.lastGoodAt?.toISOString() ?? null,
      },
    };
    return {
      ...counts,
      revenueByDay: series,
      lowStock: stock,
      needsAttention: attention + problems,
      deliveryProblems: problems,
      lateShipments: late,
      backup,
      recentOrders: recent,
      plans: planFigures,
      release: buildInfo(),
    };
  });
};
