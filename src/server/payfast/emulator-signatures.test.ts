import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  emulatedCheckoutSignature,
  emulatedItnParamString,
  emulatedSignedItn,
  postedFieldsBeforeSignature,
} from "./emulator-api-signature.js";

/**
 * The emulator checks and makes PayFast's signatures with its own code, so a mistake shared with
 * the shop's signers (signature.ts, api-client.ts) cannot pass the tests. These vectors are
 * PayFast's (docs/payfast.md §2 and §3), not computed by either implementation.
 */
describe("the emulator's own signatures", () => {
  it("checks a checkout form as PayFast's documented sample signs it", () => {
    const form = {
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
      // Blank fields are left out; an unknown field is no part of it.
      cell_number: "  ",
      something_else: "x",
    };
    expect(emulatedCheckoutSignature(form, "jt7NOE43FZPn")).toBe("8317e2bbd1ae2a6f4f36837e83be4ca9");
    // The documented order, not the order posted.
    const shuffled = Object.fromEntries(Object.entries(form).reverse());
    expect(emulatedCheckoutSignature(shuffled, " jt7NOE43FZPn ")).toBe("8317e2bbd1ae2a6f4f36837e83be4ca9");
    expect(emulatedCheckoutSignature(form, "another")).not.toBe("8317e2bbd1ae2a6f4f36837e83be4ca9");
  });

  it("checks the recurring billing fields after payment_method, in the documented order", () => {
    // Parameter strings written by hand from PayFast's "Recurring Billing" field list; MD5 by md5sum.
    const base = { merchant_id: "10000100", merchant_key: "46f0cd694581a", payment_method: "cc" };
    const tokenization = { ...base, subscription_type: "2", amount: "0.00", item_name: "Nappy plan" };
    expect(emulatedCheckoutSignature(tokenization, "jt7NOE43FZPn")).toBe("f152ded8aeeb1d18f2b344918396afbf");
    const subscription = {
      subscription_notify_buyer: "true",
      subscription_notify_webhook: "true",
      subscription_notify_email: "true",
      cycles: "12",
      frequency: "3",
      recurring_amount: "99.00",
      billing_date: "2026-07-01",
      subscription_type: "1",
      ...base,
      amount: "99.00",
      item_name: "Plan",
    };
    expect(emulatedCheckoutSignature(subscription, "jt7NOE43FZPn")).toBe("2827adc2f9b06535c423cb85c38f183e");
  });

  it("signs an ITN as the real notification of PayFast's vector, empty fields included", () => {
    const body =
      "m_payment_id=000000020&pf_payment_id=1579137&payment_status=COMPLETE&item_name=Order+%23000000020&item_description=&amount_gross=15.00&amount_fee=-2.30&amount_net=12.70&custom_str1=&custom_str2=&custom_str3=&custom_str4=&custom_str5=&custom_int1=&custom_int2=&custom_int3=&custom_int4=&custom_int5=&name_first=Tom&name_last=Tom&email_address=lindley%2Buser1%40appinlet.com&merchant_id=10027938";
    const fields = postedFieldsBeforeSignature(`${body}&signature=whatever&after=1`);
    expect(fields).toHaveLength(22);
    expect(emulatedItnParamString(fields)).toBe(body);
    expect(emulatedSignedItn(fields, undefined)).toBe(`${body}&signature=4078bca2c8987e0e0c4e7230f2f46323`);
    expect(emulatedSignedItn(fields, "")).toBe(`${body}&signature=4078bca2c8987e0e0c4e7230f2f46323`);
  });

  it("encodes as PHP's urlencode does: ! ' ( ) * ~ encoded, a space as +", () => {
    expect(emulatedItnParamString([["item_name", "It's (very) *odd*! ~ok"]])).toBe(
      "item_name=It%27s+%28very%29+%2Aodd%2A%21+%7Eok",
    );
  });

  it("is the only signing code the emulator's modules use: none imports the shop's signers", () => {
    const emulatorModules = readdirSync(import.meta.dirname).filter(
      (name) => name.startsWith("emulator") && name.endsWith(".ts") && !name.endsWith(".test.ts"),
    );
    expect(emulatorModules).toEqual(expect.arrayContaining(["emulator.ts", "emulator-api-signature.ts"]));
    for (const name of emulatorModules) {
      const source = readFileSync(`${import.meta.dirname}/${name}`, "utf8");
      const imports = [...source.matchAll(/from\s+"([^"]+)"/g)].map((match) => match[1]);
      expect(imports, name).not.toContain("./signature.js");
      expect(imports, name).not.toContain("./api-client.js");
    }
  });
});
