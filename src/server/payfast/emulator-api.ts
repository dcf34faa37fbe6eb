import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { centsToDecimal, formatRand } from "../../domain/money.js";
import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import { payfastEmulatorPayments } from "../db/schema.js";
import { API_VERSION, apiSignature, payfastTimestamp } from "./api-client.js";
import { emulatorRefundRoutes, type RefundRefusals } from "./emulator-refunds.js";
import { sameSignature } from "./signature.js";

/**
 * The part of PayFast's API the shop calls, emulated over the payments the emulator took:
 * GET /api/transactions/history, with PayFast's header signature check (401 "Merchant
 * authorisation failed." otherwise) and the documented CSV; and the refunds (emulator-refunds.ts).
 */
export function emulatorApiRoutes(app: FastifyInstance, db: Database, config: Config, refusals: RefundRefusals) {
  emulatorRefundRoutes(app, db, config, refusals);
  app.get<{ Querystring: Record<string, string> }>("/api/transactions/history", async (request, reply) => {
    const query = request.query;
    const refusal = apiRefusal(request.headers, query, config);
    if (refusal) {
      request.log.warn({ refusal }, "PayFast emulator API: merchant authorisation failed");
      return reply.status(401).send(MERCHANT_AUTHORISATION_FAILED);
    }
    const from = query.from ?? payfastTimestamp(new Date()).slice(0, 10);
    const to = query.to ?? from;
    const offset = Number(query.offset ?? 0);
    const limit = Math.min(Number(query.limit ?? 1000), 1000);
    if (!isDate(from) || !isDate(to) || !Number.isInteger(offset) || !Number.isInteger(limit) || offset < 0) {
      return reply.status(400).send({ code: 400, status: "failed", data: { response: "Invalid date range" } });
    }
    // PayFast's days are South African days (UTC+2).
    const rows = await db
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
      .orderBy(asc(payfastEmulatorPayments.createdAt), asc(payfastEmulatorPayments.pfPaymentId))
      .offset(offset)
      .limit(limit);
    return reply.type("text/csv; charset=utf-8").send(historyCsv(rows));
  });
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
  const expected = apiSignature(signed, config.payfast.passphrase);
  return sameSignature(expected, header("signature")) ? null : "signature mismatch";
}

type EmulatedPayment = typeof payfastEmulatorPayments.$inferSelect;

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

/** The history as PayFast's API documents it: a header row, then one quoted row per transaction. */
function historyCsv(rows: readonly EmulatedPayment[]): string {
  let balance = 0;
  const lines = [HISTORY_COLUMNS.map(csvCell).join(",")];
  for (const row of rows) {
    balance += row.amountCents + row.feeCents;
    const date = payfastTimestamp(row.createdAt).slice(0, 19).replace("T", " ");
    const cells = [
      date,
      "FUNDS_RECEIVED",
      "CREDIT",
      `${row.nameFirst} ${row.nameLast}`.trim(),
      row.itemName,
      "",
      "ZAR",
      "CC",
      centsToDecimal(row.amountCents),
      centsToDecimal(row.feeCents),
      centsToDecimal(row.amountCents + row.feeCents),
      formatRand(balance).replace(/^R/, ""),
      row.mPaymentId,
      row.pfPaymentId,
      ...Array.from({ length: 10 }, () => ""),
    ];
    lines.push(cells.map(csvCell).join(","));
  }
  return `${lines.join("\n")}\n`;
}
