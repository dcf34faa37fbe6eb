import { randomUUID } from "node:crypto";
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply } from "fastify";
import { centsToDecimal, parseRandToCents } from "#domain/money.js";
import type { Config } from "../platform/config.js";
import type { Database } from "../platform/db/client.js";
import { payfastEmulatorPayments, payfastEmulatorTokens } from "../platform/db/schema.js";
import { apiGate, type EmulatorControls, signedValues, type TokenControls } from "./emulator-gate.js";
import type { EmulatorNotifier } from "./emulator-notifier.js";

/**
 * Card tokens, as PayFast's recurring billing keeps them (docs/payfast.md §10, docs/decisions/049):
 * a checkout with `subscription_type` 1 (PayFast's subscriptions) or 2 (tokenization) that is paid
 * issues a 36-character token, carried by the notification after merchant_id; the Subscriptions API
 * (`/api/subscriptions/{token}/fetch|pause|unpause|cancel|update|adhoc`) acts on it with the same
 * header signature as every API call, checked by the emulator's own code.
 */

export type EmulatedToken = typeof payfastEmulatorTokens.$inferSelect;

/** PayFast's subscription frequencies: 1 daily, 2 weekly, 3 monthly, 4 quarterly, 5 biannually, 6 annually. */
export const SUBSCRIPTION_FREQUENCIES = ["1", "2", "3", "4", "5", "6"];
/** PayFast's minimum for a payment; a subscription or tokenization set-up may also be R0.00. */
export const MINIMUM_AMOUNT_CENTS = 500;

const NOT_VALID_STATE = "The subscription is not in a valid state.";

/** Why PayFast would refuse the recurring billing fields of a checkout form, or null (a plain form: null). */
export function recurringProblem(data: Record<string, string>, passphrase: string | undefined): string | null {
  const type = data.subscription_type?.trim() ?? "";
  const recurringKeys = ["billing_date", "recurring_amount", "frequency", "cycles"].filter((key) => data[key]?.trim());
  if (type === "") {
    return recurringKeys.length > 0 ? `${recurringKeys.join(", ")} needs subscription_type 1 or 2.` : null;
  }
  if (type !== "1" && type !== "2") return "The subscription_type must be 1 (subscription) or 2 (tokenization).";
  if (!passphrase?.trim()) return "A passphrase is required for subscriptions and tokenization.";
  const method = data.payment_method?.trim() ?? "";
  if (method !== "" && method !== "cc") return "Subscriptions and tokenization are paid by credit card only.";
  const billingDate = data.billing_date?.trim() ?? "";
  if (billingDate && !isDate(billingDate)) return "The billing_date must be a date (YYYY-MM-DD).";
  if (type === "2") {
    const scheduled = ["recurring_amount", "frequency", "cycles"].filter((key) => data[key]?.trim());
    return scheduled.length > 0 ? `A tokenization agreement has no ${scheduled.join(", ")}.` : null;
  }
  if (!SUBSCRIPTION_FREQUENCIES.includes(data.frequency?.trim() ?? "")) {
    return "The frequency must be 1 (daily), 2 (weekly), 3 (monthly), 4 (quarterly), 5 (biannually) or 6 (annually).";
  }
  if (!/^\d+$/.test(data.cycles?.trim() ?? "")) return "The cycles must be a whole number (0: until cancelled).";
  const recurring = data.recurring_amount?.trim();
  if (recurring) {
    const cents = parseRandToCents(recurring);
    if (cents === null || cents < MINIMUM_AMOUNT_CENTS) return "The recurring_amount must be at least R5.00.";
  }
  return null;
}

function isDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text));
}

/** Today in South African time (YYYY-MM-DD). */
function sastToday(): string {
  return new Date(Date.now() + 2 * 3_600_000).toISOString().slice(0, 10);
}

