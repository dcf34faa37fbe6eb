import { createHash, timingSafeEqual } from "node:crypto";

/**
 * PayFast's signatures, exactly as docs/payfast.md describes them: PHP's urlencode,
 * MD5, lowercase hex. The checkout form is signed over its non-blank fields in the documented
 * order; an ITN over every posted field in the order received, empty ones included.
 */

/** The checkout form's fields in PayFast's documented order, which is also the signature order. */
export const CHECKOUT_FIELD_ORDER = [
  "merchant_id",
  "merchant_key",
  "return_url",
  "cancel_url",
  "notify_url",
  "name_first",
  "name_last",
  "email_address",
  "cell_number",
  "m_payment_id",
  "amount",
  "item_name",
  "item_description",
  "custom_int1",
  "custom_int2",
  "custom_int3",
  "custom_int4",
  "custom_int5",
  "custom_str1",
  "custom_str2",
  "custom_str3",
  "custom_str4",
  "custom_str5",
  "email_confirmation",
  "confirmation_address",
  "payment_method",
  // Recurring billing (PayFast's subscriptions and tokenization): after payment_method, in this order.
  "subscription_type",
  "billing_date",
  "recurring_amount",
  "frequency",
  "cycles",
  "subscription_notify_email",
  "subscription_notify_webhook",
  "subscription_notify_buyer",
] as const;

export type CheckoutField = (typeof CHECKOUT_FIELD_ORDER)[number];

const UNRESERVED = /^[A-Za-z0-9_.-]$/;

/**
 * PHP's urlencode: the UTF-8 bytes, letters, digits and `-_.` kept, space as `+`, every other
 * byte as %XX in uppercase hex. Unlike encodeURIComponent it also encodes `! ' ( ) * ~`.
 * A lone surrogate (invalid UTF-16) becomes U+FFFD's bytes instead of throwing.
 */
export function phpUrlencode(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const char = String.fromCharCode(byte);
    if (byte < 0x80 && UNRESERVED.test(char)) out += char;
    else if (byte === 0x20) out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** What PHP's trim() removes: " \t\n\r\0\x0B", not JavaScript's wider idea of white space. */
const PHP_TRIMMED = new Set([" ", "\t", "\n", "\r", "\0", "\x0B"]);

export function phpTrim(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && PHP_TRIMMED.has(value.charAt(start))) start++;
  while (end > start && PHP_TRIMMED.has(value.charAt(end - 1))) end--;
  return value.slice(start, end);
}

function md5(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

function withPassphrase(paramString: string, passphrase: string | undefined): string {
  const phrase = passphrase === undefined ? "" : phpTrim(passphrase);
  return phrase ? `${paramString}&passphrase=${phpUrlencode(phrase)}` : paramString;
}

const DOCUMENTED_FIELDS: ReadonlySet<string> = new Set(CHECKOUT_FIELD_ORDER);

export class UnknownCheckoutFieldError extends Error {
  override name = "UnknownCheckoutFieldError";
}

/**
 * The checkout form's parameter string: its non-blank fields in the documented order,
 * `key=urlencode(trim(value))` joined with `&`; `signature` itself is not part of it. A field
 * outside the documented list throws: PayFast would not sign it, so posting it unsigned (or
 * dropping it) would be a form that says something other than what was signed.
 */
export function checkoutParamString(fields: Readonly<Record<string, string | undefined>>): string {
  const unknown = Object.keys(fields).filter((key) => key !== "signature" && !DOCUMENTED_FIELDS.has(key));
  if (unknown.length > 0) {
    throw new UnknownCheckoutFieldError(`Not a documented PayFast checkout field: ${unknown.join(", ")}`);
  }
  const parts: string[] = [];
  for (const key of CHECKOUT_FIELD_ORDER) {
    const value = phpTrim(fields[key] ?? "");
    if (value !== "") parts.push(`${key}=${phpUrlencode(value)}`);
  }
  return parts.join("&");
}

/** The `signature` of a checkout form (MD5 of its parameter string plus the passphrase, if any). */
export function checkoutSignature(
  fields: Readonly<Record<string, string | undefined>>,
  passphrase: string | undefined,
): string {
  return md5(withPassphrase(checkoutParamString(fields), passphrase));
}

/** An ITN as posted: its fields in the order received, the string they were signed over, and the posted signature. */
export interface ParsedItn {
  /** Every field up to (not including) `signature`, in the order received, empty ones included. */
  fields: [string, string][];
  /** First value of each field, for lookups. */
  data: Record<string, string>;
  /** `key=urlencode(value)&...` over `fields`: what is signed and what the validate call posts. */
  paramString: string;
  /** The posted signature, or "" when there was none. */
  signature: string;
}

/** Parses a raw form-urlencoded ITN body, keeping the order the fields arrived in. */
export function parseItn(rawBody: string): ParsedItn {
  const fields: [string, string][] = [];
  const data: Record<string, string> = {};
  let signature = "";
  for (const [key, value] of new URLSearchParams(rawBody)) {
    if (key === "signature") {
      signature = value;
      break;
    }
    fields.push([key, value]);
    if (!(key in data)) data[key] = value;
  }
  const paramString = fields.map(([key, value]) => `${key}=${phpUrlencode(value)}`).join("&");
  return { fields, data, paramString, signature };
}

/** The signature an ITN body should carry: every field before `signature`, empty ones included, plus the passphrase. */
export function itnSignature(rawBody: string, passphrase: string | undefined): string {
  return md5(withPassphrase(parseItn(rawBody).paramString, passphrase));
}

/** Signs an ITN's ordered fields (what the local emulator sends): the body to post, signature last. */
export function signItnFields(fields: readonly [string, string][], passphrase: string | undefined): string {
  const paramString = fields.map(([key, value]) => `${key}=${phpUrlencode(value)}`).join("&");
  return `${paramString}&signature=${md5(withPassphrase(paramString, passphrase))}`;
}

/** Compares two hex signatures without leaking where they differ. */
export function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected.toLowerCase(), "utf8");
  const b = Buffer.from(given.trim().toLowerCase(), "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
