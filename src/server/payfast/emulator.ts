import { randomUUID } from "node:crypto";
import { isIP } from "node:net";
import { eq } from "drizzle-orm";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
} from "fastify";
import { formatRand, parseRandToCents } from "#domain/money.js";
import type { Config } from "../platform/config.js";
import type { Database } from "../platform/db/client.js";
import { payfastEmulatorRefunds, payfastEmulatorTokens } from "../platform/db/schema.js";
import { emulatorApiRoutes } from "./emulator-api.js";
import {
  type EmulatedZeroRule,
  emulatedCheckoutSignature,
  emulatedItnParamString,
  postedFieldsBeforeSignature,
} from "./emulator-api-signature.js";
import {
  defaultEmulatorControls,
  type EmulatorControls,
  type LostAnswer,
  type TokenControls,
} from "./emulator-gate.js";
import { type EmulatedStatus, EmulatorNotifier } from "./emulator-notifier.js";
import { renderCardUpdatePage, renderPaymentPage, renderRejectedPage } from "./emulator-page.js";
import { emulatorRefundRoutes } from "./emulator-refunds.js";
import {
  cancelToken,
  type EmulatedToken,
  emulatorTokenRoutes,
  issueToken,
  MINIMUM_AMOUNT_CENTS,
  recurringProblem,
} from "./emulator-tokens.js";

/**
 * A local stand-in for PayFast (local mode only), so a whole purchase runs on one machine with
 * no account, and behaves like PayFast wherever our code could depend on it:
 * - POST /eng/process checks the checkout form like PayFast and shows the payment page, or, when
 *   PAYFAST_EMULATOR_PAYMENT_PORT is set, redirects to it on a second origin, as live PayFast
 *   redirects to payment.payfast.io (so the browser's CSP form-action is exercised);
 * - the payment page's buttons: Complete payment (a signed COMPLETE notification with PayFast's
 *   Referer, then the return_url), Complete payment (notification lost) (the money is taken, no
 *   notification: reconciliation must find it), Payment pending (a PENDING notification; the
 *   COMPLETE one follows on `notifier.settlePending`), Payment fails (a FAILED notification, then
 *   the return_url), and Cancel payment;
 * - a notification not answered 200 is sent again on PayFast's schedule, sped up;
 * - POST /eng/query/validate answers VALID only for notifications it sent;
 * - GET /api/transactions/history: PayFast's API, header signature and all, over the payments it took;
 * - GET /api/refunds/query/{id} and POST /api/refunds/{id}: PayFast's Refunds API, refunds kept in
 *   the database (so a restart keeps them), refusing what PayFast refuses;
 * - controls that make it say no as PayFast has: validation failing, the API down, the other
 *   reading of a zero in the signature, refunds only by bank payout, refunds made in the dashboard.
 * It answers this machine alone (403 EMULATOR_LOCAL_ONLY otherwise): anyone else reaching it could
 * "pay" for an order with a test payment.
 */