/** Issues the token of a paid recurring billing checkout. */
export async function issueToken(
  db: Database,
  config: Config,
  data: Record<string, string>,
  notifyUrl: string | null,
): Promise<{ token: string; billingDate?: string }> {
  const token = randomUUID();
  const type = Number(data.subscription_type);
  const billingDate = type === 1 ? data.billing_date?.trim() || sastToday() : undefined;
  await db.insert(payfastEmulatorTokens).values({
    token,
    merchantId: config.payfast.merchantId,
    subscriptionType: type,
    recurringAmountCents:
      type === 1 ? (parseRandToCents(data.recurring_amount?.trim() || data.amount || "") ?? 0) : null,
    frequency: type === 1 ? Number(data.frequency) : null,
    cycles: type === 1 ? Number(data.cycles) : null,
    runDate: billingDate ?? null,
    mPaymentId: data.m_payment_id?.trim() ?? "",
    itemName: data.item_name?.trim() ?? "",
    nameFirst: data.name_first?.trim() ?? "",
    nameLast: data.name_last?.trim() ?? "",
    emailAddress: data.email_address?.trim() ?? "",
    notifyUrl,
  });
  return billingDate ? { token, billingDate } : { token };
}

/** PayFast's answer shapes: `{ code, status, data: { response, message } }`. */
function answer(reply: FastifyReply, code: number, response: unknown, message?: unknown) {
  return reply.status(code).send({
    code,
    status: code < 300 ? "success" : "failed",
    data: message === undefined ? { response } : { response, message },
  });
}

/** The 400 PayFast gives for a token on hold or cancelled. */
const notValidState = (reply: FastifyReply) => answer(reply, 400, 4, NOT_VALID_STATE);

/**
 * Sends a notification the way the controls say: at once, twice, never, or held for later. Charges'
 * notifications are sent after the API's answer (a charge's notification is not part of it).
 */
export function dispatchNotification(notifier: EmulatorNotifier, controls: TokenControls, key: string): void {
  if (controls.notifications === "held") {
    controls.held.push(key);
    return;
  }
  setImmediate(() => {
    (async () => {
      await notifier.deliver(key);
      if (controls.notifications === "duplicated") await notifier.resend(key);
    })().catch((error: unknown) => {
      // Sent after the API's answer, outside any request: a failure (the database busy) is logged,
      // never an unhandled rejection that would take the shop's process down with its emulator.
      notifier.log.warn({ err: error, key }, "PayFast emulator: a charge's notification was not sent");
    });
  });
}

/** A token's cancellation: PayFast notifies CANCELLED with the token (row `cancel-<token>`). */
export async function cancelToken(
  db: Database,
  notifier: EmulatorNotifier,
  controls: TokenControls,
  token: EmulatedToken,
  { wait }: { wait: boolean },
): Promise<void> {
  await db
    .update(payfastEmulatorTokens)
    .set({ status: "CANCELLED", updatedAt: sql`now()` })
    .where(eq(payfastEmulatorTokens.token, token.token));
  const [setUp] = await db
    .select({ pfPaymentId: payfastEmulatorPayments.pfPaymentId })
    .from(payfastEmulatorPayments)
    .where(and(eq(payfastEmulatorPayments.token, token.token), eq(payfastEmulatorPayments.status, "COMPLETE")))
    .orderBy(asc(payfastEmulatorPayments.createdAt))
    .limit(1);
  const lost = controls.notifications === "lost" || !token.notifyUrl;
  const key = await notifier.takePayment(
    {
      m_payment_id: token.mPaymentId,
      item_name: token.itemName,
      amount: "0.00",
      name_first: token.nameFirst,
      name_last: token.nameLast,
      email_address: token.emailAddress,
    },
    {
      status: "CANCELLED",
      notifyUrl: token.notifyUrl,
      lost,
      token: { token: token.token },
      rowKey: `cancel-${token.token}`,
      ...(setUp ? { pfPaymentId: setUp.pfPaymentId } : {}),
      deferDelivery: true,
    },
  );
  if (lost) return;
  if (wait && controls.notifications === "normal") await notifier.deliver(key);
  else dispatchNotification(notifier, controls, key);
}

