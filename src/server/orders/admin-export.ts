import { pipeline, Transform } from "node:stream";
import { stringify } from "csv-stringify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import QueryStream from "pg-query-stream";
import { z } from "zod";
import { centsToDecimal } from "#domain/money.js";
import { ORDER_STATUS_LABELS, type OrderStatus, orderNumber } from "#domain/order-status.js";
import { saDay } from "#domain/sa-calendar.js";
import { orderRangeQuery } from "#domain/schemas/admin-orders.js";
import { formatVatRate, invoiceVat, type OrderForVat } from "#domain/vat.js";
import { requireFreshSecondFactor } from "../auth/two-factor.js";
import { orderExportStatement } from "./admin-queries.js";

/** Rows fetched from PostgreSQL's cursor at a time: the export holds about this many, whatever the range. */
const BATCH_ROWS = 500;

const COLUMNS = [
  "Order number",
  "Date (SA time)",
  "Customer",
  "E-mail",
  "Subtotal (R)",
  "Discount (R)",
  "Delivery (R)",
  "Zero-rated (R)",
  "Standard-rated excl. VAT (R)",
  "VAT at standard rate (R)",
  "Standard rate",
  "Total (R)",
  "Status",
  "Paid by",
];

const PAID_BY: Record<string, string> = {
  itn: "PayFast",
  reconcile: "PayFast (found by reconciliation)",
  admin: "Admin",
};

interface ExportRow {
  id: string;
  placed: string;
  customer: string;
  email: string;
  subtotal_cents: number;
  /** A promo code's discount and the multi-buy saving on the goods: subtotal - discount + delivery = total. */
  discount_cents: number;
  delivery_fee_cents: number;
  total_cents: number;
  status: OrderStatus;
  paid_by: string | null;
  delivery_vat_rate_bp: number;
  vat_rounding: OrderForVat["vatRounding"];
  lines: OrderForVat["lines"];
}

/** A cell a spreadsheet would take for a formula (=, +, -, @, tab, CR) is kept as text (OWASP's CSV injection advice). */
export function asText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The order's VAT per class, as its invoice shows it: zero-rated total, standard-rated value excluding VAT, its VAT and rate. */
function vatColumns(row: ExportRow): string[] {
  const { byRate } = invoiceVat({
    lines: row.lines,
    deliveryFeeCents: row.delivery_fee_cents,
    deliveryVatRateBp: row.delivery_vat_rate_bp,
    vatRounding: row.vat_rounding,
  });
  const zero = byRate.filter((rate) => rate.vatClass === "zero");
  const standard = byRate.filter((rate) => rate.vatClass === "standard");
  const sum = (rates: typeof byRate, figure: "exclCents" | "vatCents" | "totalCents") =>
    rates.reduce((total, rate) => total + rate[figure], 0);
  return [
    centsToDecimal(sum(zero, "totalCents")),
    centsToDecimal(sum(standard, "exclCents")),
    centsToDecimal(sum(standard, "vatCents")),
    // An order is placed on one day, so its standard-rated lines share one rate.
    standard.map((rate) => formatVatRate(rate.rateBp)).join(" "),
  ];
}

function toRecord(row: ExportRow): string[] {
  return [
    orderNumber(row.id),
    row.placed,
    asText(row.customer),
    asText(row.email),
    centsToDecimal(row.subtotal_cents),
    centsToDecimal(row.discount_cents),
    centsToDecimal(row.delivery_fee_cents),
    ...vatColumns(row),
    centsToDecimal(row.total_cents),
    ORDER_STATUS_LABELS[row.status] ?? row.status,
    row.paid_by ? (PAID_BY[row.paid_by] ?? row.paid_by) : "",
  ];
}

/**
 * GET /api/admin/orders.csv?from=&to=: the orders of a range for the accountant, streamed from a
 * PostgreSQL cursor through csv-stringify to the answer, BATCH_ROWS at a time: memory stays flat
 * whether the range holds ten orders or two years of them.
 */
export const adminOrderExportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/orders.csv",
    { schema: { querystring: orderRangeQuery, response: { 200: z.string() } } },
    async (request, reply) => {
      // Every customer's name, address and phone in one file: a fresh code first.
      requireFreshSecondFactor(request);
      const { from, to } = request.query;
      const { text, values } = orderExportStatement({ from, to });
      const client = await app.pool.connect();
      let released = false;
      const release = (error?: Error | null) => {
        if (released) return;
        released = true;
        // A cursor cut short leaves the connection mid-query: it is closed rather than reused.
        client.release(error ? true : undefined);
      };
      const rows = client.query(new QueryStream(text, values, { batchSize: BATCH_ROWS }));
      const records = new Transform({
        objectMode: true,
        transform(row: ExportRow, _encoding, done) {
          done(null, toRecord(row));
        },
      });
      const csv = pipeline(rows, records, stringify({ header: true, columns: COLUMNS }), (error) => {
        release(error);
        if (error) request.log.warn({ err: error }, "order export ended early");
      });
      const name = `orders-${from ? saDay(from) : "start"}-to-${to ? saDay(new Date(to.getTime() - 1)) : "now"}.csv`;
      reply.type("text/csv; charset=utf-8").header("content-disposition", `attachment; filename="${name}"`);
      // The stream goes out as it is, not through the serializer: its schema says what it carries.
      return reply.send(csv as unknown as string);
    },
  );
};