export interface PayfastEmulator {
  /** The routes, mounted at /payfast-emulator on the shop (and at / on the second origin). */
  plugin: FastifyPluginAsync;
  notifier: EmulatorNotifier;
  /**
   * Makes the emulated Refunds API refuse the next refunds of a payment with PayFast's error shape
   * and this message (tests: "PayFast's refusal is shown"); null lets them through again.
   */
  refuseRefunds(pfPaymentId: string, message: string | null): void;
  /**
   * PayFast's validate endpoint failing as it has in the field: "403" (an HTML 403 page, as for
   * weeks from August 2025), "timeout" (no answer within the shop's 5 s), "INVALID"; "normal" again.
   */
  failValidation(mode: EmulatorControls["validate"]): void;
  /** PayFast's API down (every call 503) or back up. */
  failApi(down: boolean): void;
  /** How the emulated API treats a zero value in the signature (emulator-api-signature.ts). */
  signZeroValues(rule: EmulatedZeroRule): void;
  /** This payment (Instant EFT and others) can only be refunded to a bank account: its refund query says BANK_PAYOUT. */
  refundsToBankOnly(pfPaymentId: string): void;
  /** An admin refunds in PayFast's dashboard: it shows in the history as PayFast's own refunds do. */
  refundInDashboard(pfPaymentId: string, amountCents: number, reason?: string): Promise<void>;
  /**
   * Every API call refused before its signature is read: "rate_limit" (429 "Signature rate limit
   * reached"), "origin" (401, an IP whitelist's "origin could not be verified"); "none" again.
   */
  refuseApiCalls(refusal: EmulatorControls["apiRefusal"]): void;
  /** The next `count` charges of this token (all, by default, until null) are declined: 200, status success, response `code`. */
  declineCharges(token: string, code: string | null, options?: { message?: string; count?: number }): void;
  /** The card behind this token has expired: its charges are declined with code 54 until cleared by declineCharges(token, null). */
  expireCard(token: string): void;
  /** Puts a token on hold, as PayFast does (its charges answer 400 with response 4). */
  holdToken(token: string): Promise<void>;
  /** The next charge of this token is taken, its HTTP answer is lost ("reset": no answer at all; "503"), its notification sent or lost. */
  loseNextChargeAnswer(token: string, lost: LostAnswer): void;
  /** What happens to token charges' and cancellations' notifications from now on (emulator-tokens.ts, TokenControls). */
  tokenNotifications(mode: TokenControls["notifications"]): void;
  /** Sends the held notifications, oldest first or newest first (out of order). Returns how many. */
  releaseHeldNotifications(order?: "oldest_first" | "newest_first"): Promise<number>;
  /** `data.response` of a successful charge: true (sandbox) or "true" (live, the default). */
  chargeResponseStyle(style: TokenControls["responseStyle"]): void;
  /** The buyer or the merchant cancels the token in PayFast's dashboard: a CANCELLED notification with the token follows. */
  cancelTokenInDashboard(token: string): Promise<void>;
  /** A token as the emulator keeps it, or null. */
  token(token: string): Promise<EmulatedToken | null>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Forms waiting on the second origin's payment page, by the id in its URL. */
interface PendingForm {
  fields: [string, string][];
  expires: number;
}
const PENDING_FORM_TTL_MS = 60 * 60_000;
/** "timeout": the validate endpoint answers only after the shop's 5 s have passed. */
const VALIDATE_HANG_MS = 6_000;

export function createPayfastEmulator(db: Database, config: Config, log: FastifyBaseLogger): PayfastEmulator {
  const notifier = new EmulatorNotifier(db, config, log);
  const controls = defaultEmulatorControls();
  const paymentOrigin = config.payfast.emulatorPaymentOrigin;
  const plugin = emulatorPlugin({ db, config, controls, notifier, pendingForms: new Map(), paymentOrigin });
  let paymentServer: FastifyInstance | null = null;

  return {
    plugin,
    notifier,
    ...paymentControls(db, controls),
    ...tokenControls(db, controls.tokens, notifier),
    async start() {
      notifier.start();
      if (paymentOrigin) {
        // The second origin: a stand-in for payment.payfast.io, on its own port.
        paymentServer = Fastify({ logger: false });
        await paymentServer.register(plugin, { prefix: "" });
        const { hostname, port } = new URL(paymentOrigin);
        await paymentServer.listen({ port: Number(port), host: hostname === "localhost" ? "127.0.0.1" : hostname });
      }
    },
    async close() {
      notifier.stop();
      await paymentServer?.close();
    },
  };
}

/** The emulator's state, shared by both places its routes are mounted. */
interface EmulatorState {
  db: Database;
  config: Config;
  controls: EmulatorControls;
  notifier: EmulatorNotifier;
  pendingForms: Map<string, PendingForm>;
  paymentOrigin: string | undefined;
}

/** The state as one mount of the routes sees it: its pages' forms post to its own prefix. */
interface EmulatorSite extends EmulatorState {
  prefix: string;
}

/** The routes, refused to other machines; what each does is listed above PayfastEmulator. */
function emulatorPlugin(state: EmulatorState): FastifyPluginAsync {
  const { db, config, controls, notifier } = state;
  return async (scope) => {
    refuseOtherMachines(scope);
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
      done(null, body);
    });
    const site: EmulatorSite = { ...state, prefix: scope.prefix };
    registerCheckoutRoutes(scope, site);
    registerPaymentButtons(scope, site);
    registerCardUpdateRoutes(scope, site);
    registerValidateRoute(scope, site);
    emulatorApiRoutes(scope, db, config, controls);
    emulatorRefundRoutes(scope, db, config, controls);
    emulatorTokenRoutes(scope, db, config, controls, notifier);
  };
}

