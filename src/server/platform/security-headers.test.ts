import { describe, expect, it } from "vitest";
import { LIVE_COURIER, LIVE_SELLER, LIVE_TOTP_KEY } from "../../../tests/helpers/live-seller.js";
import { loadConfig } from "./config.js";
import { securityHeaders } from "./security-headers.js";

/** A live configuration as a real shop would give it: https, its own merchant account, a passphrase. */
const LIVE_ENV = {
  PAYFAST_MODE: "live",
  ...LIVE_SELLER,
  ...LIVE_TOTP_KEY,
  ...LIVE_COURIER,
  PUBLIC_URL: "https://shop.example.co.za",
  PAYFAST_MERCHANT_ID: "10234567",
  PAYFAST_MERCHANT_KEY: "q1cd2rdny4a53",
  PAYFAST_PASSPHRASE: "a-live-passphrase",
  SMTP_URL: "smtps://shop:mail-secret@mail.example.co.za:465",
};

/** The page CSP's directives, each name to its sources. */
function pageCsp(config: ReturnType<typeof loadConfig>): Map<string, string[]> {
  const csp = securityHeaders(config).page["content-security-policy"] ?? "";
  return new Map(
    csp
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = "", ...sources]) => [name, sources]),
  );
}

describe("securityHeaders: form-action follows where the checkout form's post is redirected", () => {
  it("live: allows www.payfast.co.za and payment.payfast.io, where live PayFast redirects the post", () => {
    const csp = pageCsp(loadConfig(LIVE_ENV));
    expect(csp.get("form-action")).toEqual(["'self'", "https://www.payfast.co.za", "https://payment.payfast.io"]);
  });

  it("sandbox: allows only sandbox.payfast.co.za besides the shop", () => {
    const csp = pageCsp(loadConfig({ PAYFAST_MODE: "sandbox", PUBLIC_URL: "http://localhost:3000" }));
    expect(csp.get("form-action")).toEqual(["'self'", "https://sandbox.payfast.co.za"]);
  });

  it("local: allows only the shop itself when the emulator has no second origin", () => {
    const config = loadConfig({ PAYFAST_MODE: "local", PUBLIC_URL: "http://localhost:3100" });
    expect(pageCsp(config).get("form-action")).toEqual(["'self'"]);
  });

  it("local: adds the emulator's payment origin when it has one", () => {
    const base = loadConfig({ PAYFAST_MODE: "local", PUBLIC_URL: "http://localhost:3100" });
    // Set directly so the test does not depend on which variable the configuration reads it from.
    const config = { ...base, payfast: { ...base.payfast, emulatorPaymentOrigin: "http://localhost:3101" } };
    expect(pageCsp(config).get("form-action")).toEqual(["'self'", "http://localhost:3101"]);
  });
});
