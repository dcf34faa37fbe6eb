import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { parseRandToCents } from "#domain/money.js";
import type { ItnOutcome } from "#domain/schemas/payments.js";
import { documentIssuer } from "../orders/issued-documents.js";
import { payfastValidateUrl } from "../payfast/adapter.js";
import { itnSignature, type ParsedItn, parseItn, sameSignature } from "../payfast/signature.js";
import { orderOfChargedPayment } from "../plans/charge-paid.js";
import { cancelPlansOfToken, payfastToken } from "../plans/start.js";
import type { Config } from "../platform/config.js";
import type { Database } from "../platform/db/client.js";
import { orders, payfastItns } from "../platform/db/schema.js";
import { pendingHoldUntil } from "../stock/holds.js";
import { alreadyBooked, bookPayment, type PaymentRecord, recordPayment } from "./book-payment.js";

export interface ItnResult {
  outcome: ItnOutcome;
  reason: string | null;
  orderId: string | null;
  pfPaymentId: string | null;
}

export interface ItnContext {
  db: Database;
  config: Config;
  /** Whether an address is one ITNs may come from (ranges plus PayFast's hosts' DNS answers). */
  isPayfastSource: (address: string) => boolean;
  /** Asks PayFast (or the emulator) whether it sent this parameter string; true only for "VALID". */
  confirm: (paramString: string) => Promise<{ valid: boolean; detail: string }>;
  /** How long a PENDING notification keeps the order's stock (ORDER_PENDING_HOLD_HOURS). */
  pendingHoldHours: number;
}

/** Outcomes of signed notifications the shop could not confirm: one open attention item per payment. */
const UNCONFIRMED: readonly ItnOutcome[] = ["unconfirmed", "source_refused"];

