import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import { parseRandToCents } from "#domain/money.js";
import type { Config } from "../platform/config.js";
import { phpUrlencode } from "./signature.js";
import { payfastUserAgent } from "./user-agent.js";

/**
 * PayFast's API (docs/payfast.md §7, "PayFast's API"): every call carries the headers merchant-id,
 * version and timestamp, and a signature over those headers, the query and body values and the
 * passphrase, sorted alphabetically by key. In local mode the base URL is the emulator's.
 */

export const API_VERSION = "v1";

/**
 * What happens to a value PHP calls empty ("" and "0", such as `notify_buyer=0`): PayFast's
 * documented PHP (`ksort` then `http_build_query`) and its SDK sign it ("signed"); the
 * documentation's prose says "non-empty" variables, which in PHP's sense leaves it out
 * ("left_out"). Which one PayFast's server applies is not documented: the client signs as the
 * documented code does, and on a 401 (nothing happened) asks once more the other way
 * (docs/decisions/021).
 */
export type ZeroRule = "signed" | "left_out";

/** MD5 over `key=urlencode(value)` of every field plus the passphrase, keys sorted alphabetically. */
export function apiSignature(
  fields: Readonly<Record<string, string>>,
  passphrase: string,
  zeroRule: ZeroRule = "signed",
): string {
  const all: Record<string, string> = { ...fields, passphrase };
  delete all.signature;
  delete all.testing;
  const paramString = Object.keys(all)
    .sort()
    .filter((key) => zeroRule === "signed" || (all[key] !== "" && all[key] !== "0"))
    .map((key) => `${key}=${phpUrlencode(all[key] ?? "")}`)
    .join("&");
  return createHash("md5").update(paramString, "utf8").digest("hex");
}

/** ISO-8601 in South African time with its offset ("2026-01-05T12:00:01+02:00"), as PayFast's examples show. */
export function payfastTimestamp(now: Date): string {
  const sast = new Date(now.getTime() + 2 * 3_600_000);
  return `${sast.toISOString().slice(0, 19)}+02:00`;
}

/** A day in South African time (YYYY-MM-DD), as the history's from/to take it. */
export function sastDate(when: Date): string {
  return payfastTimestamp(when).slice(0, 10);
}

/** One row of PayFast's transaction history, as reconciliation needs it. */
export interface HistoryRow {
  type: string;
  sign: string;
  mPaymentId: string;
  pfPaymentId: string;
  /** Gross in cents; null when the cell is not an amount. */
  grossCents: number | null;
  gross: string;
}

