import { describe, expect, it } from "vitest";
import { LIVE_COURIER, LIVE_SELLER, LIVE_TOTP_KEY } from "../../../tests/helpers/live-seller.js";
import { loadConfig } from "../platform/config.js";
import {
  buildCheckoutForm,
  type CheckoutOrder,
  payfastCellNumber,
  payfastProcessUrl,
  payfastValidateUrl,
  splitName,
  TokenizationNeedsPassphraseError,
} from "./adapter.js";
import { CHECKOUT_FIELD_ORDER, checkoutSignature } from "./signature.js";

const config = loadConfig({
  PUBLIC_URL: "https://shop.example.co.za/",
  PAYFAST_MODE: "sandbox",
  ALLOW_TEST_PAYMENTS: "true",
});

const order: CheckoutOrder = {
  id: "3f1c2a9e-8b7d-4c6e-9a5b-1d2e3f4a5b6c",
  totalCents: 57_900,
  customerEmail: "thandi@example.co.za",
  deliveryName: "Thandi van der Merwe",
  deliveryPhone: "082 123 4567",
  items: [
    { name: "Baby Nappies Value Pack", size: "Size 3", quantity: 2 },
    { name: "Sensitive Wipes", size: "Pack of 3", quantity: 1 },
  ],
};

describe("checkout form", () => {
  it("holds PayFast's fields in the documented order, signed, for the order's total", () => {
    const form = buildCheckoutForm(order, config);
    expect(form).toEqual({
      merchant_id: "10000100",
      merchant_key: "46f0cd694581a",
      return_url: `https://shop.example.co.za/success?orderId=${order.id}`,
      cancel_url: `https://shop.example.co.za/cancel?orderId=${order.id}`,
      notify_url: "https://shop.example.co.za/api/payfast/notify",
      name_first: "Thandi",
      name_last: "van der Merwe",
      email_address: "thandi@example.co.za",
      cell_number: "0821234567",
      m_payment_id: order.id,
      amount: "579.00",
      item_name: "Snug & Dry order 3F4A5B6C",
      item_description: "2 x Baby Nappies Value Pack (Size 3), 1 x Sensitive Wipes (Pack of 3)",
      signature: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const keys = Object.keys(form);
    const documented = keys.filter((key) => key !== "signature");
    const positions = documented.map((key) => CHECKOUT_FIELD_ORDER.indexOf(key as never));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(keys.at(-1)).toBe("signature");
    expect(form.signature).toBe(checkoutSignature(form, "jt7NOE43FZPn"));
  });

  it("leaves out a phone number that is not a South African mobile and a one-word name's last name", () => {
    const form = buildCheckoutForm({ ...order, deliveryPhone: "021 555 0134", deliveryName: "Sipho" }, config);
    expect(form).not.toHaveProperty("cell_number");
    expect(form).not.toHaveProperty("name_last");
    expect(form.name_first).toBe("Sipho");
    expect(form.signature).toBe(checkoutSignature(form, "jt7NOE43FZPn"));
  });

  it("keeps names within 100 characters and the description within 255", () => {
    const long = "É".repeat(150);
    const items = Array.from({ length: 30 }, (_, index) => ({ name: `Product ${index}`, size: "M", quantity: 1 }));
    const form = buildCheckoutForm({ ...order, deliveryName: `${long} ${long}`, items }, config);
    expect(Array.from(form.name_first ?? "")).toHaveLength(100);
    expect(Array.from(form.name_last ?? "")).toHaveLength(100);
    expect(Array.from(form.item_description ?? "").length).toBeLessThanOrEqual(255);
    expect(form.item_description).toMatch(/\.\.\.$/);
  });

  it("signs without a passphrase when none is configured", () => {
    // No mode loads without one any more (live refuses to start); the adapter still signs correctly.
    const bare = { ...config, payfast: { ...config.payfast, passphrase: undefined } };
    const form = buildCheckoutForm(order, bare);
    expect(form.signature).toBe(checkoutSignature(form, undefined));
  });
});

describe("checkout form that keeps the card (tokenization)", () => {
  it("asks PayFast for a token (subscription_type 2, no frequency or cycles) and a card", () => {
    const form = buildCheckoutForm({ ...order, tokenize: true }, config);
    expect(form.subscription_type).toBe("2");
    expect(form.payment_method).toBe("cc");
    for (const absent of ["frequency", "cycles", "recurring_amount", "billing_date"]) {
      expect(form).not.toHaveProperty(absent);
    }
    const keys = Object.keys(form);
    expect(keys.slice(-3)).toEqual(["payment_method", "subscription_type", "signature"]);
    expect(form.signature).toBe(checkoutSignature(form, "jt7NOE43FZPn"));
    // The same order without tokenize signs differently: the fields are part of the signature.
    expect(buildCheckoutForm(order, config).signature).not.toBe(form.signature);
  });

  it("keeps a R0.00 set-up's amount in the form", () => {
    const form = buildCheckoutForm({ ...order, totalCents: 0, tokenize: true }, config);
    expect(form.amount).toBe("0.00");
  });

  it("leaves a plain checkout without recurring fields or a payment method", () => {
    const form = buildCheckoutForm({ ...order, tokenize: false }, config);
    expect(form).not.toHaveProperty("subscription_type");
    expect(form).not.toHaveProperty("payment_method");
  });

  it.each([undefined, "", "   "])("refuses to build it without a passphrase (%j)", (passphrase) => {
    const bare = { ...config, payfast: { ...config.payfast, passphrase } };
    expect(() => buildCheckoutForm({ ...order, tokenize: true }, bare)).toThrow(TokenizationNeedsPassphraseError);
    expect(() => buildCheckoutForm(order, bare)).not.toThrow();
  });
});

describe("PayFast addresses per mode", () => {
  it("posts to the emulator in local mode and to PayFast otherwise", () => {
    const local = loadConfig({ PUBLIC_URL: "http://localhost:3100" });
    expect(payfastProcessUrl(local)).toBe("http://localhost:3100/payfast-emulator/eng/process");
    expect(payfastValidateUrl(local)).toBe("http://localhost:3100/payfast-emulator/eng/query/validate");
    expect(payfastProcessUrl(config)).toBe("https://sandbox.payfast.co.za/eng/process");
    expect(payfastValidateUrl(config)).toBe("https://sandbox.payfast.co.za/eng/query/validate");
    const live = loadConfig({
      PAYFAST_MODE: "live",
      ...LIVE_SELLER,
      ...LIVE_TOTP_KEY,
      ...LIVE_COURIER,
      PUBLIC_URL: "https://shop.example.co.za",
      PAYFAST_MERCHANT_ID: "10234567",
      PAYFAST_MERCHANT_KEY: "q1cd2rdny4a53",
      PAYFAST_PASSPHRASE: "a-long-secret-phrase",
      SMTP_URL: "smtps://shop:mail-secret@mail.example.co.za:465",
    });
    expect(payfastProcessUrl(live)).toBe("https://www.payfast.co.za/eng/process");
    expect(payfastValidateUrl(live)).toBe("https://www.payfast.co.za/eng/query/validate");
  });

  it("lets PAYFAST_VALIDATE_URL override where ITNs are confirmed", () => {
    const overridden = loadConfig({ PAYFAST_VALIDATE_URL: "http://127.0.0.1:9999/validate" });
    expect(payfastValidateUrl(overridden)).toBe("http://127.0.0.1:9999/validate");
  });
});

describe("shopper details for PayFast", () => {
  it.each([
    ["082 123 4567", "0821234567"],
    ["0821234567", "0821234567"],
    ["+27 82 123 4567", "0821234567"],
    ["27-71-555-0000", "0715550000"],
    ["(060) 123-4567", "0601234567"],
    ["021 555 0134", null],
    ["082 123 456", null],
    ["not a phone", null],
  ])("reads %j as the mobile number %j", (phone, expected) => {
    expect(payfastCellNumber(phone)).toBe(expected);
  });

  it("splits a full name into first and last", () => {
    expect(splitName("  Thandi   van der Merwe ")).toEqual({ first: "Thandi", last: "van der Merwe" });
    expect(splitName("Sipho")).toEqual({ first: "Sipho", last: "" });
  });
});