/** 403 EMULATOR_LOCAL_ONLY to anyone but this machine: they could "pay" for an order with a test payment. */
function refuseOtherMachines(scope: FastifyInstance) {
  // request.ip: the client's own address, behind a proxy too (TRUST_PROXY) when there is one.
  scope.addHook("onRequest", async (request, reply) => {
    if (isLoopbackAddress(request.ip)) return;
    request.log.warn({ ip: request.ip }, "PayFast emulator: request from another machine refused");
    return reply.status(403).send({
      message:
        "The local PayFast emulator takes test payments from this machine only. To test payments from elsewhere, use PAYFAST_MODE=sandbox.",
      code: "EMULATOR_LOCAL_ONLY",
    });
  });
}

/** One of the emulator's pages, never cached. */
function html(reply: FastifyReply, status: number, body: string) {
  return reply.status(status).header("cache-control", "no-store").type("text/html; charset=utf-8").send(body);
}

/** PayFast's page for a form it refuses, with a way back to the shop. */
function rejected(reply: FastifyReply, config: Config, problem: string) {
  return html(reply, 400, renderRejectedPage(problem, `${config.publicUrl}/`));
}

/** The payment page for a checked form, its buttons posting to this mount's routes. */
function paymentPage(
  { config, prefix }: EmulatorSite,
  reply: FastifyReply,
  form: { fields: [string, string][]; data: Record<string, string>; declined?: boolean },
) {
  return html(
    reply,
    200,
    renderPaymentPage({
      merchantName: config.shop.name,
      amountText: formatRand(parseRandToCents(form.data.amount ?? "") ?? 0),
      itemName: form.data.item_name ?? "",
      itemDescription: form.data.item_description ?? "",
      email: form.data.email_address ?? "",
      fields: form.fields,
      completeAction: `${prefix}/eng/complete`,
      lostAction: `${prefix}/eng/complete-lost`,
      pendingAction: `${prefix}/eng/pending`,
      failAction: `${prefix}/eng/fail`,
      cancelAction: `${prefix}/eng/cancel`,
      declineAction: `${prefix}/eng/decline`,
      retryAction: `${prefix}/eng/retry`,
      declined: form.declined ?? false,
      cardOnly: Boolean(form.data.subscription_type?.trim()) || form.data.payment_method?.trim() === "cc",
      recurringText: recurringText(form.data),
    }),
  );
}

/** POST /eng/process checks the form, then shows the payment page here or on the second origin. */
function registerCheckoutRoutes(scope: FastifyInstance, site: EmulatorSite) {
  const { config, pendingForms, paymentOrigin, prefix } = site;
  scope.post("/eng/process", async (request, reply) => {
    const form = readForm(request.body);
    const problem = checkoutProblem(form.data, config);
    if (problem) {
      request.log.warn({ problem }, "PayFast emulator: checkout form rejected");
      return rejected(reply, config, problem);
    }
    if (paymentOrigin && prefix !== "") {
      const id = randomUUID();
      const now = Date.now();
      for (const [key, pending] of pendingForms) if (pending.expires < now) pendingForms.delete(key);
      pendingForms.set(id, { fields: form.fields, expires: now + PENDING_FORM_TTL_MS });
      return reply.redirect(`${paymentOrigin}/eng/process/payment/${id}`, 302);
    }
    return paymentPage(site, reply, form);
  });

  scope.get<{ Params: { id: string } }>("/eng/process/payment/:id", async (request, reply) => {
    const pending = pendingForms.get(request.params.id);
    if (!pending || pending.expires < Date.now()) return rejected(reply, config, "This payment request has expired.");
    const data: Record<string, string> = {};
    for (const [key, value] of pending.fields) if (!(key in data)) data[key] = value;
    return paymentPage(site, reply, { fields: pending.fields, data });
  });
}