type TokenRequest = { Params: { token: string }; Querystring: Record<string, string> };

/** What the Subscriptions API's routes act on: the emulator's tables, the shop's merchant, the controls. */
interface TokenApi {
  db: Database;
  config: Config;
  controls: EmulatorControls;
  tokens: TokenControls;
  notifier: EmulatorNotifier;
}

/**
 * PayFast's Subscriptions API over the emulator's tokens. Every call is signed (header, query and
 * body values); a PUT without a Content-Length header is answered 411, as PayFast's server does.
 */
export function emulatorTokenRoutes(
  app: FastifyInstance,
  db: Database,
  config: Config,
  controls: EmulatorControls,
  notifier: EmulatorNotifier,
) {
  const api: TokenApi = { db, config, controls, tokens: controls.tokens, notifier };
  registerFetchRoute(app, api);
  registerStatusRoutes(app, api);
  registerUpdateRoute(app, api);
  registerAdhocRoute(app, api);
}

/** The gate of every call: signature and controls; then the token of this merchant, or a 404. */
async function tokenFor(
  { db, config, controls }: TokenApi,
  request: { headers: Record<string, string | string[] | undefined>; query: Record<string, string> },
  params: { token: string },
  reply: FastifyReply,
  values: Record<string, string>,
): Promise<EmulatedToken | null> {
  const refused = apiGate(request.headers, { ...request.query, ...values }, config, controls);
  if (refused) {
    reply.status(refused.status).send(refused.body);
    return null;
  }
  const [token] = await db
    .select()
    .from(payfastEmulatorTokens)
    .where(
      and(
        eq(payfastEmulatorTokens.token, params.token),
        eq(payfastEmulatorTokens.merchantId, config.payfast.merchantId),
      ),
    );
  if (!token) {
    answer(reply, 404, false, "Subscription not found.");
    return null;
  }
  return token;
}

/** A PUT's body values, or a reply already sent (411 without Content-Length, 400 for a body that is not an object). */
function putValues(
  request: { headers: Record<string, string | string[] | undefined>; body: unknown },
  reply: FastifyReply,
): Record<string, string> | null {
  if (request.headers["content-length"] === undefined) {
    reply.status(411).type("text/html; charset=utf-8").send("<html><body><h1>411 Length Required</h1></body></html>");
    return null;
  }
  const values = signedValues(request.body ?? {});
  if (values === null) {
    answer(reply, 400, false, "Required variables not present in request");
    return null;
  }
  return values;
}

/** Pause and unpause move a token between ACTIVE and PAUSED, nothing else. */
function setStatus(db: Database, token: string, status: EmulatedToken["status"]) {
  return db
    .update(payfastEmulatorTokens)
    .set({ status, updatedAt: sql`now()` })
    .where(eq(payfastEmulatorTokens.token, token));
}

/** GET fetch: the token's schedule and state, with how many of its payments completed. */
function registerFetchRoute(app: FastifyInstance, api: TokenApi) {
  app.get<TokenRequest>("/api/subscriptions/:token/fetch", async (request, reply) => {
    const token = await tokenFor(api, request, request.params, reply, {});
    if (!token) return reply;
    const [done] = await api.db
      .select({ n: count() })
      .from(payfastEmulatorPayments)
      .where(and(eq(payfastEmulatorPayments.token, token.token), eq(payfastEmulatorPayments.status, "COMPLETE")));
    // PayFast's numeric status beside its text (1 active as its example shows; the others' numbers are not documented).
    const statusNumber = { ACTIVE: 1, CANCELLED: 2, PAUSED: 3 }[token.status];
    return answer(reply, 200, {
      token: token.token,
      amount: token.recurringAmountCents ?? 0,
      cycles: token.cycles ?? 0,
      cycles_complete: done?.n ?? 0,
      frequency: token.frequency ?? 0,
      run_date: token.runDate ?? "",
      status: statusNumber,
      status_reason: "",
      status_text: token.status,
    });
  });
}

