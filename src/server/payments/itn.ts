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

/** One notification as read, with the record it is stored as whatever its outcome turns out to be. */
interface Notification {
  context: ItnContext;
  request: ItnRequest;
  itn: ParsedItn;
  mPaymentId: string;
  orderId: string | null;
  pfPaymentId: string | null;
  paymentStatus: string | null;
  record: PaymentRecord;
}

/**
 * One PayFast notification, start to end. A notification that fails the signature or the source
 * check is `rejected` (the route answers 400, and only its metadata is kept). Every other one is
 * PayFast's word about a real payment: it is recorded with its outcome, and the route answers 200
 * whatever that is, so PayFast stops re-sending it (book-payment.ts holds the outcomes of a
 * COMPLETE one).
 */
export async function processItn(context: ItnContext, request: ItnRequest): Promise<ItnResult> {
  const notification = await readNotification(context, request);
  const unsigned = await checkSignature(notification);
  if (unsigned) return unsigned;
  const source = await checkSource(notification);
  if ("refused" in source) return source.refused;
  // From here on PayFast signed it: record it whatever it says.
  const notBookable = await settleUnbookable(notification);
  if (notBookable) return notBookable;
  return confirmAndBook(notification, source.confirmation);
}

/** Reads the notification's order and payment references and the record it is stored as. */
async function readNotification(context: ItnContext, request: ItnRequest): Promise<Notification> {
  const itn: ParsedItn = parseItn(request.rawBody);
  const mPaymentId = itn.data.m_payment_id ?? "";
  const pfPaymentId = itn.data.pf_payment_id?.trim() || null;
  // A nappy plan box's charge is matched by its pf_payment_id first: PayFast may echo an older m_payment_id.
  const chargedOrder = pfPaymentId && itn.data.token ? await orderOfChargedPayment(context.db, pfPaymentId) : null;
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
  return { context, request, itn, mPaymentId, orderId, pfPaymentId, paymentStatus, record };
}

/** Stores a signed notification's outcome; an unconfirmed one replaces the earlier copies' open attention item. */
async function finish(notification: Notification, outcome: ItnOutcome, reason: string | null): Promise<ItnResult> {
  const { context, orderId, pfPaymentId, record } = notification;
  if (UNCONFIRMED.includes(outcome) && pfPaymentId) {
    // PayFast sends a notification again until it is answered 200: the newest copy stands for them all.
    await context.db
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
  const booked = await recordPayment(context.db, record, outcome, reason);
  return { ...booked, orderId, pfPaymentId };
}

/** Stores a refused notification's metadata only: nobody vouched for the rest of it. */
async function reject(notification: Notification, reason: string): Promise<ItnResult> {
  const { context, request, orderId, pfPaymentId, record } = notification;
  await request.beforeRefusal?.();
  const metadataOnly = { ...record, rawBody: request.rawBody.slice(0, REFUSED_BODY_PREFIX) };
  await recordPayment(context.db, metadataOnly, "rejected", reason);
  return { outcome: "rejected", reason, orderId, pfPaymentId };
}

/** Refuses a notification not signed with our passphrase (docs/payfast.md §4); null when it is. */
async function checkSignature(notification: Notification): Promise<ItnResult | null> {
  const { context, request, itn } = notification;
  if (!itn.signature) return reject(notification, "no signature");
  if (!sameSignature(itnSignature(request.rawBody, context.config.payfast.passphrase), itn.signature)) {
    return reject(notification, "signature mismatch");
  }
  return null;
}

/**
 * Signed with our passphrase. From an address we do not know as PayFast's, it may still be
 * PayFast's (its senders move: docs/payfast.md §4): PayFast's own VALID beats an address list.
 * Returns the confirmation it took (null when the address sufficed), or the refusal.
 */
async function checkSource(
  notification: Notification,
): Promise<{ confirmation: { valid: boolean; detail: string } | null } | { refused: ItnResult }> {
  const { context, request, itn } = notification;
  if (context.isPayfastSource(request.sourceIp)) return { confirmation: null };
  const confirmation = await context.confirm(itn.paramString);
  if (confirmation.valid) return { confirmation };
  await request.beforeRefusal?.();
  const refused = await finish(
    notification,
    "source_refused",
    `Sent from ${request.sourceIp}, which is not a PayFast address, and PayFast's confirmation did not say VALID (${confirmation.detail}).`,
  );
  return { refused };
}

/**
 * Records a signed notification that books nothing (another merchant, an ended agreement, no such
 * order, not COMPLETE, a repeat); null for a new COMPLETE payment to book.
 */
async function settleUnbookable(notification: Notification): Promise<ItnResult | null> {
  const { context, itn, mPaymentId, orderId, pfPaymentId, paymentStatus, record } = notification;
  const { db, config } = context;
  const complete = paymentStatus === "COMPLETE";
  if (itn.data.merchant_id !== config.payfast.merchantId) {
    const reason = `The payment was made to another PayFast merchant (${JSON.stringify(itn.data.merchant_id ?? "")}).`;
    return finish(notification, complete ? "foreign_merchant" : "ignored", reason);
  }
  // An ad hoc agreement ended in PayFast (by the shopper, the owner, or the shop's own cancel): its plan stops.
  if (paymentStatus === "CANCELLED" && record.payfastToken) {
    const ended = await cancelPlansOfToken(db, record.payfastToken);
    return finish(
      notification,
      "ignored",
      `The card agreement was cancelled in PayFast; ${ended} nappy plan(s) cancelled.`,
    );
  }
  const [order] = orderId ? await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)) : [];
  if (!order) {
    const reason = `No order has the reference ${JSON.stringify(mPaymentId.slice(0, 64))}.`;
    return finish(notification, complete ? "unknown_order" : "ignored", reason);
  }
  if (paymentStatus === "FAILED" || paymentStatus === "PENDING")
    return noteUnfinishedPayment(notification, paymentStatus);
  if (!complete) return finish(notification, "ignored", `payment_status ${paymentStatus ?? "(none)"}`);
  if (!pfPaymentId) return finish(notification, "ignored", "no pf_payment_id");
  if (await alreadyBooked(db, pfPaymentId)) return finish(notification, "duplicate", "pf_payment_id already booked");
  return null;
}