/** A button that pays: the payment is taken (a paid recurring set-up issues its token), then back to the shop. */
function payButton({ db, config, notifier }: EmulatorSite, options: { lost?: boolean; status?: EmulatedStatus }) {
  return async (request: { body: unknown }, reply: FastifyReply) => {
    const { data } = readForm(request.body);
    const problem = checkoutProblem(data, config);
    if (problem) return rejected(reply, config, problem);
    const notifyUrl = data.notify_url ? shopUrl(data.notify_url, config) : null;
    // A paid recurring billing set-up issues the card token its notification carries.
    const token =
      data.subscription_type?.trim() && (options.status ?? "COMPLETE") === "COMPLETE"
        ? await issueToken(db, config, data, notifyUrl)
        : undefined;
    await notifier.takePayment(data, { notifyUrl, ...options, ...(token ? { token } : {}) });
    return reply.redirect((data.return_url && shopUrl(data.return_url, config)) || `${config.publicUrl}/`, 303);
  };
}

/** The payment page's buttons: complete, complete with the notification lost, fail, pending, decline, cancel. */
function registerPaymentButtons(scope: FastifyInstance, site: EmulatorSite) {
  const { config } = site;
  scope.post("/eng/complete", payButton(site, { lost: false }));
  scope.post("/eng/complete-lost", payButton(site, { lost: true }));
  // A declined card or a failed EFT: PayFast notifies FAILED; the shopper comes back to the shop.
  scope.post("/eng/fail", payButton(site, { status: "FAILED" }));
  // A slow EFT or voucher: PayFast notifies PENDING now and COMPLETE later (notifier.settlePending).
  scope.post("/eng/pending", payButton(site, { status: "PENDING" }));

  // A declined card: PayFast keeps the shopper on its page, to try again or cancel; nothing is notified.
  for (const [path, declined] of [
    ["/eng/decline", true],
    ["/eng/retry", false],
  ] as const) {
    scope.post(path, async (request, reply) => {
      const form = readForm(request.body);
      const problem = checkoutProblem(form.data, config);
      if (problem) return rejected(reply, config, problem);
      return paymentPage(site, reply, { ...form, declined });
    });
  }

  scope.post("/eng/cancel", async (request, reply) => {
    const { data } = readForm(request.body);
    const problem = checkoutProblem(data, config);
    if (problem) return rejected(reply, config, problem);
    return reply.redirect((data.cancel_url && shopUrl(data.cancel_url, config)) || `${config.publicUrl}/`, 303);
  });
}

/**
 * PayFast's card-update page for a recurring agreement: a new (test) card clears the token's
 * declines, and the buyer goes back to the merchant's `return`.
 */
function registerCardUpdateRoutes(scope: FastifyInstance, site: EmulatorSite) {
  const { db, config, controls, prefix } = site;
  const cardUpdateOf = async (token: string) => {
    const [found] = await db.select().from(payfastEmulatorTokens).where(eq(payfastEmulatorTokens.token, token));
    return found && found.status !== "CANCELLED" ? found : null;
  };
  const backTo = (text: string | undefined) => (text && shopUrl(text, config)) || `${config.publicUrl}/`;
  const cardUpdatePage = (reply: FastifyReply, token: string, returnUrl: string, status = 200, problem?: string) =>
    html(
      reply,
      status,
      renderCardUpdatePage({
        merchantName: config.shop.name,
        action: `${prefix}/eng/recurring/update/${encodeURIComponent(token)}`,
        returnUrl,
        ...(problem ? { problem } : {}),
      }),
    );
  scope.get<{ Params: { token: string }; Querystring: { return?: string } }>(
    "/eng/recurring/update/:token",
    async (request, reply) => {
      const returnUrl = backTo(request.query.return);
      if (!(await cardUpdateOf(request.params.token))) {
        return html(reply, 404, renderRejectedPage("This card-update link is not for an active agreement.", returnUrl));
      }
      return cardUpdatePage(reply, request.params.token, returnUrl);
    },
  );
  scope.post<{ Params: { token: string } }>("/eng/recurring/update/:token", async (request, reply) => {
    const { data } = readForm(request.body);
    const returnUrl = backTo(data.return);
    const token = request.params.token;
    if (!(await cardUpdateOf(token))) {
      return html(reply, 404, renderRejectedPage("This card-update link is not for an active agreement.", returnUrl));
    }
    const problem = newCardProblem(data);
    if (problem) return cardUpdatePage(reply, token, returnUrl, 400, problem);
    controls.tokens.declines.delete(token);
    return reply.redirect(returnUrl, 303);
  });
}