/** PUT pause, unpause and cancel: each only from the state it leaves, else PayFast's "not in a valid state". */
function registerStatusRoutes(app: FastifyInstance, api: TokenApi) {
  app.put<TokenRequest>("/api/subscriptions/:token/pause", async (request, reply) => {
    const values = putValues(request, reply);
    if (!values) return reply;
    const token = await tokenFor(api, request, request.params, reply, values);
    if (!token) return reply;
    if (values.cycles !== undefined && !/^\d+$/.test(values.cycles)) {
      return answer(reply, 400, false, "The cycles must be a whole number.");
    }
    if (token.status !== "ACTIVE") return notValidState(reply);
    await setStatus(api.db, token.token, "PAUSED");
    return answer(reply, 200, true);
  });

  app.put<TokenRequest>("/api/subscriptions/:token/unpause", async (request, reply) => {
    const values = putValues(request, reply);
    if (!values) return reply;
    const token = await tokenFor(api, request, request.params, reply, values);
    if (!token) return reply;
    if (token.status !== "PAUSED") return notValidState(reply);
    await setStatus(api.db, token.token, "ACTIVE");
    return answer(reply, 200, true);
  });

  app.put<TokenRequest>("/api/subscriptions/:token/cancel", async (request, reply) => {
    const values = putValues(request, reply);
    if (!values) return reply;
    const token = await tokenFor(api, request, request.params, reply, values);
    if (!token) return reply;
    if (token.status === "CANCELLED") return notValidState(reply);
    await cancelToken(api.db, api.notifier, api.tokens, token, { wait: false });
    return answer(reply, 200, true);
  });
}

