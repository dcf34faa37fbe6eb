import { randomInt, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { centsToDecimal } from "../../src/domain/money.js";
import { PAYFAST_SANDBOX } from "../../src/server/config.js";
import { freePort } from "../../src/server/db/embedded.js";
import { orders, payfastEmulatorNotifications, payfastItns, products } from "../../src/server/db/schema.js";
import { checkoutSignature, signItnFields } from "../../src/server/payfast/signature.js";
import { insertOrder } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { registerAndLogin } from "../helpers/users.js";

/** Stands in for PayFast's /eng/query/validate: answers `answer`, remembers what it was asked. */
const validator = {
  answer: "VALID",
  status: 200,
  received: [] as string[],
  server: http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      validator.received.push(body);
      response.writeHead(validator.status, { "content-type": "text/plain" }).end(validator.answer);
    });
  }),
};

let t: TestApp;

beforeAll(async () => {
  await new Promise<void>((resolve) => validator.server.listen(0, "127.0.0.1", resolve));
  const { port } = validator.server.address() as AddressInfo;
  t = await buildTestApp({ PAYFAST_VALIDATE_URL: `http://127.0.0.1:${port}/eng/query/validate` });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => validator.server.close(resolve));
});
beforeEach(() => {
  validator.answer = "VALID";
  validator.status = 200;
  validator.received = [];
});

/**
 * A pending order of R574.99 (one R499.99 line plus the R75 delivery fee), straight in the
 * database (create-order has its own tests).
 */
const pendingOrder = (app: TestApp): Promise<string> =>
  insertOrder(app, {
    lines: [{ name: "Baby Nappies", size: "Size 3", quantity: 1, unitPriceCents: 49_999 }],
    customerEmail: "thandi@example.co.za",
  });

/** An ITN as PayFast sends it: its fields in PayFast's order, empty ones included, signed. */
function itn(orderId: string, overrides: Record<string, string> = {}, passphrase: string = PAYFAST_SANDBOX.passphrase) {
  const fields: Record<string, string> = {
    m_payment_id: orderId,
    pf_payment_id: String(randomInt(1_000_000, 10_000_000)),
    payment_status: "COMPLETE",
    item_name: `Snug & Dry order ${orderId.slice(-8).toUpperCase()}`,
    item_description: "1 x Baby Nappies (Size 3)",
    amount_gross: "574.99",
    amount_fee: "-13.22",
    amount_net: "561.77",
    custom_str1: "",
    custom_str2: "",
    custom_str3: "",
    custom_str4: "",
    custom_str5: "",
    custom_int1: "",
    custom_int2: "",
    custom_int3: "",
    custom_int4: "",
    custom_int5: "",
    name_first: "Thandi",
    name_last: "Mokoena",
    email_address: "thandi+shop@example.co.za",
    merchant_id: PAYFAST_SANDBOX.merchantId,
    ...overrides,
  };
  return signItnFields(Object.entries(fields), passphrase);
}

function notify(
  app: TestApp,
  body: string,
  { remoteAddress = "127.0.0.1", headers = {} }: { remoteAddress?: string; headers?: Record<string, string> } = {},
) {
  return app.app.inject({
    method: "POST",
    url: "/api/payfast/notify",
    remoteAddress,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    payload: body,
  });
}

async function orderRow(app: TestApp, id: string) {
  const [row] = await app.db.select().from(orders).where(eq(orders.id, id));
  return row;
}

async function itnRows(app: TestApp, orderId: string) {
  return app.db.select().from(payfastItns).where(eq(payfastItns.orderId, orderId)).orderBy(asc(payfastItns.id));
}

/** Posts the ITN and expects it refused: 400, order still pending, one rejected record with `reason`. */
async function expectRejected(app: TestApp, orderId: string, body: string, reason: RegExp, options = {}) {
  const response = await notify(app, body, options);
  expect(response.statusCode).toBe(400);
  expect((response.json() as { message: string }).message).toMatch(reason);
  const order = await orderRow(app, orderId);
  expect(order).toMatchObject({ status: "pending", paidAt: null, paidBy: null });
  const records = await itnRows(app, orderId);
  expect(records.map((record) => record.outcome)).toEqual(["rejected"]);
  expect(records[0]?.reason).toMatch(reason);
  expect(records[0]?.rawBody).toBe(body);
}

