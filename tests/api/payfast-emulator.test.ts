import { createHash, randomInt } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimal } from "#domain/money.js";
import { apiSignature, payfastApiClient, payfastTimestamp, sastDate } from "#server/payfast/api-client.js";
import { EMULATOR_REFERER } from "#server/payfast/emulator-notifier.js";
import { checkoutSignature, signItnFields } from "#server/payfast/signature.js";
import { PAYFAST_SANDBOX } from "#server/platform/config.js";
import { freePort } from "#server/platform/db/embedded.js";
import {
  orders,
  payfastEmulatorNotifications,
  payfastEmulatorPayments,
  payfastItns,
} from "#server/platform/db/schema.js";
import { insertOrder } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { inStockSizes, sizePriceCents, stockedCatalog } from "../helpers/stock.js";
import { registerAndLogin } from "../helpers/users.js";
import { waitFor } from "../helpers/wait.js";

/** A pending order of R574.99 (one R499.99 line plus the R75 delivery fee), straight in the database. */
const pendingOrder = (app: TestApp): Promise<string> =>
  insertOrder(app, {
    lines: [{ name: "Baby Nappies", size: "Size 3", quantity: 1, unitPriceCents: 49_999 }],
    customerEmail: "thandi@example.co.za",
  });

/** An ITN as PayFast sends it, signed with the sandbox passphrase. */
function itn(orderId: string) {
  return signItnFields(
    Object.entries({
      m_payment_id: orderId,
      pf_payment_id: String(randomInt(1_000_000, 10_000_000)),
      payment_status: "COMPLETE",
      amount_gross: "574.99",
      merchant_id: PAYFAST_SANDBOX.merchantId,
    }),
    PAYFAST_SANDBOX.passphrase,
  );
}

async function orderRow(app: TestApp, id: string) {
  const [row] = await app.db.select().from(orders).where(eq(orders.id, id));
  return row;
}