/** PATCH update: a subscription's schedule (cycles, frequency, run_date, amount); a tokenization has none. */
function registerUpdateRoute(app: FastifyInstance, api: TokenApi) {
  app.patch<TokenRequest>("/api/subscriptions/:token/update", async (request, reply) => {
    const values = signedValues(request.body ?? {});
    if (values === null) return answer(reply, 400, false, "Required variables not present in request");
    const token = await tokenFor(api, request, request.params, reply, values);
    if (!token) return reply;
    if (token.subscriptionType !== 1) {
      return answer(reply, 400, false, "A tokenization agreement has no schedule to update.");
    }
    if (token.status === "CANCELLED") return notValidState(reply);
    const { cycles, frequency, run_date: runDate, amount } = values;
    if ([cycles, frequency, runDate, amount].every((value) => value === undefined)) {
      return answer(reply, 400, false, "At least one of cycles, frequency, run_date or amount is required.");
    }
    if (cycles !== undefined && !/^\d+$/.test(cycles)) return answer(reply, 400, false, "Invalid cycles.");
    if (frequency !== undefined && !SUBSCRIPTION_FREQUENCIES.includes(frequency)) {
      return answer(reply, 400, false, "Invalid frequency.");
    }
    if (runDate !== undefined && !isDate(runDate)) return answer(reply, 400, false, "Invalid run_date.");
    if (amount !== undefined && !(/^\d+$/.test(amount) && Number(amount) >= MINIMUM_AMOUNT_CENTS)) {
      return answer(reply, 400, false, "The amount must be a whole number of cents, at least 500.");
    }
    await api.db
      .update(payfastEmulatorTokens)
      .set({
        ...(cycles !== undefined ? { cycles: Number(cycles) } : {}),
        ...(frequency !== undefined ? { frequency: Number(frequency) } : {}),
        ...(runDate !== undefined ? { runDate } : {}),
        ...(amount !== undefined ? { recurringAmountCents: Number(amount) } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(payfastEmulatorTokens.token, token.token));
    return answer(reply, 200, true);
  });
}

/** An ad hoc charge's fields, trimmed as PayFast reads them. */
function adhocFields(values: Record<string, string>) {
  return {
    amount: values.amount ?? "",
    itemName: (values.item_name ?? "").trim(),
    itemDescription: (values.item_description ?? "").trim(),
    mPaymentId: (values.m_payment_id ?? "").trim(),
  };
}

/** Why PayFast would refuse an ad hoc charge's fields, or null. */
function adhocProblem({ amount, itemName, itemDescription, mPaymentId }: ReturnType<typeof adhocFields>) {
  if (!/^\d+$/.test(amount) || Number(amount) < MINIMUM_AMOUNT_CENTS) {
    return "The amount must be a whole number of cents, at least 500 (R5.00).";
  }
  if (itemName === "" || Array.from(itemName).length > 100) {
    return "The item_name is required (at most 100 characters).";
  }
  if (Array.from(itemDescription).length > 255) return "The item_description is at most 255 characters.";
  if (Array.from(mPaymentId).length > 100) return "The m_payment_id is at most 100 characters.";
  return null;
}

/** POST adhoc: charges a tokenization agreement's card, unless the controls decline it. */
function registerAdhocRoute(app: FastifyInstance, api: TokenApi) {
  const { tokens } = api;
  app.post<TokenRequest>("/api/subscriptions/:token/adhoc", async (request, reply) => {
    const values = signedValues(request.body ?? {});
    if (values === null) return answer(reply, 400, false, "Required variables not present in request");
    const token = await tokenFor(api, request, request.params, reply, values);
    if (!token) return reply;
    if (token.subscriptionType !== 2) {
      return answer(reply, 400, false, "Ad hoc charges are for tokenization agreements (subscription_type 2).");
    }
    const fields = adhocFields(values);
    const problem = adhocProblem(fields);
    if (problem) return answer(reply, 400, false, problem);
    if (token.status !== "ACTIVE") return notValidState(reply);

    const decline = tokens.declines.get(token.token);
    if (decline) {
      decline.remaining -= 1;
      if (decline.remaining <= 0) tokens.declines.delete(token.token);
      return answer(reply, 200, decline.code, `${decline.message} (${decline.code})`);
    }
    return chargeToken(api, token, values, fields, reply);
  });
}

/**
 * The charge itself: a COMPLETE payment whose notification follows the answer (or is lost), and
 * the answer as the controls say (PayFast's success, a 503, or the connection reset).
 */
async function chargeToken(
  { notifier, tokens }: TokenApi,
  token: EmulatedToken,
  values: Record<string, string>,
  { amount, itemName, itemDescription, mPaymentId }: ReturnType<typeof adhocFields>,
  reply: FastifyReply,
) {
  const lostAnswer = tokens.lostAnswers.get(token.token);
  if (lostAnswer) tokens.lostAnswers.delete(token.token);
  const wantsItn = values.itn === undefined || (values.itn !== "0" && values.itn.toLowerCase() !== "false");
  const notificationLost = !wantsItn || tokens.notifications === "lost" || lostAnswer?.notification === "lost";
  const key = await notifier.takePayment(
    {
      // Without m_payment_id PayFast echoes the set-up payment's on the notification.
      m_payment_id: mPaymentId || token.mPaymentId,
      item_name: itemName,
      item_description: itemDescription,
      amount: centsToDecimal(Number(amount)),
      name_first: token.nameFirst,
      name_last: token.nameLast,
      email_address: token.emailAddress,
    },
    { notifyUrl: token.notifyUrl, lost: notificationLost, token: { token: token.token }, deferDelivery: true },
  );
  if (!notificationLost && token.notifyUrl) dispatchNotification(notifier, tokens, key);
  if (lostAnswer?.answer === "503") {
    return reply
      .status(503)
      .type("text/html; charset=utf-8")
      .send("<html><body><h1>503 Service Unavailable</h1></body></html>");
  }
  if (lostAnswer?.answer === "reset") {
    reply.hijack();
    reply.raw.destroy();
    return;
  }
  return reply.status(200).send({
    code: 200,
    status: "success",
    data: {
      response: tokens.responseStyle === "sandbox" ? true : "true",
      message: "Transaction was successful (00)",
      pf_payment_id: key,
    },
  });
}
