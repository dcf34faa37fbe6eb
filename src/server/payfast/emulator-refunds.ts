import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Config } from "../platform/config.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { payfastEmulatorPayments, payfastEmulatorRefunds } from "../platform/db/schema.js";
import { apiGate, type EmulatorControls, signedValues } from "./emulator-gate.js";

/** What a BANK_PAYOUT refund must also carry (docs/payfast.md §7). */
const BANK_FIELDS = [
  "bank_account_holder",
  "bank_name",
  "bank_branch_code",
  "bank_account_number",
  "bank_account_type",
];
/** The banks PayFast's query lists for a bank payout (a few; PayFast's list is longer). */
const BANK_NAMES = [
  { bank_name: "ABSA", label: "Absa" },
  { bank_name: "FNB", label: "FNB" },
  { bank_name: "STANDARD", label: "Standard Bank" },
];

/** PayFast's documented error shape: `{ code, status: "failed", data: { response: false, message } }`. */
function failed(reply: FastifyReply, code: number, message: string) {
  return reply.status(code).send({ code, status: "failed", data: { response: false, message } });
}

/**
 * PayFast's Refunds API over the emulator's payments (docs/payfast.md §7): GET /refunds/query/{id}
 * says what can be refunded and how, POST /refunds/{id} refunds (amount in cents, reason 3-255
 * characters). Both check the header signature like every API call. A refund is refused, in
 * PayFast's error shape, for an unknown or unpaid payment, more than is left, or a bad body.
 */
export function emulatorRefundRoutes(app: FastifyInstance, db: Database, config: Config, controls: EmulatorControls) {
  registerRefundQueryRoute(app, db, config, controls);
  registerRefundRoute(app, db, config, controls);
}

/** A COMPLETE payment of this merchant (locked, in a transaction), what it was and what is left to refund; else null. */
async function paymentWithBalance(tx: Database | Transaction, config: Config, id: string) {
  const [payment] = await tx
    .select({ amountCents: payfastEmulatorPayments.amountCents })
    .from(payfastEmulatorPayments)
    .where(
      and(
        eq(payfastEmulatorPayments.pfPaymentId, id),
        eq(payfastEmulatorPayments.status, "COMPLETE"),
        eq(payfastEmulatorPayments.merchantId, config.payfast.merchantId),
      ),
    )
    .for("update");
  if (!payment) return null;
  const [{ refunded = 0 } = {}] = await tx
    .select({ refunded: sql<number>`coalesce(sum(${payfastEmulatorRefunds.amountCents}), 0)::int` })
    .from(payfastEmulatorRefunds)
    .where(eq(payfastEmulatorRefunds.pfPaymentId, id));
  return { originalCents: payment.amountCents, availableCents: payment.amountCents - refunded };
}

/** GET /refunds/query/{id}: what is left to refund, and whether to the card or (a bank payout) to a bank account. */
function registerRefundQueryRoute(app: FastifyInstance, db: Database, config: Config, controls: EmulatorControls) {
  app.get<{ Params: { id: string }; Querystring: Record<string, string> }>(
    "/api/refunds/query/:id",
    async (request, reply) => {
      const refused = apiGate(request.headers, request.query, config, controls);
      if (refused) return reply.status(refused.status).send(refused.body);
      const balance = await paymentWithBalance(db, config, request.params.id);
      if (!balance) return failed(reply, 404, "Transaction not found.");
      const status = balance.availableCents > 0 ? "REFUNDABLE" : "COMPLETED";
      const bank = controls.bankPayout.has(request.params.id);
      const method =
        balance.availableCents <= 0
          ? { method: "NOT_AVAILABLE" }
          : bank
            ? { method: "BANK_PAYOUT", ...Object.fromEntries(BANK_FIELDS.map((field) => [field, ""])) }
            : { method: "PAYMENT_SOURCE" };
      return {
        token: request.params.id,
        funding_type: bank ? "Instant EFT" : "Credit Card",
        amount_original: balance.originalCents,
        amount_available_for_refund: balance.availableCents,
        status,
        errors: [],
        refund_full: balance.availableCents === balance.originalCents ? method : { method: "NOT_AVAILABLE" },
        refund_partial: method,
        bank_names: bank ? BANK_NAMES : [],
      };
    },
  );
}

/** POST /refunds/{id}: checks the body as PayFast does, then refunds at most what is left, under the payment's lock. */
function registerRefundRoute(app: FastifyInstance, db: Database, config: Config, controls: EmulatorControls) {
  const refusals = controls.refundRefusals;
  app.post<{ Params: { id: string }; Querystring: Record<string, string> }>(
    "/api/refunds/:id",
    async (request, reply) => {
      const values = signedValues(request.body);
      if (values === null) return failed(reply, 400, "Required variables not present in request");
      const gate = apiGate(request.headers, { ...request.query, ...values }, config, controls);
      if (gate) return reply.status(gate.status).send(gate.body);
      // PayFast's Refunds API requires notify_buyer (1 or 0).
      if (values.notify_buyer !== "1" && values.notify_buyer !== "0") {
        return failed(reply, 400, "Required variables not present in request: notify_buyer (1 or 0)");
      }
      const amount = Number(values.amount);
      const reason = (values.reason ?? "").trim();
      if (!Number.isInteger(amount) || amount < 1)
        return failed(reply, 400, "The amount must be a whole number of cents.");
      if (reason.length < 3 || reason.length > 255)
        return failed(reply, 400, "The reason must be 3 to 255 characters.");
      const refused = refusals.get(request.params.id);
      if (refused) return failed(reply, 400, refused);
      if (controls.bankPayout.has(request.params.id) && BANK_FIELDS.some((field) => !values[field]?.trim())) {
        return failed(
          reply,
          400,
          "This payment can only be refunded to a bank account: the bank details are required.",
        );
      }
      const outcome = await db.transaction(async (tx) => {
        const balance = await paymentWithBalance(tx, config, request.params.id);
        if (!balance) return { code: 404, message: "Transaction not found." };
        if (amount > balance.availableCents) {
          return {
            code: 400,
            message: `The refund amount exceeds the amount available for refund (${balance.availableCents} cents).`,
          };
        }
        await tx.insert(payfastEmulatorRefunds).values({ pfPaymentId: request.params.id, amountCents: amount, reason });
        return null;
      });
      if (outcome) return failed(reply, outcome.code, outcome.message);
      return { code: 200, status: "success", data: { response: true, message: "Success" } };
    },
  );
}
