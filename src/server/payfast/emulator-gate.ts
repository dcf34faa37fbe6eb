import type { Config } from "../platform/config.js";
import { type EmulatedZeroRule, emulatedApiSignature } from "./emulator-api-signature.js";

/**
 * What every emulated API call shares (emulator-api.ts, emulator-refunds.ts, emulator-tokens.ts):
 * the controls tests drive, PayFast's refusals and the gate each call passes first.
 */

/** Refusals a test asked for, by pf_payment_id: the message PayFast would give. */
export type RefundRefusals = Map<string, string>;

/** A bank's answer to a charge that did not go through (ISO 8583 response codes, as PayFast shows them). */
export interface DeclineRule {
  code: string;
  message: string;
  /** How many more charges it applies to (Infinity: until cleared). */
  remaining: number;
}

/** The next charge of a token is taken, but its HTTP answer never reaches the shop. */
export interface LostAnswer {
  /** "reset": the connection is dropped with no answer (as a timeout is); "503": PayFast's error page. */
  answer: "reset" | "503";
  /** Whether the charge's notification is sent anyway or lost with the answer. */
  notification: "sent" | "lost";
}

export interface TokenControls {
  declines: Map<string, DeclineRule>;
  lostAnswers: Map<string, LostAnswer>;
  /**
   * What happens to charges' and cancellations' notifications: "normal"; "lost" (never sent, the
   * payment is in the history all the same); "duplicated" (sent twice); "held" (kept until
   * `releaseHeldNotifications`, which can send them newest first: out of order).
   */
  notifications: "normal" | "lost" | "duplicated" | "held";
  /** Row keys of held notifications, oldest first. */
  held: string[];
  /** `data.response` of a successful charge: the sandbox's boolean true or live's string "true". */
  responseStyle: "sandbox" | "live";
}

export function defaultTokenControls(): TokenControls {
  return { declines: new Map(), lostAnswers: new Map(), notifications: "normal", held: [], responseStyle: "live" };
}

/** How the emulated PayFast behaves now: tests (and a developer) drive it into PayFast's other answers. */
export interface EmulatorControls {
  /** The validate endpoint: as PayFast normally does, or failing as it has (403 for weeks, a timeout, INVALID). */
  validate: "normal" | "403" | "timeout" | "INVALID";
  /** Every API call answers 503, as PayFast's API does when it is down. */
  apiDown: boolean;
  /** How the emulated API signs a value PHP calls empty ("0"): emulator-api-signature.ts. */
  zeroRule: EmulatedZeroRule;
  /** Payments whose refunds PayFast can only pay to a bank account (Instant EFT and others). */
  bankPayout: Set<string>;
  /** Refusals a test asked for, by pf_payment_id: the message PayFast would give. */
  refundRefusals: RefundRefusals;
  /**
   * Every API call refused before its signature is read, as PayFast has: "rate_limit" (429
   * "Signature rate limit reached"), "origin" (401, the IP whitelist's "origin could not be verified").
   */
  apiRefusal: "none" | "rate_limit" | "origin";
  /** What the emulated Subscriptions API does to card tokens' charges (emulator-tokens.ts). */
  tokens: TokenControls;
}

export function defaultEmulatorControls(): EmulatorControls {
  return {
    validate: "normal",
    apiDown: false,
    zeroRule: "signed",
    bankPayout: new Set(),
    refundRefusals: new Map(),
    apiRefusal: "none",
    tokens: defaultTokenControls(),
  };
}

const API_VERSION = "v1";

/** PayFast's answer while its API is down, in its error shape. */
export const API_UNAVAILABLE = {
  code: 503,
  status: "failed",
  data: { response: false, message: "Service Unavailable" },
} as const;

/** PayFast's 401 when the merchant's IP whitelist does not hold the caller: not a signature problem. */
export const ORIGIN_NOT_VERIFIED = {
  code: 401,
  status: "failed",
  data: { response: "The origin of this request could not be verified.", message: false },
} as const;

/** PayFast's 429 when a merchant sends too many signed calls. */
export const SIGNATURE_RATE_LIMIT = {
  code: 429,
  status: "failed",
  data: { response: "Signature rate limit reached", message: false },
} as const;

/**
 * Whether PayFast's API answers this call at all, and how: 503 while it is down, the switched-on
 * refusals (429, the whitelist's 401), then the header signature over the headers and these
 * query and body values (401 "Merchant authorisation failed."). Null: go on.
 */
export function apiGate(
  headers: Record<string, string | string[] | undefined>,
  values: Record<string, string>,
  config: Config,
  controls: EmulatorControls,
): { status: number; body: unknown } | null {
  if (controls.apiDown) return { status: 503, body: API_UNAVAILABLE };
  if (controls.apiRefusal === "rate_limit") return { status: 429, body: SIGNATURE_RATE_LIMIT };
  if (controls.apiRefusal === "origin") return { status: 401, body: ORIGIN_NOT_VERIFIED };
  if (apiRefusal(headers, values, config, controls)) return { status: 401, body: MERCHANT_AUTHORISATION_FAILED };
  return null;
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
  controls: EmulatorControls,
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
  const expected = emulatedApiSignature(signed, config.payfast.passphrase, controls.zeroRule);
  return expected === header("signature").trim().toLowerCase() ? null : "signature mismatch";
}

/** Every value of a JSON body as PHP's http_build_query would sign it (1 for true, as text). */
export function signedValues(body: unknown): Record<string, string> | null {
  if (body === undefined || body === null || body === "") return {};
  if (typeof body !== "object" || Array.isArray(body)) return null;
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === "string" || typeof value === "number") values[key] = String(value);
    else if (typeof value === "boolean") values[key] = value ? "1" : "0";
    else return null;
  }
  return values;
}