describe("POST /api/payfast/notify", () => {
  it("marks the order paid for a valid COMPLETE ITN after PayFast confirms it", async () => {
    const orderId = await pendingOrder(t);
    const body = itn(orderId);
    const response = await notify(t, body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ outcome: "accepted" });

    const order = await orderRow(t, orderId);
    expect(order).toMatchObject({ status: "completed", paidBy: "itn" });
    expect(order?.paidAt).toBeInstanceOf(Date);
    const [record] = await itnRows(t, orderId);
    expect(record).toMatchObject({
      outcome: "accepted",
      reason: null,
      paymentStatus: "COMPLETE",
      amountGross: "574.99",
      sourceIp: "127.0.0.1",
      rawBody: body,
    });
    // The confirmation posts the same parameter string, without the signature.
    expect(validator.received).toEqual([body.slice(0, body.indexOf("&signature="))]);
  });

  it("marks the order paid once when the same ITN arrives twice", async () => {
    const orderId = await pendingOrder(t);
    const body = itn(orderId);
    expect((await notify(t, body)).statusCode).toBe(200);
    const paidAt = (await orderRow(t, orderId))?.paidAt;

    const again = await notify(t, body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ outcome: "duplicate" });
    const order = await orderRow(t, orderId);
    expect(order?.status).toBe("completed");
    expect(order?.paidAt).toEqual(paidAt);
    expect((await itnRows(t, orderId)).map((record) => record.outcome)).toEqual(["accepted", "duplicate"]);
  });

  it("accepts an amount within R0.01 of the order total", async () => {
    const orderId = await pendingOrder(t);
    const response = await notify(t, itn(orderId, { amount_gross: "575.00" }));
    expect(response.statusCode).toBe(200);
    expect((await orderRow(t, orderId))?.status).toBe("completed");
  });

  it("accepts a form content type with a charset", async () => {
    const orderId = await pendingOrder(t);
    const response = await notify(t, itn(orderId), {
      headers: { "content-type": "application/x-www-form-urlencoded; charset=UTF-8" },
    });
    expect(response.statusCode).toBe(200);
    expect((await orderRow(t, orderId))?.status).toBe("completed");
  });

  it("refuses an ITN with a bad signature", async () => {
    const orderId = await pendingOrder(t);
    const tampered = itn(orderId).replace("amount_net=561.77", "amount_net=574.99");
    await expectRejected(t, orderId, tampered, /signature mismatch/);
    expect(validator.received).toEqual([]);
  });

  it("refuses an ITN signed without our passphrase", async () => {
    const orderId = await pendingOrder(t);
    await expectRejected(t, orderId, itn(orderId, {}, ""), /signature mismatch/);
  });

  it("refuses an ITN without a signature", async () => {
    const orderId = await pendingOrder(t);
    const unsigned = itn(orderId).replace(/&signature=[0-9a-f]+$/, "");
    await expectRejected(t, orderId, unsigned, /no signature/);
  });

  it("refuses an ITN whose amount differs from the order total", async () => {
    const orderId = await pendingOrder(t);
    await expectRejected(t, orderId, itn(orderId, { amount_gross: "575.01" }), /does not match the order total/);
  });

  it("refuses an ITN for a much smaller amount", async () => {
    const orderId = await pendingOrder(t);
    await expectRejected(t, orderId, itn(orderId, { amount_gross: "5.00" }), /does not match the order total/);
  });

  it("refuses an ITN for an unknown order", async () => {
    const unknown = randomUUID();
    const response = await notify(t, itn(unknown));
    expect(response.statusCode).toBe(400);
    expect((response.json() as { message: string }).message).toMatch(/unknown order/);
    expect((await itnRows(t, unknown)).map((record) => record.outcome)).toEqual(["rejected"]);
  });

  it("refuses an ITN whose m_payment_id is not an order id", async () => {
    const response = await notify(t, itn("000000020"));
    expect(response.statusCode).toBe(400);
    const [record] = await t.db.select().from(payfastItns).where(eq(payfastItns.reason, 'unknown order "000000020"'));
    expect(record).toMatchObject({ outcome: "rejected", orderId: null });
  });

  it("refuses an ITN for another merchant", async () => {
    const orderId = await pendingOrder(t);
    await expectRejected(t, orderId, itn(orderId, { merchant_id: "10027938" }), /merchant_id "10027938" is not ours/);
  });

  it("refuses an ITN that PayFast's server confirmation does not call VALID", async () => {
    const orderId = await pendingOrder(t);
    validator.answer = "INVALID";
    await expectRejected(t, orderId, itn(orderId), /server confirmation failed/);
    expect(validator.received).toHaveLength(1);
  });

  it("refuses an ITN when the server confirmation answers an error", async () => {
    const orderId = await pendingOrder(t);
    validator.status = 500;
    await expectRejected(t, orderId, itn(orderId), /server confirmation failed: HTTP 500/);
  });

  it("records a non-COMPLETE status as ignored and leaves the order pending", async () => {
    const orderId = await pendingOrder(t);
    const response = await notify(t, itn(orderId, { payment_status: "FAILED" }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ outcome: "ignored" });
    expect((await orderRow(t, orderId))?.status).toBe("pending");
    expect((await itnRows(t, orderId)).map((record) => [record.outcome, record.reason])).toEqual([
      ["ignored", "payment_status FAILED"],
    ]);
  });

  it("treats a COMPLETE ITN for an order an admin already confirmed as a harmless repeat", async () => {
    const orderId = await pendingOrder(t);
    await t.pool.query("update orders set status = 'completed', paid_by = 'admin', paid_at = now() where id = $1", [
      orderId,
    ]);
    const response = await notify(t, itn(orderId));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ outcome: "duplicate" });
    expect((await orderRow(t, orderId))?.paidBy).toBe("admin");
  });

  it("records an ITN holding NUL characters instead of failing", async () => {
    const orderId = await pendingOrder(t);
    const response = await notify(t, itn(orderId, { payment_status: "FAIL\u0000ED", custom_str1: "\u0000" }));
    expect(response.statusCode).toBe(200);
    const [record] = await itnRows(t, orderId);
    expect(record).toMatchObject({ outcome: "ignored", paymentStatus: "FAIL\uFFFDED" });
  });

  it("refuses a body that is not a form and still records it", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/payfast/notify",
      headers: { "content-type": "application/json" },
      payload: { m_payment_id: "x" },
    });
    expect(response.statusCode).toBe(400);
    const { rows } = await t.pool.query("select outcome, reason from payfast_itns where reason = 'no signature'");
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe("ITN source addresses", () => {
  let ranged: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    const { port } = validator.server.address() as AddressInfo;
    const validateUrl = `http://127.0.0.1:${port}/eng/query/validate`;
    ranged = await buildTestApp({ PAYFAST_VALIDATE_URL: validateUrl, PAYFAST_VALID_IPS: "197.97.145.144/28" });
    proxied = await buildTestApp({
      PAYFAST_VALIDATE_URL: validateUrl,
      PAYFAST_VALID_IPS: "197.97.145.144/28",
      TRUST_PROXY: "127.0.0.1",
    });
  });
  afterAll(async () => {
    await ranged.close();
    await proxied.close();
  });

  it("refuses an ITN from outside the configured ranges", async () => {
    const orderId = await pendingOrder(ranged);
    await expectRejected(ranged, orderId, itn(orderId), /source address 127\.0\.0\.1 is not a PayFast address/);
  });

  it("accepts an ITN from inside the configured ranges", async () => {
    const orderId = await pendingOrder(ranged);
    const response = await notify(ranged, itn(orderId), { remoteAddress: "197.97.145.150" });
    expect(response.statusCode).toBe(200);
    expect((await orderRow(ranged, orderId))?.status).toBe("completed");
  });

  it("ignores X-Forwarded-For unless the proxy is trusted", async () => {
    const orderId = await pendingOrder(ranged);
    await expectRejected(ranged, orderId, itn(orderId), /source address 127\.0\.0\.1/, {
      headers: { "x-forwarded-for": "197.97.145.150" },
    });
  });

  it("takes the client address from a trusted proxy's X-Forwarded-For", async () => {
    const orderId = await pendingOrder(proxied);
    const response = await notify(proxied, itn(orderId), { headers: { "x-forwarded-for": "197.97.145.150" } });
    expect(response.statusCode).toBe(200);
    const [record] = await itnRows(proxied, orderId);
    expect(record).toMatchObject({ outcome: "accepted", sourceIp: "197.97.145.150" });
  });

  it("does not believe X-Forwarded-For from an untrusted peer even when a proxy is trusted", async () => {
    const orderId = await pendingOrder(proxied);
    await expectRejected(proxied, orderId, itn(orderId), /source address 10\.1\.2\.3/, {
      remoteAddress: "10.1.2.3",
      headers: { "x-forwarded-for": "197.97.145.150" },
    });
  });
});