async function itnRows(app: TestApp, orderId: string) {
  return app.db.select().from(payfastItns).where(eq(payfastItns.orderId, orderId)).orderBy(asc(payfastItns.id));
}

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
  let paymentOrigin: string;

  beforeAll(async () => {
    // The emulator posts the ITN over real HTTP and the notify handler confirms it over real HTTP;
    // its payment page is served from a second origin after a redirect, as live PayFast does.
    const port = await freePort();
    const paymentPort = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    paymentOrigin = `http://127.0.0.1:${paymentPort}`;
    live = await buildTestApp({
      PUBLIC_URL: publicUrl,
      PORT: String(port),
      PAYFAST_EMULATOR_PAYMENT_PORT: String(paymentPort),
      // Reconciliation runs only when a test asks for it (every 10 hours otherwise).
      PAYFAST_RECONCILE_MINUTES: "600",
    });
    await live.app.listen({ port, host: "127.0.0.1" });
  });
  afterAll(() => live.close());

  /** Posts the checkout form to /eng/process, follows PayFast's redirect to the second origin, returns the payment page. */
  async function paymentPage(payfastData: Record<string, string>) {
    const redirect = await post("/payfast-emulator/eng/process", form(payfastData));
    expect(redirect.statusCode).toBe(302);
    const location = redirect.headers.location as string;
    expect(location).toMatch(new RegExp(`^${paymentOrigin}/eng/process/payment/[0-9a-f-]{36}$`));
    const page = await fetch(location);
    return { status: page.status, contentType: page.headers.get("content-type") ?? "", body: await page.text() };
  }

  /** Clicks one of the payment page's buttons: posts its carried fields to the second origin. */
  async function click(action: "complete" | "complete-lost" | "fail" | "cancel", fields: [string, string][]) {
    const response = await fetch(`${paymentOrigin}/eng/${action}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form(fields),
      redirect: "manual",
    });
    return { status: response.status, location: response.headers.get("location") };
  }

  async function placeOrder() {
    const shopper = await registerAndLogin(live);
    const product = (await stockedCatalog(live.db)).find((candidate) => inStockSizes(candidate).length > 0);
    if (!product) throw new Error("no product");
    const size = inStockSizes(product)[0] as string;
    const priceCents = sizePriceCents(product, size);
    const fee = priceCents >= 50_000 ? 0 : 7_500;
    const response = await live.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: shopper.headers,
      payload: {
        subtotal: Number(centsToDecimal(priceCents)),
        deliveryFee: Number(centsToDecimal(fee)),
        total: Number(centsToDecimal(priceCents + fee)),
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
          suburb: "Hatfield",
        },
      },
    });
    expect(response.statusCode).toBe(200);
    return {
      ...(response.json() as { orderId: string; payfastData: Record<string, string>; payfastUrl: string }),
      shopper,
    };
  }

  const post = (url: string, body: string) =>
    live.app.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: publicUrl },
      payload: body,
    });

  it("takes a shopper from the checkout form through PayFast's redirect and Complete payment to a paid order", async () => {
    const { orderId, payfastData, payfastUrl } = await placeOrder();
    expect(payfastUrl).toBe(`${publicUrl}/payfast-emulator/eng/process`);

    const page = await paymentPage(payfastData);
    expect(page.status).toBe(200);
    expect(page.contentType).toMatch(/text\/html/);
    expect(page.body).toContain("PayFast test emulator — no real money moves");
    expect(page.body).toContain(`R${payfastData.amount}`);
    expect(page.body).toContain(`Snug &amp; Dry order ${orderId.slice(-8).toUpperCase()}`);
    expect(page.body).toContain(">Complete payment</button>");
    expect(page.body).toContain(">Complete payment (notification lost)</button>");
    expect(page.body).toContain(">Payment fails (card declined)</button>");
    expect(page.body).toContain(">Cancel payment</button>");
    expect(page.body).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);
    const carried = hiddenFields(page.body);
    expect(Object.fromEntries(carried)).toEqual(payfastData);

    const done = await click("complete", carried);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${publicUrl}/success?orderId=${orderId}`);

    // The ITN arrived (and was confirmed) before the redirect, as PayFast does it.
    const order = await orderRow(live, orderId);
    expect(order).toMatchObject({ status: "completed", paidBy: "itn" });
    const records = await itnRows(live, orderId);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      outcome: "accepted",
      paymentStatus: "COMPLETE",
      amountGross: payfastData.amount,
      // Like PayFast's, the notification names a PayFast host in its Referer.
      referer: EMULATOR_REFERER,
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
    expect(sent.pf_payment_id).toMatch(/^\d{7,8}$/);
    expect(sent.name_last).toBe("O'Neill-Mokoena");
    expect(Number(sent.amount_fee)).toBeLessThan(0);
    expect((await live.db.select().from(payfastEmulatorNotifications)).length).toBeGreaterThan(0);
  });

  it("sends the shopper to cancel_url on Cancel payment and leaves the order pending", async () => {
    const { orderId, payfastData } = await placeOrder();
    const cancelled = await click("cancel", Object.entries(payfastData));
    expect(cancelled.status).toBe(303);
    expect(cancelled.location).toBe(`${publicUrl}/cancel?orderId=${orderId}`);
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
    const page = await paymentPage(signed);
    expect(page.status).toBe(200);
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
      paramHash: createHash("sha256").update(paramString).digest("hex"),
    });
    expect((await post("/payfast-emulator/eng/query/validate", paramString)).body).toBe("VALID");
    expect((await post("/payfast-emulator/eng/query/validate", "")).body).toBe("INVALID");
  });

  /** A stand-in notify_url that answers the given statuses in turn (then 200), recording each request. */
  async function flakyNotifyUrl(statuses: number[]) {
    const received: { referer: string | undefined; body: string; at: number }[] = [];
    const server = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      request.on("end", () => {
        received.push({ referer: request.headers.referer, body, at: Date.now() });
        response.writeHead(statuses.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/notify`, received, close: () => new Promise((r) => server.close(r)) };
  }

  const emulator = () => {
    const found = live.app.payfastEmulator;
    if (!found) throw new Error("no emulator in local mode");
    return found;
  };

  it("sends a notification again, with PayFast's Referer, until it is answered 200", async () => {
    const orderId = await pendingOrder(live);
    const stand = await flakyNotifyUrl([500, 503]);
    try {
      const pfPaymentId = await emulator().notifier.takePayment(
        { m_payment_id: orderId, amount: "574.99", item_name: "Order" },
        { notifyUrl: stand.url },
      );
      // Again at once (the next sweep, within half a second), then about two seconds later
      // (PayFast's ten minutes, sped up 300 times).
      const [payment] = await waitFor(
        () =>
          live.db.select().from(payfastEmulatorPayments).where(eq(payfastEmulatorPayments.pfPaymentId, pfPaymentId)),
        (rows) => rows[0]?.deliveredAt != null,
      );
      expect(payment).toMatchObject({ attempts: 3, nextAttemptAt: null });
      expect(stand.received).toHaveLength(3);
      const [first, second, third] = stand.received.map((request) => request.at);
      expect((second ?? 0) - (first ?? 0)).toBeLessThan(1_500);
      expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(1_900);
      expect(stand.received.map((request) => request.referer)).toEqual([
        EMULATOR_REFERER,
        EMULATOR_REFERER,
        EMULATOR_REFERER,
      ]);
      expect(stand.received[0]?.body).toBe(stand.received[1]?.body);
    } finally {
      await stand.close();
    }
  });

  it("can send a FAILED notification and a duplicate, as PayFast may", async () => {
    const { orderId, payfastData } = await placeOrder();
    const notifyUrl = payfastData.notify_url as string;
    await emulator().notifier.takePayment(payfastData, { status: "FAILED", notifyUrl });
    expect(await orderRow(live, orderId)).toMatchObject({ status: "pending", payfastStatus: "FAILED" });

    const paid = await emulator().notifier.takePayment(payfastData, { notifyUrl });
    expect(await emulator().notifier.resend(paid)).toBe(200);
    expect((await itnRows(live, orderId)).map((record) => record.outcome)).toEqual(["failed", "accepted", "duplicate"]);
    expect(await orderRow(live, orderId)).toMatchObject({ status: "completed", pfPaymentId: paid });
  });

  it("notifies FAILED on 'Payment fails' and returns the shopper, whose order shows the failure", async () => {
    const { orderId, payfastData, shopper } = await placeOrder();
    const page = await paymentPage(payfastData);
    const done = await click("fail", hiddenFields(page.body));
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${publicUrl}/success?orderId=${orderId}`);
    expect((await itnRows(live, orderId)).map((record) => record.outcome)).toEqual(["failed"]);
    const order = await live.app.inject({ method: "GET", url: `/api/orders/${orderId}`, headers: shopper.headers });
    expect(order.json()).toMatchObject({ status: "pending", payfastStatus: "FAILED" });
  });

  it("takes the money without a notification on 'notification lost'; reconciliation then pays the order", async () => {
    const { orderId, payfastData } = await placeOrder();
    const page = await paymentPage(payfastData);
    const done = await click("complete-lost", hiddenFields(page.body));
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${publicUrl}/success?orderId=${orderId}`);
    expect(await orderRow(live, orderId)).toMatchObject({ status: "pending" });
    expect(await itnRows(live, orderId)).toEqual([]);

    // Not yet due: the order has waited less than the few minutes a notification may take.
    expect((await live.app.reconcilePayfast()).findings.some((finding) => finding.orderId === orderId)).toBe(false);
    await live.pool.query("update orders set created_at = now() - interval '10 minutes' where id = $1", [orderId]);
    const { findings } = await live.app.reconcilePayfast();
    expect(findings.filter((finding) => finding.orderId === orderId)).toEqual([
      expect.objectContaining({ outcome: "accepted" }),
    ]);
    const [payment] = await live.db
      .select()
      .from(payfastEmulatorPayments)
      .where(eq(payfastEmulatorPayments.mPaymentId, orderId));
    expect(await orderRow(live, orderId)).toMatchObject({
      status: "completed",
      paidBy: "reconcile",
      pfPaymentId: payment?.pfPaymentId,
    });
    expect((await itnRows(live, orderId))[0]).toMatchObject({ via: "reconcile", outcome: "accepted" });
    // A second run books nothing more.
    expect((await live.app.reconcilePayfast()).findings.some((finding) => finding.orderId === orderId)).toBe(false);
  });

  it("lets an admin ask PayFast about one pending order with Check with PayFast", async () => {
    const admin = await registerAndLogin(live, { admin: true });
    const check = (id: string) =>
      live.app.inject({
        method: "POST",
        url: `/api/admin/orders/${id}/check-payfast`,
        headers: { ...admin.headers, origin: publicUrl },
      });

    const { orderId, payfastData } = await placeOrder();
    const nothing = await check(orderId);
    expect(nothing.statusCode).toBe(200);
    expect(nothing.json()).toMatchObject({ outcome: "not_found", order: { status: "pending" } });

    const page = await paymentPage(payfastData);
    await click("complete-lost", hiddenFields(page.body));
    const found = await check(orderId);
    expect(found.json()).toMatchObject({
      outcome: "paid",
      message: "PayFast shows the payment: the order is now paid.",
      order: { id: orderId, status: "completed" },
    });
    const again = await check(orderId);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      message: "This order is no longer waiting for payment (Paid - Ready to Ship).",
      code: "ORDER_STATUS_CONFLICT",
    });
  });

  it("flags a payment of the wrong amount that reconciliation finds", async () => {
    const orderId = await pendingOrder(live);
    await emulator().notifier.takePayment(
      { m_payment_id: orderId, amount: "574.98", item_name: "Order" },
      { notifyUrl: null, lost: true },
    );
    const { findings } = await live.app.reconcilePayfast([orderId]);
    expect(findings).toEqual([expect.objectContaining({ orderId, outcome: "wrong_amount" })]);
    expect((await orderRow(live, orderId))?.status).toBe("pending");
  });

  it("answers its transaction history only to a request signed as PayFast's API requires", async () => {
    const history = (headers: Record<string, string>, query = "from=2020-01-01&to=2099-01-01") =>
      fetch(`${publicUrl}/payfast-emulator/api/transactions/history?${query}`, { headers });
    const signedHeaders = (fields: Record<string, string>, passphrase: string = PAYFAST_SANDBOX.passphrase) => {
      const headers = {
        "merchant-id": PAYFAST_SANDBOX.merchantId,
        version: "v1",
        timestamp: payfastTimestamp(new Date()),
      };
      return { ...headers, signature: apiSignature({ ...headers, ...fields }, passphrase) };
    };
    const range = { from: "2020-01-01", to: "2099-01-01" };

    const good = await history(signedHeaders(range));
    expect(good.status).toBe(200);
    expect(await good.text()).toMatch(/^"Date","Type","Sign","Party",.*"M Payment ID","PF Payment ID"/);

    for (const headers of [
      signedHeaders(range, "wrong-passphrase"),
      signedHeaders({ from: "2020-01-02", to: "2099-01-01" }),
      { ...signedHeaders(range), "merchant-id": "10027938" },
      { ...signedHeaders(range), version: "v2" },
      {},
    ]) {
      const refused = await history(headers);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ data: { response: "Merchant authorisation failed." } });
    }
    // The shop's own client passes, and reads back a payment the emulator took.
    const orderId = await pendingOrder(live);
    const pfPaymentId = await emulator().notifier.takePayment(
      { m_payment_id: orderId, amount: "574.99", item_name: "Order" },
      { notifyUrl: null, lost: true },
    );
    const rows = await payfastApiClient(live.app.config).transactionHistory(sastDate(new Date()), sastDate(new Date()));
    expect(rows).toContainEqual(
      expect.objectContaining({ mPaymentId: orderId, pfPaymentId, grossCents: 57_499, type: "FUNDS_RECEIVED" }),
    );
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

describe("the emulator answers this machine only", () => {
  const ROUTES: [method: "GET" | "POST", url: string][] = [
    ["POST", "/payfast-emulator/eng/process"],
    ["POST", "/payfast-emulator/eng/complete"],
    ["POST", "/payfast-emulator/eng/complete-lost"],
    ["POST", "/payfast-emulator/eng/query/validate"],
    ["GET", "/payfast-emulator/api/transactions/history"],
  ];

  let direct: TestApp;
  let proxied: TestApp;
  let proxiedUrl: string;
  beforeAll(async () => {
    direct = await buildTestApp();
    // Behind one proxy on this machine: the client's address is the one the proxy forwards.
    const port = await freePort();
    proxiedUrl = `http://127.0.0.1:${port}`;
    proxied = await buildTestApp({ PUBLIC_URL: proxiedUrl, PORT: String(port), TRUST_PROXY: "1" });
    await proxied.app.listen({ port, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await direct.close();
    await proxied.close();
  });

  it.each(ROUTES)("refuses %s %s from another address with 403, taking nothing", async (method, url) => {
    for (const remoteAddress of ["192.168.1.20", "10.0.0.7", "2001:db8::7", "::ffff:192.168.1.20"]) {
      const response = await direct.app.inject({
        method,
        url,
        remoteAddress,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        ...(method === "POST" ? { payload: "m_payment_id=x&amount=574.99" } : {}),
      });
      expect(response.statusCode, remoteAddress).toBe(403);
      expect(response.json()).toEqual({
        message: expect.stringMatching(/from this machine only.*PAYFAST_MODE=sandbox/),
        code: "EMULATOR_LOCAL_ONLY",
      });
    }
    expect(await direct.db.select().from(payfastEmulatorPayments)).toEqual([]);
  });

  it.each(["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"])("answers a request from %s", async (remoteAddress) => {
    const response = await direct.app.inject({
      method: "POST",
      url: "/payfast-emulator/eng/query/validate",
      remoteAddress,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "a=b",
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe("INVALID");
  });

  it("refuses a client on another machine that reaches it through the shop's proxy", async () => {
    const send = (forwardedFor: string) =>
      fetch(`${proxiedUrl}/payfast-emulator/eng/query/validate`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": forwardedFor },
        body: "a=b",
      });
    const outside = await send("198.51.100.7");
    expect(outside.status).toBe(403);
    expect(await outside.json()).toMatchObject({ code: "EMULATOR_LOCAL_ONLY" });
    // A browser on the proxy's own machine still gets through.
    const inside = await send("127.0.0.1");
    expect(inside.status).toBe(200);
    expect(await inside.text()).toBe("INVALID");
  });
});