/**
 * Noted on an order that still waits for its payment, so the shopper sees it and may retry.
 * PENDING (a slow EFT or voucher) also keeps the order's stock until PayFast finishes.
 */
async function noteUnfinishedPayment(
  notification: Notification,
  paymentStatus: "FAILED" | "PENDING",
): Promise<ItnResult> {
  const { context, orderId } = notification;
  const holdUntil = paymentStatus === "PENDING" ? pendingHoldUntil(context.pendingHoldHours) : {};
  if (orderId) {
    await context.db
      .update(orders)
      .set({ payfastStatus: paymentStatus, payfastStatusAt: sql`now()`, ...holdUntil })
      .where(and(eq(orders.id, orderId), eq(orders.status, "pending")));
  }
  return finish(
    notification,
    paymentStatus === "FAILED" ? "failed" : "pending",
    paymentStatus === "PENDING" ? `The order keeps its stock for ${context.pendingHoldHours} hours.` : null,
  );
}

/** A new COMPLETE payment: PayFast confirms it (unless it already did), then it is booked. */
async function confirmAndBook(
  notification: Notification,
  sourceConfirmation: { valid: boolean; detail: string } | null,
): Promise<ItnResult> {
  const { context, itn, orderId, record } = notification;
  const pfPaymentId = notification.pfPaymentId as string;
  const grossCents = parseRandToCents(itn.data.amount_gross ?? "");
  const confirmation = sourceConfirmation ?? (await context.confirm(itn.paramString));
  if (!confirmation.valid) {
    // Not booked: the reconciliation job asks PayFast's API about the order again; until then the admin sees it.
    return finish(notification, "unconfirmed", `PayFast's confirmation did not say VALID (${confirmation.detail}).`);
  }
  const booked = await bookPayment(
    context.db,
    { ...record, orderId: orderId as string, pfPaymentId },
    grossCents ?? -1,
    documentIssuer(context.config),
  );
  return { ...booked, orderId, pfPaymentId };
}
