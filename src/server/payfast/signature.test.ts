import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CHECKOUT_FIELD_ORDER,
  checkoutParamString,
  checkoutSignature,
  itnSignature,
  parseItn,
  phpTrim,
  phpUrlencode,
  sameSignature,
  signItnFields,
  UnknownCheckoutFieldError,
} from "./signature.js";

const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

/** The test vector of docs/payfast.md §2: the docs' sample form with the sandbox credentials. */
const SAMPLE_FORM = {
  merchant_id: "10000100",
  merchant_key: "46f0cd694581a",
  return_url: "http://www.yourdomain.co.za/return.php",
  cancel_url: "http://www.yourdomain.co.za/cancel.php",
  notify_url: "http://www.yourdomain.co.za/notify.php",
  name_first: "First Name",
  name_last: "Last Name",
  email_address: "test@test.com",
  m_payment_id: "1234",
  amount: "10.00",
  item_name: "Order#123",
};
const SAMPLE_PARAM_STRING =
  "merchant_id=10000100&merchant_key=46f0cd694581a&return_url=http%3A%2F%2Fwww.yourdomain.co.za%2Freturn.php&cancel_url=http%3A%2F%2Fwww.yourdomain.co.za%2Fcancel.php&notify_url=http%3A%2F%2Fwww.yourdomain.co.za%2Fnotify.php&name_first=First+Name&name_last=Last+Name&email_address=test%40test.com&m_payment_id=1234&amount=10.00&item_name=Order%23123";

/** The test vector of docs/payfast.md §3: a real notification, signed without a passphrase. */
const REAL_ITN =
  "m_payment_id=000000020&pf_payment_id=1579137&payment_status=COMPLETE&item_name=Order+%23000000020&item_description=&amount_gross=15.00&amount_fee=-2.30&amount_net=12.70&custom_str1=&custom_str2=&custom_str3=&custom_str4=&custom_str5=&custom_int1=&custom_int2=&custom_int3=&custom_int4=&custom_int5=&name_first=Tom&name_last=Tom&email_address=lindley%2Buser1%40appinlet.com&merchant_id=10027938";

describe("PHP-style urlencode", () => {
  it.each([
    ["plain", "plain"],
    ["First Name", "First+Name"],
    ["a&b", "a%26b"],
    ["a+b", "a%2Bb"],
    ["O'Brien", "O%27Brien"],
    ["(021)", "%28021%29"],
    ["5*3", "5%2A3"],
    ["~home", "%7Ehome"],
    ["Order#123", "Order%23123"],
    ["Hi!", "Hi%21"],
    ["-_.", "-_."],
    ["http://x.co.za/a?b=c", "http%3A%2F%2Fx.co.za%2Fa%3Fb%3Dc"],
    ["100%", "100%25"],
    ["Zoë", "Zo%C3%AB"],
    ["Ntombizodwa Mbatha-Ñúñez", "Ntombizodwa+Mbatha-%C3%91%C3%BA%C3%B1ez"],
    ["Crème brûlée café", "Cr%C3%A8me+br%C3%BBl%C3%A9e+caf%C3%A9"],
    ["👶", "%F0%9F%91%B6"],
    ["", ""],
  ])("encodes %j as %j", (value, expected) => {
    expect(phpUrlencode(value)).toBe(expected);
  });

  it("encodes every character encodeURIComponent leaves alone except letters, digits and -_.", () => {
    expect(phpUrlencode("a b&c+d'e(f)g*h~i#j!k")).toBe("a+b%26c%2Bd%27e%28f%29g%2Ah%7Ei%23j%21k");
  });

  it("turns a lone surrogate into the replacement character instead of throwing", () => {
    expect(phpUrlencode("a\uD800b")).toBe("a%EF%BF%BDb");
  });

  it("trims only the characters PHP's trim removes", () => {
    expect(phpTrim(" \t\n\r\0\x0Bvalue \n")).toBe("value");
    expect(phpTrim("\u00A0value\u00A0")).toBe("\u00A0value\u00A0");
  });
});