/** Why the card-update page refuses the new card (its number, its expiry), or null. */
function newCardProblem(data: Record<string, string>): string | null {
  const digits = (data.card_number ?? "").replace(/[\s-]/g, "");
  const expiry = /^(\d{2})\/(\d{2})$/.exec((data.expiry ?? "").trim());
  const month = expiry ? Number(expiry[1]) : 0;
  const now = new Date();
  const current = (now.getUTCFullYear() % 100) * 12 + now.getUTCMonth() + 1;
  if (!/^\d{12,19}$/.test(digits)) return "Enter a card number of 12 to 19 digits.";
  if (!expiry || month < 1 || month > 12 || Number(expiry[2]) * 12 + month < current) {
    return "Enter an expiry month (MM/YY) that is not past.";
  }
  return null;
}

/** POST /eng/query/validate: VALID only for notifications the emulator sent, unless the controls make it fail. */
function registerValidateRoute(scope: FastifyInstance, { controls, notifier }: EmulatorSite) {
  scope.post("/eng/query/validate", async (request, reply) => {
    if (controls.validate === "403") {
      return html(reply, 403, '<!doctype html><meta charset="utf-8"><title>403</title><h1>403 Forbidden</h1>');
    }
    if (controls.validate === "timeout") await new Promise((resolve) => setTimeout(resolve, VALIDATE_HANG_MS));
    const raw = typeof request.body === "string" ? request.body : "";
    const sent =
      controls.validate === "normal" && (await notifier.sent(emulatedItnParamString(postedFieldsBeforeSignature(raw))));
    return reply.type("text/plain; charset=utf-8").send(sent ? "VALID" : "INVALID");
  });
}

/** The controls that make PayFast's checkout, validation, API and refunds say no as PayFast has. */
function paymentControls(
  db: Database,
  controls: EmulatorControls,
): Pick<
  PayfastEmulator,
  | "refuseRefunds"
  | "failValidation"
  | "failApi"
  | "signZeroValues"
  | "refundsToBankOnly"
  | "refundInDashboard"
  | "refuseApiCalls"
> {
  return {
    refuseRefunds(pfPaymentId, message) {
      if (message === null) controls.refundRefusals.delete(pfPaymentId);
      else controls.refundRefusals.set(pfPaymentId, message);
    },
    failValidation(mode) {
      controls.validate = mode;
    },
    failApi(down) {
      controls.apiDown = down;
    },
    signZeroValues(rule) {
      controls.zeroRule = rule;
    },
    refundsToBankOnly(pfPaymentId) {
      controls.bankPayout.add(pfPaymentId);
    },
    async refundInDashboard(pfPaymentId, amountCents, reason = "Refunded in the PayFast dashboard") {
      await db.insert(payfastEmulatorRefunds).values({ pfPaymentId, amountCents, reason, via: "dashboard" });
    },
    refuseApiCalls(refusal) {
      controls.apiRefusal = refusal;
    },
  };
}

