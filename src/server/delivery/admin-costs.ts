import { stringify } from "csv-stringify/sync";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { centsToDecimal } from "#domain/money.js";
import { SA_TIME_ZONE as SHOP_TIME_ZONE } from "#domain/sa-format.js";
import {
  type DeliveryCostQuery,
  type DeliveryCostReport,
  type DeliveryCostRow,
  deliveryCostQuery,
  deliveryCostReport,
  monthsBetween,
} from "#domain/schemas/delivery-admin.js";
import { vatPeriod } from "#domain/schemas/vat-report.js";
import type { Database } from "../platform/db/client.js";

/** The month `offset` months after `from` (YYYY-MM). */
function monthAfter(from: string, offset: number): string {
  const [year = 0, month = 1] = from.split("-").map(Number);
  const index = year * 12 + (month - 1) + offset;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

const emptyRow = (month: string): DeliveryCostRow => ({
  month,
  ordersShipped: 0,
  withWaybill: 0,
  customersPaidCents: 0,
  quotedCents: 0,
  adjustmentsCents: 0,
  courierChargedCents: 0,
  differenceCents: 0,
});

/**
 * The delivery costs of the months from..to (docs/decisions/053): per month of shipping (South
 * African days), the orders shipped, and for those booked through the courier here what customers
 * paid for delivery against what the courier charged: its quote at booking and what re-weighing
 * added. Orders shipped by hand (Mark as Shipped) are counted but have no courier charge to compare.
 */
export async function deliveryCostsOf(db: Database, { from, to }: DeliveryCostQuery): Promise<DeliveryCostReport> {
  const months = monthsBetween(from, to);
  const { first } = vatPeriod(from, 1);
  const { last, next } = vatPeriod(to, 1);
  const { rows } = await db.execute<{
    month: string;
    shipped: number;
    booked: number;
    paid: string;
    quoted: string;
    charged: string;
  }>(sql`
    select to_char(o.shipped_at at time zone ${SHOP_TIME_ZONE}, 'YYYY-MM') as month,
      count(*)::int as shipped,
      count(s.id)::int as booked,
      coalesce(sum(o.delivery_fee_cents) filter (where s.id is not null), 0)::bigint as paid,
      coalesce(sum(coalesce(s.charged_cents, 0)), 0)::bigint as quoted,
      coalesce(sum(coalesce(s.final_charged_cents, s.charged_cents, 0)), 0)::bigint as charged
    from orders o left join shipments s on s.order_id = o.id
    where o.shipped_at >= (${first}::date::timestamp at time zone ${SHOP_TIME_ZONE})
      and o.shipped_at < (${next}::date::timestamp at time zone ${SHOP_TIME_ZONE})
    group by 1`);
  const byMonth = new Map(rows.map((row) => [row.month, row]));
  const total = emptyRow("total");
  const list = Array.from({ length: months }, (_, offset) => {
    const month = monthAfter(from, offset);
    const row = byMonth.get(month);
    if (!row) return emptyRow(month);
    const paid = Number(row.paid);
    const quoted = Number(row.quoted);
    const charged = Number(row.charged);
    const figures: DeliveryCostRow = {
      month,
      ordersShipped: row.shipped,
      withWaybill: row.booked,
      customersPaidCents: paid,
      quotedCents: quoted,
      adjustmentsCents: charged - quoted,
      courierChargedCents: charged,
      differenceCents: paid - charged,
    };
    for (const key of Object.keys(figures) as (keyof DeliveryCostRow)[]) {
      if (key !== "month") total[key] += figures[key];
    }
    return figures;
  });
  return { first, last, months: list, total };
}

const CSV_COLUMNS = [
  "Month",
  "Orders shipped",
  "With a waybill",
  "Customers paid (R)",
  "Courier quoted (R)",
  "Re-weigh adjustments (R)",
  "Courier charged (R)",
  "Difference (R)",
];

function reportCsv(report: DeliveryCostReport): string {
  const line = (row: DeliveryCostRow) => [
    row.month === "total" ? "Total" : row.month,
    String(row.ordersShipped),
    String(row.withWaybill),
    centsToDecimal(row.customersPaidCents),
    centsToDecimal(row.quotedCents),
    centsToDecimal(row.adjustmentsCents),
    centsToDecimal(row.courierChargedCents),
    centsToDecimal(row.differenceCents),
  ];
  return stringify([...report.months.map(line), line(report.total)], { header: true, columns: CSV_COLUMNS });
}

/** GET /api/admin/delivery-costs?from=YYYY-MM&to=YYYY-MM and its CSV: the monthly delivery-cost report. */
export const adminDeliveryCostRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/delivery-costs",
    { schema: { querystring: deliveryCostQuery, response: { 200: deliveryCostReport } } },
    async (request) => deliveryCostsOf(app.db, request.query),
  );

  app.get(
    "/delivery-costs.csv",
    { schema: { querystring: deliveryCostQuery, response: { 200: z.string() } } },
    async (request, reply) => {
      const report = await deliveryCostsOf(app.db, request.query);
      reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="delivery-costs-${report.first}-to-${report.last}.csv"`);
      return reportCsv(report);
    },
  );
};