export class PayfastApiError extends Error {
  override name = "PayfastApiError";
  /** PayFast's HTTP status, when it answered at all. */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/**
 * Reads the history's CSV. PayFast answers the CSV itself or wrapped as `{"response": "<csv>"}`
 * (seen in integrations); anything else throws, so "PayFast did not answer properly" is never
 * read as "no payment".
 */
export function parseHistory(body: string): HistoryRow[] {
  let csv = body;
  const trimmed = body.trim();
  if (trimmed.startsWith("{")) {
    const json = JSON.parse(trimmed) as { response?: unknown; data?: { response?: unknown } };
    const inner = typeof json.response === "string" ? json.response : json.data?.response;
    if (typeof inner !== "string") throw new PayfastApiError("transaction history: JSON without a CSV");
    csv = inner;
  }
  const records = parse(csv, {
    columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
  }) as Record<string, string>[];
  if (records.length > 0 && !("m payment id" in (records[0] ?? {}))) {
    throw new PayfastApiError("transaction history: not the transaction CSV");
  }
  if (records.length === 0 && !/m payment id/i.test(csv)) {
    throw new PayfastApiError("transaction history: not the transaction CSV");
  }
  return records.map((record) => {
    const gross = (record.gross ?? "").replaceAll(",", "");
    const negative = gross.startsWith("-");
    const cents = parseRandToCents(negative ? gross.slice(1) : gross);
    return {
      type: (record.type ?? "").toUpperCase(),
      sign: (record.sign ?? "").toUpperCase(),
      mPaymentId: record["m payment id"] ?? "",
      pfPaymentId: record["pf payment id"] ?? "",
      grossCents: cents === null ? null : negative ? -cents : cents,
      gross: record.gross ?? "",
    };
  });
}

/** What PayFast's refund query says of a payment (GET /refunds/query/{pf_payment_id}). */
export interface RefundQuery {
  /** REFUNDABLE, COMPLETED (nothing left) or NOT_AVAILABLE (errors say why). */
  status: string;
  originalCents: number;
  availableCents: number;
  errors: string[];
  /** PAYMENT_SOURCE, BANK_PAYOUT or NOT_AVAILABLE. */
  fullMethod: string;
  partialMethod: string;
}

/** PayFast took the refund, or refused it with its reason; anything else throws (the outcome is unknown). */
export type RefundOutcome = { ok: true } | { ok: false; message: string };

/**
 * What an ad hoc charge of a card token came to (POST /subscriptions/{token}/adhoc). PayFast has no
 * idempotency key: "unknown" (no answer, 5xx, 401, 429, an answer we cannot read, any other
 * refusal) means the card may or may not have been charged; it is settled from the transaction
 * history (the charge's m_payment_id), never by charging again.
 */
export type AdhocOutcome =
  /** HTTP 200, data.response true (sandbox) or "true" (live). pfPaymentId is "" when the answer carries none (the notification does). */
  | { kind: "paid"; pfPaymentId: string; message: string }
  /** HTTP 200 with status "success" and data.response a bank code such as "05": the card was not charged. */
  | { kind: "declined"; code: string; message: string }
  /** HTTP 400 with data.response 4: the token is on hold or cancelled, nothing was charged. */
  | { kind: "not_valid_state"; message: string }
  | { kind: "unknown"; message: string };

/** A token's agreement as PayFast's fetch describes it (GET /subscriptions/{token}/fetch). */
export interface SubscriptionInfo {
  token: string;
  status: "active" | "paused" | "cancelled" | "other";
  /** PayFast's own words for the status ("ACTIVE", "PAUSED", "CANCELLED"...). */
  statusText: string;
  raw: Record<string, unknown>;
}

export interface PayfastApi {
  /** GET /ping: resolves when PayFast's API answers with our signature accepted; throws otherwise. */
  ping(): Promise<void>;
  /** Every transaction between two South African dates (inclusive). */
  transactionHistory(from: string, to: string): Promise<HistoryRow[]>;
  refundQuery(pfPaymentId: string): Promise<RefundQuery>;
  createRefund(pfPaymentId: string, refund: { amountCents: number; reason: string }): Promise<RefundOutcome>;
  /** POST /subscriptions/{token}/adhoc: charges the card behind a token; never throws. */
  chargeToken(
    token: string,
    charge: { amountCents: number; itemName: string; mPaymentId: string },
  ): Promise<AdhocOutcome>;
  /** GET /subscriptions/{token}/fetch; throws PayfastApiError when PayFast's answer is not a subscription. */
  fetchSubscription(token: string): Promise<SubscriptionInfo>;
  /** PUT /subscriptions/{token}/cancel; "already_cancelled" when PayFast shows it cancelled; throws otherwise. */
  cancelSubscription(token: string): Promise<"cancelled" | "already_cancelled">;
  /** PUT /subscriptions/{token}/pause (PayFast's default: one cycle; a token's charges are refused while it is paused). */
  pauseSubscription(token: string): Promise<void>;
  /** PUT /subscriptions/{token}/unpause. */
  unpauseSubscription(token: string): Promise<void>;
}

type HttpMethod = "GET" | "POST" | "PUT" | "PATCH";

/** PayFast's `data` object of an answer, or null when the body is not PayFast's JSON. */
function answerData(text: string): { json: Record<string, unknown>; data: Record<string, unknown> } | null {
  try {
    const json = parseJson(text);
    const data = json.data;
    return { json, data: typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {} };
  } catch {
    return null;
  }
}

/** A charge's answer read as PayFast documents it, the sandbox's boolean and live's "true" alike. */
export function readAdhocAnswer(status: number, text: string): AdhocOutcome {
  const said = answerData(text);
  const message = payfastMessage(text);
  if (!said)
    return { kind: "unknown", message: `PayFast answered ${status} with no JSON: ${text.trim().slice(0, 200)}` };
  const response = said.data.response;
  const saidMessage = typeof said.data.message === "string" ? said.data.message : message;
  if (status >= 200 && status < 300) {
    if (response === true || response === "true") {
      const id = said.data.pf_payment_id;
      return {
        kind: "paid",
        pfPaymentId: typeof id === "string" || typeof id === "number" ? String(id) : "",
        message: saidMessage,
      };
    }
    if (said.json.status === "success" && (typeof response === "string" || typeof response === "number")) {
      return { kind: "declined", code: String(response), message: saidMessage };
    }
    return { kind: "unknown", message: `PayFast answered ${status} without an outcome: ${message}` };
  }
  if (status === 400 && (response === 4 || response === "4")) return { kind: "not_valid_state", message: saidMessage };
  return { kind: "unknown", message: `PayFast answered ${status}: ${message}` };
}

/** PayFast's status text of an agreement, in the shop's words. */
function subscriptionStatus(text: string): SubscriptionInfo["status"] {
  const word = text.trim().toUpperCase();
  if (word === "ACTIVE") return "active";
  if (word === "PAUSED") return "paused";
  if (word === "CANCELLED" || word === "CANCELED") return "cancelled";
  return "other";
}

/** PayFast answers `{ code, status, data: { response, message } }`, or (the refund query) the object itself. */
function parseJson(text: string): Record<string, unknown> {
  const json: unknown = JSON.parse(text);
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new PayfastApiError("not a JSON object");
  return json as Record<string, unknown>;
}

/** PayFast's reason in an error answer: data.message, data.response or the status, as its API documents them. */
export function payfastMessage(text: string): string {
  try {
    const json = parseJson(text);
    const data = (json.data ?? {}) as Record<string, unknown>;
    for (const candidate of [data.message, data.response, json.message, json.status]) {
      if (typeof candidate === "string" && candidate.trim()) return candidate.trim().slice(0, 300);
    }
  } catch {}
  return text.trim().slice(0, 300) || "PayFast refused the refund without a reason.";
}

function toRefundQuery(text: string): RefundQuery {
  let json = parseJson(text);
  const data = json.data as Record<string, unknown> | undefined;
  if (data && typeof data.response === "object" && data.response !== null)
    json = data.response as Record<string, unknown>;
  const cents = (value: unknown) => {
    const number = typeof value === "string" ? Number(value) : value;
    if (typeof number !== "number" || !Number.isInteger(number)) throw new PayfastApiError("refund query: no amount");
    return number;
  };
  const method = (value: unknown) =>
    typeof value === "object" && value !== null && typeof (value as { method?: unknown }).method === "string"
      ? (value as { method: string }).method
      : "NOT_AVAILABLE";
  return {
    status: typeof json.status === "string" ? json.status : "NOT_AVAILABLE",
    originalCents: cents(json.amount_original),
    availableCents: cents(json.amount_available_for_refund),
    errors: Array.isArray(json.errors) ? json.errors.filter((error): error is string => typeof error === "string") : [],
    fullMethod: method(json.refund_full),
    partialMethod: method(json.refund_partial),
  };
}

const PAGE = 1000;
const TIMEOUT_MS = 15_000;

export function payfastApiClient(config: Config, options: { fetch?: typeof fetch; now?: () => Date } = {}): PayfastApi {
  const api = signedCaller(config, options);
  return {
    async ping() {
      await get(api, "/ping", {});
    },
    transactionHistory: (from, to) => transactionHistory(api, from, to),
    async refundQuery(pfPaymentId) {
      return toRefundQuery(await get(api, `/refunds/query/${encodeURIComponent(pfPaymentId)}`, {}));
    },
    createRefund: (pfPaymentId, refund) => createRefund(api, pfPaymentId, refund),
    chargeToken: (token, charge) => chargeToken(api, token, charge),
    fetchSubscription: (token) => fetchSubscription(api, token),
    cancelSubscription: (token) => cancelSubscription(api, token),
    pauseSubscription: (token) => changeState(api, token, "pause"),
    unpauseSubscription: (token) => changeState(api, token, "unpause"),
  };
}

/** A call's query and JSON body: both go into the signature. */
type CallValues = { query?: Record<string, string>; body?: Record<string, string | number> };

/** How the client's calls reach PayFast: signed, with the zero rule it has learned so far. */
interface SignedCaller {
  /** A signed call, asked once more the other way on a 401 about a zero (see signedCaller). */
  call(method: HttpMethod, path: string, values?: CallValues): Promise<{ status: number; text: string }>;
  /** A call whose answer must be 2xx; otherwise PayfastApiError with PayFast's own words (its 401 text too). */
  expectOk(method: HttpMethod, path: string, values?: CallValues): Promise<string>;
}

/** What every request is signed and sent with: the merchant's account, PayFast's address, the clock and fetch. */
type Endpoint = Pick<Config["payfast"], "merchantId" | "passphrase" | "apiUrl" | "apiTesting"> & {
  send: typeof fetch;
  now: () => Date;
  userAgent: string;
};

/**
 * A signed call. When PayFast answers 401 "Merchant authorisation failed" (it did nothing) to a
 * call that carries a value PHP calls empty ("0", "": `notify_buyer=0`), the two readings of
 * PayFast's rule give different signatures: the call is made once more the other way, and that
 * reading is kept for the next calls only when PayFast answered it 2xx (a 404, a 429 "Signature
 * rate limit reached" or another 401 proves nothing about the signature). A 401 that is not about
 * the signature (an IP whitelist's "origin could not be verified") is not asked again.
 */
function signedCaller(config: Config, options: { fetch?: typeof fetch; now?: () => Date }): SignedCaller {
  const { merchantId, passphrase, apiUrl, apiTesting } = config.payfast;
  const endpoint: Endpoint = {
    send: options.fetch ?? fetch,
    now: options.now ?? (() => new Date()),
    merchantId,
    passphrase,
    apiUrl,
    apiTesting,
    userAgent: payfastUserAgent(config.shop.name, config.publicUrl),
  };
  /** How a zero is signed: as PayFast's documented code does, until PayFast answers 401 to it and 2xx the other way. */
  let zeroRule: ZeroRule = "signed";

  async function call(
    method: HttpMethod,
    path: string,
    { query = {}, body }: CallValues = {},
  ): Promise<{ status: number; text: string }> {
    const first = await signedRequest(endpoint, method, path, query, body, zeroRule);
    const values = [...Object.values(query), ...Object.values(body ?? {}).map(String)];
    if (first.status !== 401 || !values.some((value) => value === "" || value === "0")) return first;
    if (!/authori[sz]ation failed/i.test(payfastMessage(first.text))) return first;
    const other: ZeroRule = zeroRule === "signed" ? "left_out" : "signed";
    const second = await signedRequest(endpoint, method, path, query, body, other);
    if (second.status >= 200 && second.status < 300) zeroRule = other;
    return second;
  }

  async function expectOk(method: HttpMethod, path: string, values: CallValues = {}): Promise<string> {
    const { status, text } = await call(method, path, values);
    if (status < 200 || status >= 300)
      throw new PayfastApiError(`${method} ${path} answered ${status}: ${payfastMessage(text)}`, status);
    return text;
  }

  return { call, expectOk };
}

/** One signed request: the headers, the query and the JSON body's values go into the signature. */
async function signedRequest(
  endpoint: Endpoint,
  method: HttpMethod,
  path: string,
  query: Record<string, string>,
  body: Record<string, string | number> | undefined,
  rule: ZeroRule,
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {
    "merchant-id": endpoint.merchantId,
    version: API_VERSION,
    timestamp: payfastTimestamp(endpoint.now()),
  };
  const bodyValues = Object.fromEntries(Object.entries(body ?? {}).map(([key, value]) => [key, String(value)]));
  headers.signature = apiSignature({ ...headers, ...query, ...bodyValues }, endpoint.passphrase ?? "", rule);
  headers["user-agent"] = endpoint.userAgent;
  if (body) headers["content-type"] = "application/json";
  const url = new URL(`${endpoint.apiUrl.replace(/\/+$/, "")}${path}`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  if (endpoint.apiTesting) url.searchParams.set("testing", "true");
  // A PUT or PATCH without a body still says Content-Length: 0 (PayFast answers 411 otherwise); empty
  // bytes, not "", which fetch would label text/plain.
  const payload = body ? JSON.stringify(body) : method === "PUT" || method === "PATCH" ? new Uint8Array(0) : undefined;
  const response = await endpoint.send(url, {
    method,
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: response.status, text: await response.text() };
}

/** A GET whose answer must be 2xx. */
async function get(api: SignedCaller, path: string, query: Record<string, string>): Promise<string> {
  return api.expectOk("GET", path, { query });
}

/** Every transaction between two South African dates (inclusive), page by page. */
async function transactionHistory(api: SignedCaller, from: string, to: string): Promise<HistoryRow[]> {
  const rows: HistoryRow[] = [];
  for (let offset = 0; ; offset += PAGE) {
    // No offset=0 on the first page: a zero is signed two ways (ZeroRule), so none is sent.
    const query = { from, to, limit: String(PAGE), ...(offset > 0 ? { offset: String(offset) } : {}) };
    const page = parseHistory(await get(api, "/transactions/history", query));
    rows.push(...page);
    if (page.length < PAGE) return rows;
  }
}

/** POST /refunds/{id}: PayFast's refusal is an outcome; a 401 or 5xx throws (the refund's outcome is not known). */
async function createRefund(
  api: SignedCaller,
  pfPaymentId: string,
  { amountCents, reason }: { amountCents: number; reason: string },
): Promise<RefundOutcome> {
  // notify_buyer 0: the shop sends its own message, with the credit note (mail/templates/order-refunded.tsx).
  const body = { amount: amountCents, reason, notify_buyer: 0 };
  const path = `/refunds/${encodeURIComponent(pfPaymentId)}`;
  const { status, text } = await api.call("POST", path, { body });
  if (status >= 200 && status < 300) {
    // PayFast's answers carry their own status: a 200 that says "failed" is still a refusal.
    const said = (() => {
      try {
        return parseJson(text);
      } catch {
        return {};
      }
    })();
    const data = (said.data ?? {}) as Record<string, unknown>;
    if (said.status === "failed" || data.response === false) return { ok: false, message: payfastMessage(text) };
    return { ok: true };
  }
  // 401 is our own signature or account, 5xx PayFast's failure: the refund's outcome is not known.
  if (status === 401 || status >= 500) {
    throw new PayfastApiError(`POST /refunds answered ${status}: ${payfastMessage(text)}`);
  }
  return { ok: false, message: payfastMessage(text) };
}

const tokenPath = (token: string, action: string) => `/subscriptions/${encodeURIComponent(token)}/${action}`;

/** POST adhoc: any failure to get an answer is "unknown", never a throw (the card may have been charged). */
async function chargeToken(
  api: SignedCaller,
  token: string,
  { amountCents, itemName, mPaymentId }: { amountCents: number; itemName: string; mPaymentId: string },
): Promise<AdhocOutcome> {
  // m_payment_id always: without it PayFast may echo an older payment's on the notification.
  const body = { amount: amountCents, item_name: itemName, m_payment_id: mPaymentId };
  try {
    const { status, text } = await api.call("POST", tokenPath(token, "adhoc"), { body });
    return readAdhocAnswer(status, text);
  } catch (error) {
    return { kind: "unknown", message: `No answer from PayFast: ${(error as Error).message}` };
  }
}

/** pause and unpause: 2xx with data.response true, else PayfastApiError with PayFast's reason. */
async function changeState(api: SignedCaller, token: string, action: "pause" | "unpause"): Promise<void> {
  const text = await api.expectOk("PUT", tokenPath(token, action));
  const said = answerData(text);
  if (said?.data.response !== true && said?.data.response !== "true") {
    throw new PayfastApiError(`PUT ${action} was not done: ${payfastMessage(text)}`);
  }
}

/** GET fetch: the agreement's status in the shop's words, with PayFast's own answer. */
async function fetchSubscription(api: SignedCaller, token: string): Promise<SubscriptionInfo> {
  const text = await api.expectOk("GET", tokenPath(token, "fetch"));
  const response = answerData(text)?.data.response;
  if (typeof response !== "object" || response === null || Array.isArray(response)) {
    throw new PayfastApiError(`GET fetch: not a subscription: ${payfastMessage(text)}`);
  }
  const raw = response as Record<string, unknown>;
  const statusText = typeof raw.status_text === "string" ? raw.status_text : "";
  return {
    token: typeof raw.token === "string" ? raw.token : token,
    status: subscriptionStatus(statusText),
    statusText,
    raw,
  };
}

/** PUT cancel; a 400 is "already cancelled" only when PayFast's fetch shows it so. */
async function cancelSubscription(api: SignedCaller, token: string): Promise<"cancelled" | "already_cancelled"> {
  const { status, text } = await api.call("PUT", tokenPath(token, "cancel"));
  const said = answerData(text);
  if (status >= 200 && status < 300 && (said?.data.response === true || said?.data.response === "true")) {
    return "cancelled";
  }
  // PayFast refuses to cancel what is no longer active: ask it whether that is because it is cancelled.
  if (status === 400) {
    const info = await fetchSubscription(api, token);
    if (info.status === "cancelled") return "already_cancelled";
  }
  throw new PayfastApiError(`PUT cancel answered ${status}: ${payfastMessage(text)}`, status);
}
