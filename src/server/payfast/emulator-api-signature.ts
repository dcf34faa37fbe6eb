import { createHash } from "node:crypto";

/**
 * The emulator's own signatures, written from PayFast's documentation (docs/payfast.md §2, §3, §7)
 * apart from the shop's signers (signature.ts, api-client.ts): this module imports nothing of the
 * shop's, and no emulator module imports the shop's signers (emulator-signatures.test.ts), so a
 * mistake in the shop's signing cannot be repeated here and pass.
 *
 * The API signature (developers.payfast.co.za/api, "Signature Generation"): sort every header,
 * body and query variable and the passphrase alphabetically, leave out `testing`, join
 * `key=urlencode(value)` with '&', MD5. `zeroRule` says how the emulated PayFast treats a value
 * PHP calls empty ("" and "0"): "signed" as the documented code (http_build_query) does, or
 * "left_out" as the documented prose ("non-empty variables") reads.
 */
export type EmulatedZeroRule = "signed" | "left_out";

/**
 * PHP's urlencode (RFC 1738 form encoding): encodeURIComponent's output, then a space as "+" and
 * the five characters encodeURIComponent leaves alone (! ' ( ) *) percent-encoded, and "~" too.
 */
export function urlencodeLikePhp(value: string): string {
  // A lone surrogate (not UTF-8) becomes U+FFFD, as PHP would see the bytes a browser sends for it.
  return encodeURIComponent(Buffer.from(value, "utf8").toString("utf8"))
    .replace(/%20/g, "+")
    .replace(/[!'()*~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function emulatedApiSignature(
  variables: Readonly<Record<string, string>>,
  passphrase: string,
  zeroRule: EmulatedZeroRule,
): string {
  const pairs: [string, string][] = Object.entries({ ...variables, passphrase }).filter(
    ([key, value]) =>
      key !== "signature" && key !== "testing" && (zeroRule === "signed" || (value !== "" && value !== "0")),
  );
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = pairs.map(([key, value]) => `${key}=${urlencodeLikePhp(value)}`).join("&");
  return createHash("md5").update(text).digest("hex");
}

/** PayFast's checkout fields in the order its documentation lists them, the order PayFast signs them in. */
const DOCUMENTED_CHECKOUT_ORDER = [
  ["merchant_id", "merchant_key", "return_url", "cancel_url", "notify_url"],
  ["name_first", "name_last", "email_address", "cell_number"],
  ["m_payment_id", "amount", "item_name", "item_description"],
  ["custom_int1", "custom_int2", "custom_int3", "custom_int4", "custom_int5"],
  ["custom_str1", "custom_str2", "custom_str3", "custom_str4", "custom_str5"],
  ["email_confirmation", "confirmation_address", "payment_method"],
  // Recurring billing (developers.payfast.co.za "Recurring Billing"): after payment_method.
  ["subscription_type", "billing_date", "recurring_amount", "frequency", "cycles"],
  ["subscription_notify_email", "subscription_notify_webhook", "subscription_notify_buyer"],
].flat();

/** PHP's trim(): spaces, tabs, line breaks, NUL and vertical tab at either end, nothing else. */
const PHP_TRIM = " \t\n\r\0\x0B";
function trimLikePhp(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && PHP_TRIM.includes(value.charAt(start))) start += 1;
  while (end > start && PHP_TRIM.includes(value.charAt(end - 1))) end -= 1;
  return value.slice(start, end);
}

function md5Hex(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

function passphrasePart(passphrase: string | undefined): string {
  const phrase = trimLikePhp(passphrase ?? "");
  return phrase === "" ? "" : `&passphrase=${urlencodeLikePhp(phrase)}`;
}

/**
 * The signature PayFast expects on a checkout form (docs/payfast.md §2): the documented fields
 * that are not blank, in the documented order, `key=urlencode(trim(value))` joined with '&', the
 * passphrase appended, MD5.
 */
export function emulatedCheckoutSignature(
  data: Readonly<Record<string, string | undefined>>,
  passphrase: string | undefined,
): string {
  const pairs = DOCUMENTED_CHECKOUT_ORDER.flatMap((key) => {
    const value = trimLikePhp(data[key] ?? "");
    return value === "" ? [] : [`${key}=${urlencodeLikePhp(value)}`];
  });
  return md5Hex(pairs.join("&") + passphrasePart(passphrase));
}

/** An ITN's parameter string (docs/payfast.md §3): every field in order, the empty ones too. */
export function emulatedItnParamString(fields: readonly (readonly [string, string])[]): string {
  return fields.map(([key, value]) => `${key}=${urlencodeLikePhp(value)}`).join("&");
}

/** The body PayFast posts as an ITN: the parameter string, then its signature (passphrase appended, MD5). */
export function emulatedSignedItn(fields: readonly (readonly [string, string])[], passphrase: string | undefined) {
  const paramString = emulatedItnParamString(fields);
  return `${paramString}&signature=${md5Hex(paramString + passphrasePart(passphrase))}`;
}

/** The fields of a posted form body up to (not including) `signature`, in the order posted. */
export function postedFieldsBeforeSignature(body: string): [string, string][] {
  const fields: [string, string][] = [];
  for (const [key, value] of new URLSearchParams(body)) {
    if (key === "signature") break;
    fields.push([key, value]);
  }
  return fields;
}
