import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import { parseRandToCents } from "#domain/money.js";
import type { Config } from "../config.js";
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

export interface PayfastApi {
  /** GET /ping: resolves when PayFast's API answers with our signature accepted; throws otherwise. */
  ping(): Promise<void>;
  /** Every transaction between two South African dates (inclusive). */
  transactionHistory(from: string, to: string): Promise<HistoryRow[]>;
  refundQuery(pfPaymentId: string): Promise<RefundQuery>;
  createRefund(pfPaymentId: string, refund: { amountCents: number; reason: string }): Promise<RefundOutcome>;
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
  const send = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const { merchantId, passphrase, apiUrl, apiTesting } = config.payfast;
  const userAgent = payfastUserAgent(config.shop.name, config.publicUrl);
  /** How a zero is signed: as PayFast's documented code does, until PayFast answers 401 to it and 2xx the other way. */
  let zeroRule: ZeroRule = "signed";

  /** One signed request: the headers, the query and the JSON body's values go into the signature. */
  async function signedRequest(
    method: "GET" | "POST",
    path: string,
    query: Record<string, string>,
    body: Record<string, string | number> | undefined,
    rule: ZeroRule,
  ): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = {
      "merchant-id": merchantId,
      version: API_VERSION,
      timestamp: payfastTimestamp(now()),
    };
    const bodyValues = Object.fromEntries(Object.entries(body ?? {}).map(([key, value]) => [key, String(value)]));
    headers.signature = apiSignature({ ...headers, ...query, ...bodyValues }, passphrase ?? "", rule);
    headers["user-agent"] = userAgent;
    if (body) headers["content-type"] = "application/json";
    const url = new URL(`${apiUrl.replace(/\/+$/, "")}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    if (apiTesting) url.searchParams.set("testing", "true");
    const response = await send(url, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return { status: response.status, text: await response.text() };
  }

  /**
   * A signed call. When PayFast answers 401 "Merchant authorisation failed" (it did nothing) to a
   * call that carries a value PHP calls empty ("0", "": `notify_buyer=0`, `offset=0`), the two
   * readings of PayFast's rule give different signatures: the call is made once more the other
   * way, and the reading PayFast accepted is kept for the next calls.
   */
  async function call(
    method: "GET" | "POST",
    path: string,
    { query = {}, body }: { query?: Record<string, string>; body?: Record<string, string | number> },
  ): Promise<{ status: number; text: string }> {
    const first = await signedRequest(method, path, query, body, zeroRule);
    const values = [...Object.values(query), ...Object.values(body ?? {}).map(String)];
    if (first.status !== 401 || !values.some((value) => value === "" || value === "0")) return first;
    const other: ZeroRule = zeroRule === "signed" ? "left_out" : "signed";
    const second = await signedRequest(method, path, query, body, other);
    if (second.status !== 401 && second.status < 500) zeroRule = other;
    return second;
  }

  async function get(path: string, query: Record<string, string>): Promise<string> {
    const { status, text } = await call("GET", path, { query });
    if (status < 200 || status >= 300)
      throw new PayfastApiError(`GET ${path} answered ${status}: ${text.slice(0, 200)}`);
    return text;
  }

  return {
    async ping() {
      await get("/ping", {});
    },
    async transactionHistory(from, to) {
      const rows: HistoryRow[] = [];
      for (let offset = 0; ; offset += PAGE) {
        const page = parseHistory(
          await get("/transactions/history", { from, to, offset: String(offset), limit: String(PAGE) }),
        );
        rows.push(...page);
        if (page.length < PAGE) return rows;
      }
    },
    async refundQuery(pfPaymentId) {
      return toRefundQuery(await get(`/refunds/query/${encodeURIComponent(pfPaymentId)}`, {}));
    },
    async createRefund(pfPaymentId, { amountCents, reason }) {
      // notify_buyer 0: the shop sends its own message, with the credit note (mail/templates/order-refunded.tsx).
      const body = { amount: amountCents, reason, notify_buyer: 0 };
      const path = `/refunds/${encodeURIComponent(pfPaymentId)}`;
      const { status, text } = await call("POST", path, { body });
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
    },
  };
}
