import { and, eq, sql } from "drizzle-orm";
import { parseRandToCents } from "../../domain/money.js";
import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import { pgErrorCode, UNIQUE_VIOLATION } from "../db/errors.js";
import { orders, payfastItns } from "../db/schema.js";
import { payfastValidateUrl } from "./adapter.js";
import { itnSignature, type ParsedItn, parseItn, sameSignature } from "./signature.js";

export type ItnOutcome = "accepted" | "duplicate" | "ignored" | "rejected";

export interface ItnResult {
  outcome: ItnOutcome;
  reason: string | null;
  orderId: string | null;
  pfPaymentId: string | null;
}

export interface ItnContext {
  db: Database;
  config: Config;
  /** Whether an address is one ITNs may come from (the configured CIDR ranges). */
  isPayfastSource: (address: string) => boolean;
  /** Asks PayFast (or the emulator) whether it sent this parameter string; true only for "VALID". */
  confirm: (paramString: string) => Promise<{ valid: boolean; detail: string }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VALIDATE_TIMEOUT_MS = 5_000;

/** The server confirmation of PAYFAST.md's fourth check: POST the parameter string, expect "VALID". */
export function confirmWithPayfast(config: Config) {
  const url = payfastValidateUrl(config);
  return async (paramString: string) => {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: paramString,
        signal: AbortSignal.timeout(VALIDATE_TIMEOUT_MS),
      });
      const text = (await response.text()).trim();
      const valid = response.ok && text === "VALID";
      return { valid, detail: `HTTP ${response.status} ${JSON.stringify(text.slice(0, 40))}` };
    } catch (error) {
      return { valid: false, detail: error instanceof Error ? error.message : String(error) };
    }
  };
}

/** Text as PostgreSQL can keep it (no NUL characters), cut to `max` characters for the short columns. */
function storable<T extends string | null>(text: T, max?: number): T {
  if (text === null) return text;
  const clean = text.replaceAll("\u0000", "\uFFFD");
  return (max !== undefined && clean.length > max ? clean.slice(0, max) : clean) as T;
}

/**
 * Runs PayFast's checks on one ITN (signature, source address, merchant, order, amount, server
 * confirmation), records it in payfast_itns with its outcome, and for a valid COMPLETE one moves
 * the order from pending to completed in the same transaction as the accepted record.
 */
export async function processItn(context: ItnContext, rawBody: string, sourceIp: string): Promise<ItnResult> {
  const { db, config } = context;
  const itn: ParsedItn = parseItn(rawBody);
  const mPaymentId = itn.data.m_payment_id ?? "";
  const orderId = UUID.test(mPaymentId) ? mPaymentId.toLowerCase() : null;
  const pfPaymentId = itn.data.pf_payment_id || null;
  const paymentStatus = itn.data.payment_status || null;
  const record = {
    orderId,
    pfPaymentId: storable(pfPaymentId, 100),
    paymentStatus: storable(paymentStatus, 100),
    amountGross: storable(itn.data.amount_gross ?? null, 100),
    sourceIp,
    rawBody: storable(rawBody),
  };
  const finish = async (outcome: ItnOutcome, reason: string | null): Promise<ItnResult> => {
    await db.insert(payfastItns).values({ ...record, outcome, reason: storable(reason, 500) });
    return { outcome, reason, orderId, pfPaymentId };
  };
  const reject = (reason: string) => finish("rejected", reason);

  if (!itn.signature) return reject("no signature");
  if (!sameSignature(itnSignature(rawBody, config.payfast.passphrase), itn.signature)) {
    return reject("signature mismatch");
  }
  if (!context.isPayfastSource(sourceIp)) return reject(`source address ${sourceIp} is not a PayFast address`);
  if (itn.data.merchant_id !== config.payfast.merchantId) {
    return reject(`merchant_id ${JSON.stringify(itn.data.merchant_id ?? "")} is not ours`);
  }
  if (!orderId) return reject(`unknown order ${JSON.stringify(mPaymentId.slice(0, 64))}`);
  const [order] = await db
    .select({ status: orders.status, totalCents: orders.totalCents })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return reject(`unknown order ${orderId}`);
  const grossCents = parseRandToCents(itn.data.amount_gross ?? "");
  if (grossCents === null)
    return reject(`amount_gross ${JSON.stringify(itn.data.amount_gross ?? "")} is not an amount`);
  if (Math.abs(grossCents - order.totalCents) > 1) {
    return reject(`amount_gross ${itn.data.amount_gross} does not match the order total`);
  }
  if (paymentStatus !== "COMPLETE") return finish("ignored", `payment_status ${paymentStatus ?? "(none)"}`);
  if (order.status !== "pending") return finish("duplicate", `order already ${order.status}`);

  const confirmation = await context.confirm(itn.paramString);
  if (!confirmation.valid) return reject(`server confirmation failed: ${confirmation.detail}`);

  try {
    return await db.transaction(async (tx) => {
      const paid = await tx
        .update(orders)
        .set({ status: "completed", paidBy: "itn", paidAt: sql`now()` })
        .where(and(eq(orders.id, orderId), eq(orders.status, "pending")))
        .returning({ id: orders.id });
      // Another copy of this ITN may have paid the order while we were confirming it.
      const outcome: ItnOutcome = paid.length > 0 ? "accepted" : "duplicate";
      const reason = outcome === "duplicate" ? "order already paid" : null;
      await tx.insert(payfastItns).values({ ...record, outcome, reason });
      return { outcome, reason, orderId, pfPaymentId };
    });
  } catch (error) {
    // The partial unique index: this pf_payment_id was already accepted (for another order).
    if (pgErrorCode(error) === UNIQUE_VIOLATION)
      return finish("duplicate", `pf_payment_id ${pfPaymentId} was already accepted`);
    throw error;
  }
}
