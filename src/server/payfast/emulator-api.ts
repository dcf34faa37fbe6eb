import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { centsToDecimal, formatRand } from "#domain/money.js";
import type { Config } from "../platform/config.js";
import type { Database } from "../platform/db/client.js";
import { payfastEmulatorPayments, payfastEmulatorRefunds } from "../platform/db/schema.js";
import { apiGate, type EmulatorControls } from "./emulator-gate.js";

/**
 * The part of PayFast's API the shop calls, emulated over the payments the emulator took:
 * GET /api/transactions/history, with PayFast's header signature check (401 "Merchant
 * authorisation failed." otherwise) and the documented CSV; the refunds are emulator-refunds.ts.
 */
export function emulatorApiRoutes(app: FastifyInstance, db: Database, config: Config, controls: EmulatorControls) {
  app.get<{ Querystring: Record<string, string> }>("/api/ping", async (request, reply) => {
    const refused = apiGate(request.headers, request.query, config, controls);
    if (refused) return reply.status(refused.status).send(refused.body);
    return reply.type("application/json").send(JSON.stringify("API V1"));
  });
  app.get<{ Querystring: Record<string, string> }>("/api/transactions/history", async (request, reply) => {
    const query = request.query;
    const refused = apiGate(request.headers, query, config, controls);
    if (refused) {
      request.log.warn({ status: refused.status }, "PayFast emulator API: call refused");
      return reply.status(refused.status).send(refused.body);
    }
    const from = query.from ?? sastTime(new Date()).slice(0, 10);
    const to = query.to ?? from;
    const offset = Number(query.offset ?? 0);
    const limit = Math.min(Number(query.limit ?? 1000), 1000);
    if (!isDate(from) || !isDate(to) || !Number.isInteger(offset) || !Number.isInteger(limit) || offset < 0) {
      return reply.status(400).send({ code: 400, status: "failed", data: { response: "Invalid date range" } });
    }
    // PayFast's days are South African days (UTC+2).
    const payments = await db
      .select()
      .from(payfastEmulatorPayments)
      .where(
        and(
          eq(payfastEmulatorPayments.status, "COMPLETE"),
          eq(payfastEmulatorPayments.merchantId, config.payfast.merchantId),
          gte(payfastEmulatorPayments.createdAt, sql`(${from}::date - interval '2 hours')`),
          lt(payfastEmulatorPayments.createdAt, sql`(${to}::date + interval '22 hours')`),
        ),
      )
      .orderBy(asc(payfastEmulatorPayments.createdAt), asc(payfastEmulatorPayments.pfPaymentId));
    // Refunds (through the API or made in the dashboard) are transactions of the day they were made.
    const refunded = await db
      .select({ refund: payfastEmulatorRefunds, payment: payfastEmulatorPayments })
      .from(payfastEmulatorRefunds)
      .innerJoin(payfastEmulatorPayments, eq(payfastEmulatorPayments.pfPaymentId, payfastEmulatorRefunds.pfPaymentId))
      .where(
        and(
          eq(payfastEmulatorPayments.merchantId, config.payfast.merchantId),
          gte(payfastEmulatorRefunds.createdAt, sql`(${from}::date - interval '2 hours')`),
          lt(payfastEmulatorRefunds.createdAt, sql`(${to}::date + interval '22 hours')`),
        ),
      );
    const transactions: HistoryTransaction[] = [
      ...payments.map((payment) => ({
        kind: "payment" as const,
        at: payment.createdAt,
        payment,
        amountCents: payment.amountCents,
      })),
      ...refunded.map(({ refund, payment }) => ({
        kind: "refund" as const,
        at: refund.createdAt,
        payment,
        amountCents: -refund.amountCents,
      })),
    ].sort((a, b) => a.at.getTime() - b.at.getTime() || a.payment.pfPaymentId.localeCompare(b.payment.pfPaymentId));
    return reply.type("text/csv; charset=utf-8").send(historyCsv(transactions.slice(offset, offset + limit)));
  });
}

/** A moment in South African time (UTC+2, no daylight saving), YYYY-MM-DDTHH:MM:SS, as PayFast's history shows it. */
function sastTime(at: Date): string {
  return new Date(at.getTime() + 2 * 3_600_000).toISOString().slice(0, 19);
}

function isDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text));
}

type EmulatedPayment = typeof payfastEmulatorPayments.$inferSelect;

/** One row of the history: a payment received, or a refund paid out of one. */
interface HistoryTransaction {
  kind: "payment" | "refund";
  at: Date;
  payment: EmulatedPayment;
  /** Negative for a refund. */
  amountCents: number;
}

const HISTORY_COLUMNS = [
  "Date",
  "Type",
  "Sign",
  "Party",
  "Name",
  "Description",
  "Currency",
  "Funding Type",
  "Gross",
  "Fee",
  "Net",
  "Balance",
  "M Payment ID",
  "PF Payment ID",
  "custom str1",
  "custom int1",
  "custom str2",
  "custom int2",
  "custom str3",
  "custom str4",
  "custom str5",
  "custom int3",
  "custom int4",
  "custom int5",
];

const csvCell = (value: string) => `"${value.replaceAll('"', '""')}"`;

/**
 * The history as PayFast's API documents it: a header row, then one quoted row per transaction.
 * A refund is a DEBIT row of type REFUND with a negative gross, carrying the payment's ids (its
 * exact type name in PayFast's CSV is not documented; the shop reads either sign: payments/reconcile.ts).
 */
function historyCsv(rows: readonly HistoryTransaction[]): string {
  let balance = 0;
  const lines = [HISTORY_COLUMNS.map(csvCell).join(",")];
  for (const { kind, at, payment: row, amountCents } of rows) {
    const feeCents = kind === "payment" ? row.feeCents : 0;
    balance += amountCents + feeCents;
    const date = sastTime(at).replace("T", " ");
    const cells = [
      date,
      kind === "payment" ? "FUNDS_RECEIVED" : "REFUND",
      kind === "payment" ? "CREDIT" : "DEBIT",
      `${row.nameFirst} ${row.nameLast}`.trim(),
      row.itemName,
      "",
      "ZAR",
      "CC",
      centsToDecimal(amountCents),
      centsToDecimal(feeCents),
      centsToDecimal(amountCents + feeCents),
      formatRand(balance).replace(/^R/, ""),
      row.mPaymentId,
      row.pfPaymentId,
      ...Array.from({ length: 10 }, () => ""),
    ];
    lines.push(cells.map(csvCell).join(","));
  }
  return `${lines.join("\n")}\n`;
}