export interface ItnRequest {
  rawBody: string;
  sourceIp: string;
  referer: string | null;
  /** Runs before a refused notification is stored; it may throw (the route's rate limit) to store nothing. */
  beforeRefusal?: () => Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VALIDATE_TIMEOUT_MS = 5_000;
/** A refused notification keeps only this much of its body: enough to recognise it, never a store for junk. */
const REFUSED_BODY_PREFIX = 256;

/** The server confirmation (docs/payfast.md §4, check 4): POST the parameter string, expect "VALID". */
export function confirmWithPayfast(config: Config, userAgent: string) {
  const url = payfastValidateUrl(config);
  return async (paramString: string) => {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": userAgent },
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

/**
 * One PayFast notification, start to end. A notification that fails the signature or the source
 * check is `rejected` (the route answers 400, and only its metadata is kept). Every other one is
 * PayFast's word about a real payment: it is recorded with its outcome, and the route answers 200
 * whatever that is, so PayFast stops re-sending it (book-payment.ts holds the outcomes of a
 * COMPLETE one).
 */
export async function processItn(context: ItnContext, request: ItnRequest): Promise<ItnResult> {
  const { db, config } = context;
  const itn: ParsedItn = parseItn(request.rawBody);
  const mPaymentId = itn.data.m_payment_id ?? "";
  const pfPaymentId = itn.data.pf_payment_id?.trim() || null;
  // A nappy plan box's charge is matched by its pf_payment_id first: PayFast may echo an older m_payment_id.
  const chargedOrder = pfPaymentId && itn.data.token ? await orderOfChargedPayment(db, pfPaymentId) : null;
  const orderId = chargedOrder ?? (UUID.test(mPaymentId) ? mPaymentId.toLowerCase() : null);
  const paymentStatus = itn.data.payment_status || null;
  const record: PaymentRecord = {
    via: "itn",
    orderId,
    pfPaymentId,
    paymentStatus,
    amountGross: itn.data.amount_gross ?? null,
    sourceIp: request.sourceIp,
    referer: request.referer,
    rawBody: request.rawBody,
    payfastToken: payfastToken(itn.data.token),
  };
  const finish = async (outcome: ItnOutcome, reason: string | null): Promise<ItnResult> => {
    if (UNCONFIRMED.includes(outcome) && pfPaymentId) {
      // PayFast sends a notification again until it is answered 200: the newest copy stands for them all.
      await db
        .update(payfastItns)
        .set({ resolvedAt: sql`now()` })
        .where(
          and(
            eq(payfastItns.pfPaymentId, pfPaymentId),
            inArray(payfastItns.outcome, [...UNCONFIRMED]),
            isNull(payfastItns.resolvedAt),
          ),
        );
    }
    const booked = await recordPayment(db, record, outcome, reason);
    return { ...booked, orderId, pfPaymentId };
  };
  const reject = async (reason: string): Promise<ItnResult> => {
    await request.beforeRefusal?.();
    const metadataOnly = { ...record, rawBody: request.rawBody.slice(0, REFUSED_BODY_PREFIX) };
    await recordPayment(db, metadataOnly, "rejected", reason);
    return { outcome: "rejected", reason, orderId, pfPaymentId };
  };

  if (!itn.signature) return reject("no signature");
  if (!sameSignature(itnSignature(request.rawBody, config.payfast.passphrase), itn.signature)) {
    return reject("signature mismatch");
  }
  // Signed with our passphrase. From an address we do not know as PayFast's, it may still be
  // PayFast's (its senders move: docs/payfast.md §4): PayFast's own VALID beats an address list.
  let confirmation: { valid: boolean; detail: string } | null = null;
  if (!context.isPayfastSource(request.sourceIp)) {
    confirmation = await context.confirm(itn.paramString);
    if (!confirmation.valid) {
      await request.beforeRefusal?.();
      return finish(
        "source_refused",
        `Sent from ${request.sourceIp}, which is not a PayFast address, and PayFast's confirmation did not say VALID (${confirmation.detail}).`,
      );
    }
  }

  // From here on PayFast signed it: record it whatever it says.
  const complete = paymentStatus === "COMPLETE";
  if (itn.data.merchant_id !== config.payfast.merchantId) {
    const reason = `The payment was made to another PayFast merchant (${JSON.stringify(itn.data.merchant_id ?? "")}).`;
    return finish(complete ? "foreign_merchant" : "ignored", reason);
  }
  // An ad hoc agreement ended in PayFast (by the shopper, the owner, or the shop's own cancel): its plan stops.
  if (paymentStatus === "CANCELLED" && record.payfastToken) {
    const ended = await cancelPlansOfToken(db, record.payfastToken);
    return finish("ignored", `The card agreement was cancelled in PayFast; ${ended} nappy plan(s) cancelled.`);
  }
  const [order] = orderId ? await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)) : [];
  if (!order) {
    const reason = `No order has the reference ${JSON.stringify(mPaymentId.slice(0, 64))}.`;
    return finish(complete ? "unknown_order" : "ignored", reason);
  }

  if (paymentStatus === "FAILED" || paymentStatus === "PENDING") {
    // Noted on an order that still waits for its payment, so the shopper sees it and may retry.
    // PENDING (a slow EFT or voucher) also keeps the order's stock until PayFast finishes.
    const holdUntil = paymentStatus === "PENDING" ? pendingHoldUntil(context.pendingHoldHours) : {};
    if (orderId) {
      await db
        .update(orders)
        .set({ payfastStatus: paymentStatus, payfastStatusAt: sql`now()`, ...holdUntil })
        .where(and(eq(orders.id, orderId), eq(orders.status, "pending")));
    }
    return finish(
      paymentStatus === "FAILED" ? "failed" : "pending",
      paymentStatus === "PENDING" ? `The order keeps its stock for ${context.pendingHoldHours} hours.` : null,
    );
  }
  if (!complete) return finish("ignored", `payment_status ${paymentStatus ?? "(none)"}`);
  if (!pfPaymentId) return finish("ignored", "no pf_payment_id");
  if (await alreadyBooked(db, pfPaymentId)) return finish("duplicate", "pf_payment_id already booked");

  const grossCents = parseRandToCents(itn.data.amount_gross ?? "");
  confirmation ??= await context.confirm(itn.paramString);
  if (!confirmation.valid) {
    // Not booked: the reconciliation job asks PayFast's API about the order again; until then the admin sees it.
    return finish("unconfirmed", `PayFast's confirmation did not say VALID (${confirmation.detail}).`);
  }
  const booked = await bookPayment(
    db,
    { ...record, orderId: orderId as string, pfPaymentId },
    grossCents ?? -1,
    context.config.shop.name,
    documentIssuer(context.config),
  );
  return { ...booked, orderId, pfPaymentId };
}
