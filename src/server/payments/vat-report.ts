import { stringify } from "csv-stringify/sync";
import { and, asc, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { centsToDecimal } from "#domain/money.js";
import { orderNumber } from "#domain/order-status.js";
import { saDay } from "#domain/sa-calendar.js";
import {
  type VatReport,
  type VatReportRate,
  vatPeriod,
  vatReport,
  vatReportQuery,
} from "#domain/schemas/vat-report.js";
import { creditNoteNumberText, invoiceNumberText } from "#domain/tax-documents.js";
import { addByRate, formatVatRate, invoiceVat, type VatRateTotal } from "#domain/vat.js";
import { rateLabel } from "../documents/vat-summary.js";
import { creditNotesVat, ordersForVat } from "../orders/credit-note-vat.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { inTurn } from "../platform/db/in-turn.js";
import { saDayStartSql } from "../platform/db/sa-time.js";
import { orders, refunds } from "../platform/db/schema.js";

/** A tax document of the period with its figures per rate; a credit note's are what it reverses. */
interface PeriodDocument {
  kind: "invoice" | "credit_note";
  number: string;
  /** YYYY-MM-DD, South African day: the document's date. */
  date: string;
  orderId: string;
  byRate: VatRateTotal[];
}

/** `at` (an invoice's or credit note's date) falls on a South African day of [first, next). */
const inPeriod = (at: SQL, first: string, next: string) =>
  sql`${at} >= ${saDayStartSql(first)} and ${at} < ${saDayStartSql(next)}`;

// The dates the documents print: an invoice's is the payment's (document-data.ts), a credit note's the refund's completion.
const invoiceDate = sql`coalesce(${orders.paidAt}, ${orders.createdAt})`;
const creditNoteDate = sql`coalesce(${refunds.completedAt}, ${refunds.createdAt})`;

/**
 * The tax invoices and credit notes dated in a period, each with its VAT per rate worked out exactly
 * as its PDF does (invoiceVat and creditNotesVat), oldest first.
 */
export async function periodDocuments(db: Database, first: string, next: string): Promise<PeriodDocument[]> {
  const invoiced = and(isNotNull(orders.invoiceNumber), inPeriod(invoiceDate, first, next)) as SQL;
  const credited = sql`${orders.id} in (
    select ${refunds.orderId} from ${refunds}
    where ${refunds.status} = 'completed' and ${refunds.creditNoteNumber} is not null
      and ${inPeriod(creditNoteDate, first, next)})`;
  // One snapshot: a payment or a refund completing while the report is read is in all of it or none.
  const read = (tx: Transaction) =>
    inTurn(
      () =>
        tx
          .select({ id: orders.id, number: orders.invoiceNumber, at: invoiceDate.mapWith(orders.paidAt) })
          .from(orders)
          .where(invoiced)
          .orderBy(asc(orders.invoiceNumber)),
      () => ordersForVat(tx, invoiced),
      () =>
        tx
          .select({
            id: refunds.id,
            orderId: refunds.orderId,
            number: refunds.creditNoteNumber,
            at: creditNoteDate.mapWith(refunds.completedAt),
          })
          .from(refunds)
          .where(
            and(
              eq(refunds.status, "completed"),
              isNotNull(refunds.creditNoteNumber),
              inPeriod(creditNoteDate, first, next),
            ),
          )
          .orderBy(asc(refunds.creditNoteNumber)),
      () => creditNotesVat(tx, credited),
    );
  const [invoices, invoiceLines, notes, noteVats] = await db.transaction(read, {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
  const documents: PeriodDocument[] = [];
  for (const invoice of invoices) {
    const order = invoiceLines.get(invoice.id);
    if (!order || invoice.number === null) continue;
    documents.push({
      kind: "invoice",
      number: invoiceNumberText(invoice.number),
      date: saDay(invoice.at ?? new Date(0)),
      orderId: invoice.id,
      byRate: invoiceVat(order).byRate,
    });
  }
  for (const note of notes) {
    const vat = noteVats.get(note.id);
    if (!vat || note.number === null) continue;
    documents.push({
      kind: "credit_note",
      number: creditNoteNumberText(note.number),
      date: saDay(note.at ?? new Date(0)),
      orderId: note.orderId,
      byRate: vat.byRate,
    });
  }
  return documents;
}

const onWire = (rates: readonly VatRateTotal[]): VatReportRate[] =>
  rates.map((rate) => ({ ...rate, rate: formatVatRate(rate.rateBp) }));

/** Sales less credit notes, rate by rate (a rate only credited shows negative). */
function netByRate(sales: readonly VatRateTotal[], credits: readonly VatRateTotal[]): VatRateTotal[] {
  const negated = credits.map((rate) => ({
    ...rate,
    exclCents: -rate.exclCents,
    vatCents: -rate.vatCents,
    totalCents: -rate.totalCents,
  }));
  return addByRate(sales, negated);
}

export async function vatReportOf(
  db: Database,
  from: string,
  months: number,
): Promise<{ report: VatReport; documents: PeriodDocument[] }> {
  const { first, last, next } = vatPeriod(from, months);
  const documents = await periodDocuments(db, first, next);
  const invoices = documents.filter((document) => document.kind === "invoice");
  const notes = documents.filter((document) => document.kind === "credit_note");
  const sales = addByRate(...invoices.map((document) => document.byRate));
  const credits = addByRate(...notes.map((document) => document.byRate));
  return {
    report: {
      first,
      last,
      invoices: invoices.length,
      creditNotes: notes.length,
      sales: onWire(sales),
      credits: onWire(credits),
      net: onWire(netByRate(sales, credits)),
    },
    documents,
  };
}

const CSV_COLUMNS = ["Section", "Document", "Date", "Order", "VAT rate", "Excl. VAT (R)", "VAT (R)", "Total (R)"];

/**
 * The report as a spreadsheet: a row per document and rate (credit notes negative), then the
 * period's totals per rate: sales, credit notes, and net, the figures of the VAT201.
 */
function reportCsv({ report, documents }: Awaited<ReturnType<typeof vatReportOf>>): string {
  const money = (cents: number) => centsToDecimal(cents);
  const rows: string[][] = [];
  for (const document of documents) {
    const sign = document.kind === "credit_note" ? -1 : 1;
    for (const rate of document.byRate) {
      rows.push([
        document.kind === "invoice" ? "Tax invoice" : "Credit note",
        document.number,
        document.date,
        `#${orderNumber(document.orderId)}`,
        rateLabel(rate),
        money(sign * rate.exclCents),
        money(sign * rate.vatCents),
        money(sign * rate.totalCents),
      ]);
    }
  }
  const totals = (section: string, rates: readonly VatReportRate[]) => {
    for (const rate of rates) {
      rows.push([
        section,
        "",
        "",
        "",
        rateLabel(rate),
        money(rate.exclCents),
        money(rate.vatCents),
        money(rate.totalCents),
      ]);
    }
  };
  totals("Total sales", report.sales);
  totals("Total credit notes", report.credits);
  totals("Net (VAT201)", report.net);
  return stringify(rows, { header: true, columns: CSV_COLUMNS });
}

/** GET /api/admin/vat-report?from=YYYY-MM&months=1|2 and its CSV: the VAT of a month or a two-month VAT period. */
export const adminVatReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/vat-report", { schema: { querystring: vatReportQuery, response: { 200: vatReport } } }, async (request) => {
    const { from, months } = request.query;
    return (await vatReportOf(app.db, from, months)).report;
  });

  app.get(
    "/vat-report.csv",
    { schema: { querystring: vatReportQuery, response: { 200: z.string() } } },
    async (request, reply) => {
      const { from, months } = request.query;
      const result = await vatReportOf(app.db, from, months);
      reply
        .type("text/csv; charset=utf-8")
        .header(
          "content-disposition",
          `attachment; filename="vat-${result.report.first}-to-${result.report.last}.csv"`,
        );
      return reportCsv(result);
    },
  );
};