/** Extracts the hidden inputs of the emulator's payment page, unescaping their values. */
function hiddenFields(html: string): [string, string][] {
  const unescapeHtml = (text: string) =>
    text
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
  return [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((match) => [
    unescapeHtml(match[1] ?? ""),
    unescapeHtml(match[2] ?? ""),
  ]);
}

const form = (fields: Record<string, string> | [string, string][]) =>
  new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields)).toString();

describe("local PayFast emulator", () => {
  let live: TestApp;
  let publicUrl: string;

  beforeAll(async () => {
    // The emulator posts the ITN over real HTTP and the notify handler confirms it over real HTTP.
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    live = await buildTestApp({ PUBLIC_URL: publicUrl });
    await live.app.listen({ port, host: "127.0.0.1" });
  });
  afterAll(() => live.close());

  async function placeOrder() {
    const shopper = await registerAndLogin(live);
    const [product] = await live.db.select().from(products).where(eq(products.outOfStock, false)).limit(1);
    if (!product) throw new Error("no product");
    const size = product.sizes.find((candidate) => !product.sizeOutOfStock[candidate]) as string;
    const fee = product.priceCents >= 50_000 ? 0 : 7_500;
    const response = await live.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: shopper.headers,
      payload: {
        subtotal: Number(centsToDecimal(product.priceCents)),
        deliveryFee: Number(centsToDecimal(fee)),
        total: Number(centsToDecimal(product.priceCents + fee)),
        items: [{ id: product.id, name: product.name, size, quantity: 1 }],
        customerEmail: "thandi@example.co.za",
        userId: shopper.user.id,
        deliveryInfo: {
          name: "Thandi O'Neill-Mokoena",
          phone: "082 555 0101",
          email: "thandi@example.co.za",
          address: "12 Jacaranda Street",
          city: "Pretoria",
          province: "Gauteng",
          zipCode: "0181",
        },
      },
    });
    expect(response.statusCode).toBe(200);
    return response.json() as { orderId: string; payfastData: Record<string, string>; payfastUrl: string };
  }

  const post = (url: string, body: string) =>
    live.app.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: publicUrl },
      payload: body,
    });

  it("takes a shopper from the checkout form through Complete payment to a paid order", async () => {
    const { orderId, payfastData, payfastUrl } = await placeOrder();
    expect(payfastUrl).toBe(`${publicUrl}/payfast-emulator/eng/process`);

    const page = await post("/payfast-emulator/eng/process", form(payfastData));
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain("PayFast test emulator — no real money moves");
    expect(page.body).toContain(`R${payfastData.amount}`);
    expect(page.body).toContain(`Snug &amp; Dry order ${orderId.slice(-8).toUpperCase()}`);
    expect(page.body).toContain(">Complete payment</button>");
    expect(page.body).toContain(">Cancel payment</button>");
    expect(page.body).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);
    const carried = hiddenFields(page.body);
    expect(Object.fromEntries(carried)).toEqual(payfastData);

    const done = await post("/payfast-emulator/eng/complete", form(carried));
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`${publicUrl}/success?orderId=${orderId}`);

    // The ITN arrived (and was confirmed) before the redirect, as PayFast does it.
    const order = await orderRow(live, orderId);
    expect(order).toMatchObject({ status: "completed", paidBy: "itn" });
    const records = await itnRows(live, orderId);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      outcome: "accepted",
      paymentStatus: "COMPLETE",
      amountGross: payfastData.amount,
    });
    const fieldNames = [...new URLSearchParams(records[0]?.rawBody)].map(([key]) => key);
    expect(fieldNames).toEqual([
      "m_payment_id",
      "pf_payment_id",
      "payment_status",
      "item_name",
      "item_description",
      "amount_gross",
      "amount_fee",
      "amount_net",
      "custom_str1",
      "custom_str2",
      "custom_str3",
      "custom_str4",
      "custom_str5",
      "custom_int1",
      "custom_int2",
      "custom_int3",
      "custom_int4",
      "custom_int5",
      "name_first",
      "name_last",
      "email_address",
      "merchant_id",
      "signature",
    ]);
    const sent = Object.fromEntries(new URLSearchParams(records[0]?.rawBody));
    expect(sent.pf_payment_id).toMatch(/^\d{7}$/);
    expect(sent.name_last).toBe("O'Neill-Mokoena");
    expect(Number(sent.amount_fee)).toBeLessThan(0);
    expect((await live.db.select().from(payfastEmulatorNotifications)).length).toBeGreaterThan(0);
  });

  it("sends the shopper to cancel_url on Cancel payment and leaves the order pending", async () => {
    const { orderId, payfastData } = await placeOrder();
    const cancelled = await post("/payfast-emulator/eng/cancel", form(payfastData));
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe(`${publicUrl}/cancel?orderId=${orderId}`);
    expect((await orderRow(live, orderId))?.status).toBe("pending");
    expect(await itnRows(live, orderId)).toEqual([]);
  });

  it("rejects a checkout form whose signature does not match, as PayFast does", async () => {
    const { orderId, payfastData } = await placeOrder();
    const page = await post("/payfast-emulator/eng/process", form({ ...payfastData, amount: "5.00" }));
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain("Generated signature does not match submitted signature.");
    const completed = await post("/payfast-emulator/eng/complete", form({ ...payfastData, amount: "5.00" }));
    expect(completed.statusCode).toBe(400);
    expect((await orderRow(live, orderId))?.status).toBe("pending");
  });

  it("rejects a checkout form for another merchant", async () => {
    const { payfastData } = await placeOrder();
    const page = await post("/payfast-emulator/eng/process", form({ ...payfastData, merchant_id: "10027938" }));
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain("merchant ID or merchant key does not match");
  });

  it("refuses to notify or redirect anywhere but this shop", async () => {
    const fields = {
      merchant_id: PAYFAST_SANDBOX.merchantId,
      merchant_key: PAYFAST_SANDBOX.merchantKey,
      return_url: "https://attacker.example/return",
      notify_url: "http://169.254.169.254/latest",
      amount: "10.00",
      item_name: "Order",
    };
    const signed = { ...fields, signature: checkoutSignature(fields, PAYFAST_SANDBOX.passphrase) };
    const page = await post("/payfast-emulator/eng/complete", form(signed));
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain("must point at this shop");
  });

  it("redirects only to a clean URL on this shop, whatever the form holds", async () => {
    const fields = {
      merchant_id: PAYFAST_SANDBOX.merchantId,
      merchant_key: PAYFAST_SANDBOX.merchantKey,
      cancel_url: `${publicUrl}/cancel?orderId=x\r\nSet-Cookie: sid=planted`,
      amount: "10.00",
      item_name: "Order",
    };
    const signed = { ...fields, signature: checkoutSignature(fields, PAYFAST_SANDBOX.passphrase) };
    const response = await post("/payfast-emulator/eng/cancel", form(signed));
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${publicUrl}/cancel?orderId=xSet-Cookie:%20sid=planted`);
    expect(response.headers["set-cookie"]).toBeUndefined();
  });

  it("escapes every value it shows", async () => {
    const fields = {
      merchant_id: PAYFAST_SANDBOX.merchantId,
      merchant_key: PAYFAST_SANDBOX.merchantKey,
      return_url: `${publicUrl}/success?orderId=x&a="b"`,
      amount: "10.00",
      item_name: `<script>alert("x")</script>`,
      item_description: `"><img src=x onerror=alert(1)>`,
    };
    const signed = { ...fields, signature: checkoutSignature(fields, PAYFAST_SANDBOX.passphrase) };
    const page = await post("/payfast-emulator/eng/process", form(signed));
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain("<script>");
    expect(page.body).not.toContain("<img");
    expect(page.body).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(Object.fromEntries(hiddenFields(page.body))).toEqual(signed);
  });

  it("answers VALID only for notifications it sent", async () => {
    const orderId = await pendingOrder(live);
    const forged = itn(orderId);
    const paramString = forged.slice(0, forged.indexOf("&signature="));
    const answer = await post("/payfast-emulator/eng/query/validate", paramString);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe("INVALID");

    await live.db.insert(payfastEmulatorNotifications).values({
      paramHash: (await import("node:crypto")).createHash("sha256").update(paramString).digest("hex"),
    });
    expect((await post("/payfast-emulator/eng/query/validate", paramString)).body).toBe("VALID");
    expect((await post("/payfast-emulator/eng/query/validate", "")).body).toBe("INVALID");
  });

  it("is not mounted outside local mode", async () => {
    const sandbox = await buildTestApp({ PAYFAST_MODE: "sandbox" });
    try {
      const response = await sandbox.app.inject({
        method: "POST",
        url: "/payfast-emulator/eng/query/validate",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "a=b",
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await sandbox.close();
    }
  });
});
