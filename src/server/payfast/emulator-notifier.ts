import { createHash, randomInt } from "node:crypto";
import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { centsToDecimal, parseRandToCents } from "#domain/money.js";
import type { Config } from "../platform/config.js";
import type { Database } from "../platform/db/client.js";
import { payfastEmulatorNotifications, payfastEmulatorPayments } from "../platform/db/schema.js";
import { emulatedItnParamString, emulatedSignedItn, postedFieldsBeforeSignature } from "./emulator-api-signature.js";

/** PayFast's notifications carry a Referer naming a PayFast host (its SDK checks it); so do ours. */
export const EMULATOR_REFERER = "https://www.payfast.co.za/";

/**
 * When PayFast sends a notification again after it got no 200: at once, after ten minutes, then at
 * growing intervals (docs/payfast.md §3). The emulator runs the same schedule 300 times faster, so a test
 * sees the retries in seconds ("at once" is the next sweep, within half a second).
 */
const PAYFAST_RETRY_DELAYS_MS = [0, 10, 30, 60, 180, 360, 720].map((minutes) => minutes * 60_000);
const LOCAL_SPEED_UP = 300;
const RETRY_DELAYS_MS = PAYFAST_RETRY_DELAYS_MS.map((ms) => Math.round(ms / LOCAL_SPEED_UP));
const POLL_MS = 500;
const NOTIFY_TIMEOUT_MS = 15_000;

export type EmulatedStatus = "COMPLETE" | "FAILED" | "PENDING" | "CANCELLED";

/** The recurring billing fields PayFast adds after merchant_id on a tokenized card's notifications. */
export interface TokenFields {
  token: string;
  /** Subscriptions (type 1) only: the next billing date. */
  billingDate?: string | undefined;
}

/** What the emulator needs to know of a checkout form to take its payment. */
export interface CheckoutFields {
  m_payment_id?: string;
  item_name?: string;
  item_description?: string;
  amount?: string;
  name_first?: string;
  name_last?: string;
  email_address?: string;
  notify_url?: string;
  [key: string]: string | undefined;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * The emulator's side of PayFast's notifications: it keeps each payment it took (its transaction
 * history, which the shop's reconciliation reads through the emulated API), posts the signed
 * notification with PayFast's Referer, and re-sends one that was not answered 200 on PayFast's
 * schedule, sped up. State is in the database, so a restart loses no payment and no retry.
 */
export class EmulatorNotifier {
  #timer: NodeJS.Timeout | null = null;
  #sweeping = false;

  constructor(
    private readonly db: Database,
    private readonly config: Config,
    readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.#timer = setInterval(() => void this.sweep(), POLL_MS);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /**
   * Takes a payment for a checkout form and, unless `lost`, notifies the shop at once (awaited:
   * PayFast sends the notification before it redirects the buyer). Returns the pf_payment_id.
   */
  async takePayment(
    fields: CheckoutFields,
    options: {
      status?: EmulatedStatus;
      lost?: boolean;
      notifyUrl: string | null;
      /** A card token the payment set up or was charged to: its notification carries it. */
      token?: TokenFields;
      /** Record the payment and its notification, but leave sending it to the caller (held, duplicated...). */
      deferDelivery?: boolean;
      /** The row's key when it is not a payment of its own (a CANCELLED notification). */
      rowKey?: string;
      pfPaymentId?: string;
    },
  ): Promise<string> {
    const status = options.status ?? "COMPLETE";
    const pfPaymentId = options.pfPaymentId ?? String(randomInt(1_000_000, 100_000_000));
    const grossCents = status === "CANCELLED" ? 0 : (parseRandToCents(fields.amount ?? "") ?? 0);
    const feeCents = -Math.round(grossCents * 0.023);
    const body = this.#itnBody(fields, pfPaymentId, status, grossCents, feeCents, options.token);
    const key = options.rowKey ?? pfPaymentId;
    await this.db.insert(payfastEmulatorPayments).values({
      pfPaymentId: key,
      token: options.token?.token ?? null,
      mPaymentId: fields.m_payment_id ?? "",
      merchantId: this.config.payfast.merchantId,
      status,
      amountCents: grossCents,
      feeCents,
      nameFirst: fields.name_first ?? "",
      nameLast: fields.name_last ?? "",
      itemName: fields.item_name ?? "",
      notifyUrl: options.lost ? null : options.notifyUrl,
      itnBody: body,
    });
    if (!options.lost && options.notifyUrl && !options.deferDelivery) await this.deliver(key);
    return key;
  }

  /** Whether the emulator sent a notification with this parameter string (its validate endpoint's answer). */
  async sent(paramString: string): Promise<boolean> {
    if (!paramString) return false;
    const [row] = await this.db
      .select({ paramHash: payfastEmulatorNotifications.paramHash })
      .from(payfastEmulatorNotifications)
      .where(eq(payfastEmulatorNotifications.paramHash, sha256(paramString)));
    return row !== undefined;
  }

  /**
   * A PENDING payment clears (the slow EFT arrived): PayFast notifies again, COMPLETE, with the
   * same pf_payment_id. Returns the notification's HTTP status, or null.
   */
  async settlePending(pfPaymentId: string): Promise<number | null> {
    const [payment] = await this.db
      .select()
      .from(payfastEmulatorPayments)
      .where(and(eq(payfastEmulatorPayments.pfPaymentId, pfPaymentId), eq(payfastEmulatorPayments.status, "PENDING")));
    if (!payment) return null;
    const fields = Object.fromEntries(postedFieldsBeforeSignature(payment.itnBody));
    const body = this.#itnBody(
      { ...fields, name_first: payment.nameFirst, name_last: payment.nameLast },
      pfPaymentId,
      "COMPLETE",
      payment.amountCents,
      payment.feeCents,
      fields.token ? { token: fields.token, billingDate: fields.billing_date } : undefined,
    );
    await this.db
      .update(payfastEmulatorPayments)
      .set({ status: "COMPLETE", itnBody: body, attempts: 0, deliveredAt: null, nextAttemptAt: null })
      .where(eq(payfastEmulatorPayments.pfPaymentId, pfPaymentId));
    return this.deliver(pfPaymentId);
  }

  /** Sends a payment's notification again, as PayFast may (tests use it for duplicates). */
  async resend(pfPaymentId: string): Promise<number | null> {
    return this.deliver(pfPaymentId, { force: true });
  }

  /** Posts one payment's notification; on anything but 200 schedules the next attempt. Returns the status, or null. */
  async deliver(pfPaymentId: string, { force = false } = {}): Promise<number | null> {
    const [payment] = await this.db
      .select()
      .from(payfastEmulatorPayments)
      .where(eq(payfastEmulatorPayments.pfPaymentId, pfPaymentId));
    if (!payment?.notifyUrl || (payment.deliveredAt && !force)) return null;
    await this.db
      .insert(payfastEmulatorNotifications)
      .values({ paramHash: sha256(emulatedItnParamString(postedFieldsBeforeSignature(payment.itnBody))) })
      .onConflictDoNothing();
    let status: number | null = null;
    try {
      const response = await fetch(payment.notifyUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", referer: EMULATOR_REFERER },
        body: payment.itnBody,
        redirect: "manual",
        signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
      });
      status = response.status;
      await response.body?.cancel();
    } catch (error) {
      this.log.warn({ err: error, pfPaymentId }, "PayFast emulator: could not reach notify_url");
    }
    const attempts = payment.attempts + 1;
    if (status === 200) {
      await this.db
        .update(payfastEmulatorPayments)
        .set({ attempts, deliveredAt: sql`now()`, nextAttemptAt: null })
        .where(eq(payfastEmulatorPayments.pfPaymentId, pfPaymentId));
    } else {
      const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1];
      const giveUp = attempts > RETRY_DELAYS_MS.length;
      this.log.warn({ pfPaymentId, status, attempts, giveUp }, "PayFast emulator: notification not accepted");
      await this.db
        .update(payfastEmulatorPayments)
        .set({ attempts, nextAttemptAt: giveUp ? null : new Date(Date.now() + (delay ?? 0)) })
        .where(eq(payfastEmulatorPayments.pfPaymentId, pfPaymentId));
    }
    return status;
  }