describe("checkout signature", () => {
  it("matches the sample form vector of docs/payfast.md §2", () => {
    expect(checkoutParamString(SAMPLE_FORM)).toBe(SAMPLE_PARAM_STRING);
    expect(checkoutSignature(SAMPLE_FORM, "jt7NOE43FZPn")).toBe("8317e2bbd1ae2a6f4f36837e83be4ca9");
  });

  it("follows the documented field order, not the order the fields were given in", () => {
    const reversed = Object.fromEntries(Object.entries(SAMPLE_FORM).reverse());
    expect(checkoutSignature(reversed, "jt7NOE43FZPn")).toBe("8317e2bbd1ae2a6f4f36837e83be4ca9");
  });

  it("leaves out blank fields, trims values and ignores signature", () => {
    const noisy = {
      ...SAMPLE_FORM,
      name_first: "  First Name \n",
      cell_number: "",
      item_description: "   ",
      signature: "whatever",
    };
    expect(checkoutSignature(noisy, "jt7NOE43FZPn")).toBe("8317e2bbd1ae2a6f4f36837e83be4ca9");
  });

  it("refuses to sign a field outside the documented list rather than drop it", () => {
    expect(() => checkoutSignature({ ...SAMPLE_FORM, something_else: "x" }, "jt7NOE43FZPn")).toThrow(/something_else/);
    expect(() => checkoutParamString({ ...SAMPLE_FORM, currency: "" })).toThrow(UnknownCheckoutFieldError);
  });

  it("signs the recurring billing fields after payment_method, in the documented order", () => {
    const fields = {
      subscription_notify_buyer: "true",
      cycles: "0",
      frequency: "3",
      recurring_amount: "579.00",
      billing_date: "2026-02-01",
      subscription_type: "1",
      payment_method: "cc",
      amount: "579.00",
      item_name: "Plan",
      merchant_id: "10000100",
    };
    expect(checkoutParamString(fields)).toBe(
      "merchant_id=10000100&amount=579.00&item_name=Plan&payment_method=cc&subscription_type=1&billing_date=2026-02-01&recurring_amount=579.00&frequency=3&cycles=0&subscription_notify_buyer=true",
    );
    expect(CHECKOUT_FIELD_ORDER.slice(CHECKOUT_FIELD_ORDER.indexOf("payment_method"))).toEqual([
      "payment_method",
      "subscription_type",
      "billing_date",
      "recurring_amount",
      "frequency",
      "cycles",
      "subscription_notify_email",
      "subscription_notify_webhook",
      "subscription_notify_buyer",
    ]);
  });

  it("appends no passphrase when there is none", () => {
    expect(checkoutSignature(SAMPLE_FORM, undefined)).toBe(md5(SAMPLE_PARAM_STRING));
    expect(checkoutSignature(SAMPLE_FORM, "  ")).toBe(md5(SAMPLE_PARAM_STRING));
  });

  it("urlencodes the passphrase", () => {
    expect(checkoutSignature(SAMPLE_FORM, "my pass&phrase")).toBe(
      md5(`${SAMPLE_PARAM_STRING}&passphrase=my+pass%26phrase`),
    );
  });

  it("signs values with awkward characters as PHP would", () => {
    const fields = {
      merchant_id: "10000100",
      merchant_key: "46f0cd694581a",
      name_first: "Zoë",
      name_last: "O'Brien-Smith (née Dlamini)",
      amount: "579.00",
      item_name: "Snug & Dry order #AB12+*~",
    };
    expect(checkoutParamString(fields)).toBe(
      "merchant_id=10000100&merchant_key=46f0cd694581a&name_first=Zo%C3%AB&name_last=O%27Brien-Smith+%28n%C3%A9e+Dlamini%29&amount=579.00&item_name=Snug+%26+Dry+order+%23AB12%2B%2A%7E",
    );
  });
});

describe("ITN signature", () => {
  it("matches the real notification vector of docs/payfast.md §3, empty fields included", () => {
    expect(itnSignature(REAL_ITN, undefined)).toBe("4078bca2c8987e0e0c4e7230f2f46323");
    expect(itnSignature(`${REAL_ITN}&signature=4078bca2c8987e0e0c4e7230f2f46323`, undefined)).toBe(
      "4078bca2c8987e0e0c4e7230f2f46323",
    );
  });

  it("gives a different signature when the empty fields are skipped", () => {
    const withoutEmpty = REAL_ITN.split("&")
      .filter((pair) => !pair.endsWith("="))
      .join("&");
    expect(itnSignature(withoutEmpty, undefined)).not.toBe("4078bca2c8987e0e0c4e7230f2f46323");
  });

  it("keeps the order the fields arrived in", () => {
    const pairs = REAL_ITN.split("&");
    const swapped = [pairs[1], pairs[0], ...pairs.slice(2)].join("&");
    expect(itnSignature(swapped, undefined)).not.toBe("4078bca2c8987e0e0c4e7230f2f46323");
  });

  it("stops at signature and parses the posted one", () => {
    const parsed = parseItn(`${REAL_ITN}&signature=ABC&after=1`);
    expect(parsed.signature).toBe("ABC");
    expect(parsed.paramString).toBe(REAL_ITN);
    expect(parsed.data.email_address).toBe("lindley+user1@appinlet.com");
    expect(parsed.fields).toHaveLength(22);
  });

  it("adds the passphrase when one is set", () => {
    expect(itnSignature(REAL_ITN, "jt7NOE43FZPn")).toBe(md5(`${REAL_ITN}&passphrase=jt7NOE43FZPn`));
  });

  it("signs fields so that a receiver computes the same signature", () => {
    const body = signItnFields(
      [
        ["m_payment_id", "x"],
        ["item_name", "Snug & Dry order #1 (Zoë's) *~"],
        ["custom_str1", ""],
      ],
      "jt7NOE43FZPn",
    );
    const parsed = parseItn(body);
    expect(parsed.data.item_name).toBe("Snug & Dry order #1 (Zoë's) *~");
    expect(sameSignature(itnSignature(body, "jt7NOE43FZPn"), parsed.signature)).toBe(true);
    expect(sameSignature(itnSignature(body, "other"), parsed.signature)).toBe(false);
  });

  it("compares signatures case-insensitively and rejects different lengths", () => {
    expect(sameSignature("4078bca2c8987e0e0c4e7230f2f46323", "4078BCA2C8987E0E0C4E7230F2F46323")).toBe(true);
    expect(sameSignature("4078bca2c8987e0e0c4e7230f2f46323", "4078bca2")).toBe(false);
    expect(sameSignature("4078bca2c8987e0e0c4e7230f2f46323", "")).toBe(false);
  });
});