/** The controls over card tokens: declined charges, lost answers, held notifications, the dashboard's cancel. */
function tokenControls(
  db: Database,
  tokens: TokenControls,
  notifier: EmulatorNotifier,
): Omit<PayfastEmulator, keyof ReturnType<typeof paymentControls> | "plugin" | "notifier" | "start" | "close"> {
  async function findToken(token: string): Promise<EmulatedToken | null> {
    const [row] = await db.select().from(payfastEmulatorTokens).where(eq(payfastEmulatorTokens.token, token));
    return row ?? null;
  }
  return {
    declineCharges(token, code, { message = "Your card was not accepted for payment.", count = Infinity } = {}) {
      if (code === null) tokens.declines.delete(token);
      else tokens.declines.set(token, { code, message, remaining: count });
    },
    expireCard(token) {
      tokens.declines.set(token, { code: "54", message: "Expired card", remaining: Infinity });
    },
    async holdToken(token) {
      await db.update(payfastEmulatorTokens).set({ status: "PAUSED" }).where(eq(payfastEmulatorTokens.token, token));
    },
    loseNextChargeAnswer(token, lost) {
      tokens.lostAnswers.set(token, lost);
    },
    tokenNotifications(mode) {
      tokens.notifications = mode;
    },
    async releaseHeldNotifications(order = "oldest_first") {
      const held = tokens.held.splice(0);
      if (order === "newest_first") held.reverse();
      for (const key of held) await notifier.deliver(key);
      return held.length;
    },
    chargeResponseStyle(style) {
      tokens.responseStyle = style;
    },
    async cancelTokenInDashboard(token) {
      const row = await findToken(token);
      if (!row || row.status === "CANCELLED") return;
      await cancelToken(db, notifier, tokens, row, { wait: true });
    },
    token: findToken,
  };
}

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function isLoopbackAddress(ip: string): boolean {
  const address = ip.toLowerCase().startsWith("::ffff:") ? ip.slice(7) : ip;
  return address === "::1" || (isIP(address) === 4 && address.startsWith("127."));
}

function readForm(body: unknown): { fields: [string, string][]; data: Record<string, string> } {
  const fields: [string, string][] = [];
  const data: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(typeof body === "string" ? body : "")) {
    fields.push([key, value]);
    if (!(key in data)) data[key] = value;
  }
  return { fields, data };
}

/** Why PayFast would refuse this checkout form, or null. The URLs must point back at this shop. */
function checkoutProblem(data: Record<string, string>, config: Config): string | null {
  if (data.merchant_id !== config.payfast.merchantId || data.merchant_key !== config.payfast.merchantKey) {
    return "The merchant ID or merchant key does not match this merchant's account.";
  }
  const expected = emulatedCheckoutSignature(data, config.payfast.passphrase);
  if (!data.signature || data.signature.trim().toLowerCase() !== expected) {
    return "Generated signature does not match submitted signature.";
  }
  const cents = parseRandToCents(data.amount ?? "");
  if (cents === null) return "The amount is missing or is not a valid amount.";
  const recurring = recurringProblem(data, config.payfast.passphrase);
  if (recurring) return recurring;
  // R0.00 only sets up a subscription or a card token; anything else is at least R5.00.
  const setUpOnly = Boolean(data.subscription_type?.trim()) && cents === 0;
  if (cents < MINIMUM_AMOUNT_CENTS && !setUpOnly) return "The amount must be at least R5.00.";
  if (!data.item_name?.trim()) return "The item name is required.";
  for (const key of ["return_url", "cancel_url", "notify_url"] as const) {
    const url = data[key];
    if (url && !shopUrl(url, config)) return `The ${key} must point at this shop (${config.publicUrl}).`;
  }
  return null;
}

const FREQUENCY_WORDS: Record<string, string> = {
  "1": "every day",
  "2": "every week",
  "3": "every month",
  "4": "every quarter",
  "5": "every six months",
  "6": "every year",
};

/** What the shopper agrees to for later, in words, or undefined for a one-off payment. */
function recurringText(data: Record<string, string>): string | undefined {
  const type = data.subscription_type?.trim();
  if (type === "2") return "Your card is saved so that the merchant can charge it later (card only).";
  if (type !== "1") return undefined;
  const cents = parseRandToCents(data.recurring_amount?.trim() || data.amount || "") ?? 0;
  const cycles = Number(data.cycles ?? 0);
  const times = cycles > 0 ? `, ${cycles} times` : ", until cancelled";
  return `Then ${formatRand(cents)} ${FREQUENCY_WORDS[data.frequency?.trim() ?? ""] ?? ""}${times} (card only).`;
}

/**
 * The URL, normalised, when it points at this shop (so the emulator never posts or redirects
 * anywhere else); null otherwise. Normalising also drops line breaks, which a header must not hold.
 */
function shopUrl(text: string, config: Config): string | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  const shop = new URL(`${config.publicUrl}/`);
  if (url.origin !== shop.origin || !url.pathname.startsWith(shop.pathname) || url.username || url.password) {
    return null;
  }
  return url.href;
}