  /** Sends every notification whose next attempt is due. */
  async sweep(): Promise<void> {
    if (this.#sweeping) return;
    this.#sweeping = true;
    try {
      const due = await this.db
        .select({ pfPaymentId: payfastEmulatorPayments.pfPaymentId })
        .from(payfastEmulatorPayments)
        .where(
          and(isNotNull(payfastEmulatorPayments.nextAttemptAt), lte(payfastEmulatorPayments.nextAttemptAt, sql`now()`)),
        )
        .limit(20);
      for (const { pfPaymentId } of due) await this.deliver(pfPaymentId);
    } catch (error) {
      this.log.warn({ err: error }, "PayFast emulator: retry sweep failed");
    } finally {
      this.#sweeping = false;
    }
  }

  /** A notification with the fields, in the order, PayFast sends them (docs/payfast.md §3), signed. */
  #itnBody(
    fields: CheckoutFields,
    pfPaymentId: string,
    status: EmulatedStatus,
    grossCents: number,
    feeCents: number,
    token?: TokenFields,
  ): string {
    const field = (key: string): [string, string] => [key, fields[key]?.trim() ?? ""];
    const recurring: [string, string][] = token
      ? [
          ["token", token.token],
          ...(token.billingDate ? [["billing_date", token.billingDate] as [string, string]] : []),
        ]
      : [];
    return emulatedSignedItn(
      [
        field("m_payment_id"),
        ["pf_payment_id", pfPaymentId],
        ["payment_status", status],
        field("item_name"),
        field("item_description"),
        ["amount_gross", centsToDecimal(grossCents)],
        ["amount_fee", centsToDecimal(feeCents)],
        ["amount_net", centsToDecimal(grossCents + feeCents)],
        ...[1, 2, 3, 4, 5].map((n) => field(`custom_str${n}`)),
        ...[1, 2, 3, 4, 5].map((n) => field(`custom_int${n}`)),
        field("name_first"),
        field("name_last"),
        field("email_address"),
        ["merchant_id", this.config.payfast.merchantId],
        ...recurring,
      ],
      this.config.payfast.passphrase,
    );
  }
}
