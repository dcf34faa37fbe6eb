import { createHash } from "node:crypto";

/**
 * The emulator's own check of PayFast's API signature, written from PayFast's documentation
 * (developers.payfast.co.za/api, "Signature Generation": sort every header, body and query
 * variable and the passphrase alphabetically, leave out `testing`, join `key=urlencode(value)`
 * with '&', MD5) apart from the shop's signer (api-client.ts): it imports nothing of the shop's,
 * so a mistake in the shop's signer cannot be repeated here and pass. `zeroRule` says how the
 * emulated PayFast treats a value PHP calls empty ("" and "0"): "signed" as the documented code
 * (http_build_query) does, or "left_out" as the documented prose ("non-empty variables") reads.
 */
export type EmulatedZeroRule = "signed" | "left_out";

/**
 * PHP's urlencode (RFC 1738 form encoding): encodeURIComponent's output, then a space as "+" and
 * the five characters encodeURIComponent leaves alone (! ' ( ) *) percent-encoded, and "~" too.
 */
function urlencodeLikePhp(value: string): string {
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
