import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { centsToDecimal, formatRand } from "#domain/money.js";
import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import { payfastEmulatorPayments, payfastEmulatorRefunds } from "../db/schema.js";
import { type EmulatedZeroRule, emulatedApiSignature } from "./emulator-api-signature.js";
import type { RefundRefusals } from "./emulator-refunds.js";

/** How the emulated PayFast behaves now: tests (and a developer) drive it into PayFast's other answers. */
export interface EmulatorControls {
  /** The validate endpoint: as PayFast normally does, or failing as it has (403 for weeks, a timeout, INVALID). */
  validate: "normal" | "403" | "timeout" | "INVALID";
  /** Every API call answers 503, as PayFast's API does when it is down. */
  apiDown: boolean;
  /** How the emulated API signs a value PHP calls empty ("0"): emulator-api-signature.ts. */
  zeroRule: EmulatedZeroRule;
  /** Payments whose refunds PayFast can only pay to a bank account (Instant EFT and others). */
  bankPayout: Set<string>;
  /** Refusals a test asked for, by pf_payment_id: the message PayFast would give. */
  refundRefusals: RefundRefusals;
}

export function defaultEmulatorControls(): EmulatorControls {
  return { validate: "normal", apiDown: false, zeroRule: "signed", bankPayout: new Set(), refundRefusals: new Map() };
}

const API_VERSION = "v1";

/** PayFast's answer while its API is down, in its error shape. */
export const API_UNAVAILABLE = {
  code: 503,
  status: "failed",
  data: { response: false, message: "Service Unavailable" },
} as const;

/**
 * The part of PayFast's API the shop calls, emulated over the payments the emulator took:
 * GET /api/transactions/history, with PayFast's header signature check (401 "Merchant
 * authorisation failed." otherwise) and the documented CSV; the refunds are emulator-refunds.ts.
 */
export function emulatorApiRoutes(app: FastifyInstance, db: Database, config: Config, controls: EmulatorControls) {
  app.get<{ Querystring: Record<string, string> }>("/api/ping", async (request, reply) => {
    if (controls.apiDown) return reply.status(503).send(API_UNAVAILABLE);
    if (apiRefusal(request.headers, request.query, config, controls)) {
      return reply.status(401).send(MERCHANT_AUTHORISATION_FAILED);
    }
    return reply.type("application/json").send(JSON.stringify("API V1"));
  });
  app.get<{ Querystring: Record<string, string> }>("/api/transactions/history", async (request, reply) => {
    if (controls.apiDown) return reply.status(503).send(API_UNAVAILABLE);
    const query = request.query;
    const refusal = apiRefusal(request.headers, query, config, controls);
    if (refusal) {
      request.log.warn({ refusal }, "PayFast emulator API: merchant authorisation failed");
      return reply.status(401).send(MERCHANT_AUTHORISATION_FAILED);
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

/** PayFast's 401 for a bad signature, in its documented error shape. */
export const MERCHANT_AUTHORISATION_FAILED = {
  code: 401,
  status: "failed",
  data: { response: "Merchant authorisation failed.", message: false },
} as const;

/** Why PayFast's API would answer 401 "Merchant authorisation failed", or null. */
export function apiRefusal(
  headers: Record<string, string | string[] | undefined>,
  query: Record<string, string>,
  config: Config,
  controls: EmulatorControls,
): string | null {
  const header = (name: string) => {
    const value = headers[name];
    return typeof value === "string" ? value : "";
  };
  if (header("merchant-id") !== config.payfast.merchantId) return "merchant-id is not this merchant";
  if (header("version") !== API_VERSION) return `version must be ${API_VERSION}`;
  if (Number.isNaN(Date.parse(header("timestamp")))) return "timestamp is not an ISO-8601 time";
  if (!config.payfast.passphrase) return "the API needs a passphrase";
  const signed = {
    "merchant-id": header("merchant-id"),
    version: header("version"),
    timestamp: header("timestamp"),
    ...query,
  };
  const expected = emulatedApiSignature(signed, config.payfast.passphrase, controls.zeroRule);
  return expected === header("signature").trim().toLowerCase() ? null : "signature mismatch";
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
 * exact type name in PayFast's CSV is not documented; the shop reads either sign: jobs/payfast-reconcile.ts).
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
