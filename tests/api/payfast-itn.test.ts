import { randomInt, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { asc, eq } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AttentionItem } from "#domain/schemas/payments.js";
import { originCheck } from "#server/auth/origin-check.js";
import { signItnFields } from "#server/payfast/signature.js";
import { payfastRoutes } from "#server/payments/itn-routes.js";
import { PAYFAST_SANDBOX } from "#server/platform/config.js";
import { orders, payfastItns } from "#server/platform/db/schema.js";
import { insertOrder } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { registerAndLogin } from "../helpers/users.js";

/** Stands in for PayFast's /eng/query/validate: answers `answer`, remembers what it was asked. */
const validator = {
  answer: "VALID",
  status: 200,
  received: [] as string[],
  userAgents: [] as (string | undefined)[],
  server: http.createServer((request, response) => {
    validator.userAgents.push(request.headers["user-agent"]);
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
  validator.userAgents = [];
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

/** The admin's "Needs attention" list, as the admin API answers it. */
async function attention(app: TestApp): Promise<AttentionItem[]> {
  const admin = await registerAndLogin(app, { admin: true });
  const response = await app.app.inject({
    method: "GET",
    url: "/api/admin/payments/attention",
    headers: admin.headers,
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { items: AttentionItem[] }).items;
}

const REFUSED = { message: "Notification refused", code: "NOTIFICATION_REFUSED" };
const RECEIVED = { message: "Notification received" };

/** Posts the notification and expects it refused: 400 with the generic message, order untouched, metadata kept. */
async function expectRefused(app: TestApp, orderId: string, body: string, reason: RegExp, options = {}) {
  const response = await notify(app, body, options);
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual(REFUSED);
  const order = await orderRow(app, orderId);
  expect(order).toMatchObject({ status: "pending", paidAt: null, paidBy: null, pfPaymentId: null });
  const records = await itnRows(app, orderId);
  expect(records.map((record) => record.outcome)).toEqual(["rejected"]);
  expect(records[0]?.reason).toMatch(reason);
  // Only a prefix of a refused body is kept.
  expect(records[0]?.rawBody).toBe(body.slice(0, 256));
}

/**
 * Posts a signed notification from an address that is not PayFast's while PayFast's confirmation
 * does not say VALID: 400 (PayFast sends it again), the order untouched, the whole notification
 * kept and listed in "Needs attention" with what happened.
 */
async function expectSourceRefused(app: TestApp, orderId: string, body: string, reason: RegExp, options = {}) {
  validator.answer = "INVALID";
  const response = await notify(app, body, options);
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual(REFUSED);
  expect(await orderRow(app, orderId)).toMatchObject({ status: "pending", paidAt: null, pfPaymentId: null });
  const records = await itnRows(app, orderId);
  expect(records.map((record) => record.outcome)).toEqual(["source_refused"]);
  expect(records[0]?.reason).toMatch(reason);
  expect(records[0]?.rawBody).toBe(body);
  const item = (await attention(app)).find((candidate) => candidate.orderId === orderId);
  expect(item).toMatchObject({ kind: "source_refused", checkable: true, resolvable: true });
  expect(item?.detail).toMatch(reason);
  validator.answer = "VALID";
}

/** Posts the notification and expects 200 with the generic answer; returns the outcomes recorded for the order. */
async function expectReceived(app: TestApp, orderId: string, body: string, options = {}) {
  const response = await notify(app, body, options);
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual(RECEIVED);
  return (await itnRows(app, orderId)).map((record) => record.outcome);
}

const paymentId = (body: string) => new URLSearchParams(body).get("pf_payment_id") as string;

describe("POST /api/payfast/notify", () => {
  it("marks the order paid for a valid COMPLETE ITN after PayFast confirms it", async () => {
    const orderId = await pendingOrder(t);
    const body = itn(orderId);
    expect(await expectReceived(t, orderId, body)).toEqual(["accepted"]);

    const order = await orderRow(t, orderId);
    expect(order).toMatchObject({ status: "completed", paidBy: "itn", pfPaymentId: paymentId(body) });
    // The confirmation names the shop and its version to PayFast (not "node").
    expect(validator.userAgents).toEqual([
      expect.stringMatching(/^Snug-and-Dry\/\d+\.\d+\.\d+ \(\+http:\/\/localhost:3000\)$/),
    ]);
    expect(order?.paidAt).toBeInstanceOf(Date);
    const [record] = await itnRows(t, orderId);
    expect(record).toMatchObject({
      outcome: "accepted",
      reason: null,
      via: "itn",
      paymentStatus: "COMPLETE",
      amountGross: "574.99",
      sourceIp: "127.0.0.1",
      rawBody: body,
    });
    // The confirmation posts the same parameter string, without the signature.
    expect(validator.received).toEqual([body.slice(0, body.indexOf("&signature="))]);
  });

  it("processes a notification with PayFast's Referer and no Origin, as PayFast sends it", async () => {
    const orderId = await pendingOrder(t);
    const headers = { referer: "https://www.payfast.co.za/" };
    expect(await expectReceived(t, orderId, itn(orderId), { headers })).toEqual(["accepted"]);
    expect((await itnRows(t, orderId))[0]?.referer).toBe("https://www.payfast.co.za/");
  });

  it("would have been refused behind the browser cross-site check, where it used to be mounted", async () => {
    const old = Fastify({ logger: false });
    old.decorate("config", t.app.config);
    old.decorate("db", t.db);
    await old.register(originCheck);
    await old.register(payfastRoutes, { prefix: "/api/payfast", resolveHost: async () => [] });
    try {
      const orderId = await pendingOrder(t);
      const response = await old.inject({
        method: "POST",
        url: "/api/payfast/notify",
        remoteAddress: "127.0.0.1",
        headers: { "content-type": "application/x-www-form-urlencoded", referer: "https://www.payfast.co.za/" },
        payload: itn(orderId),
      });
      expect(response.statusCode).toBe(403);
      expect((await orderRow(t, orderId))?.status).toBe("pending");
    } finally {
      await old.close();
    }
  });

  it("books the same pf_payment_id once, however often it arrives", async () => {
    const orderId = await pendingOrder(t);
    const body = itn(orderId);
    await expectReceived(t, orderId, body);
    const paidAt = (await orderRow(t, orderId))?.paidAt;
    expect(await expectReceived(t, orderId, body)).toEqual(["accepted", "duplicate"]);
    expect((await orderRow(t, orderId))?.paidAt).toEqual(paidAt);
  });

  it("books one of many copies of an ITN racing each other", async () => {
    const orderId = await pendingOrder(t);
    const body = itn(orderId);
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(t, body)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
    const outcomes = (await itnRows(t, orderId)).map((record) => record.outcome);
    expect(outcomes.filter((outcome) => outcome === "accepted")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "duplicate")).toHaveLength(19);
  });

  it("flags a second payment for a paid order as paid twice, keeping both payment ids", async () => {
    const orderId = await pendingOrder(t);
    const first = itn(orderId);
    const second = itn(orderId);
    await expectReceived(t, orderId, first);
    expect(await expectReceived(t, orderId, second)).toEqual(["accepted", "paid_twice"]);
    expect(await orderRow(t, orderId)).toMatchObject({ status: "completed", pfPaymentId: paymentId(first) });
    const item = (await attention(t)).find((entry) => entry.orderId === orderId);
    expect(item).toMatchObject({ kind: "paid_twice", label: "Paid twice", amountGross: "574.99" });
    expect(item?.pfPaymentIds).toEqual([paymentId(first), paymentId(second)]);
  });

  it("books one and flags the other when two different payments for one order race", async () => {
    const orderId = await pendingOrder(t);
    const answers = await Promise.all([notify(t, itn(orderId)), notify(t, itn(orderId))]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const outcomes = (await itnRows(t, orderId)).map((record) => record.outcome).sort();
    expect(outcomes).toEqual(["accepted", "paid_twice"]);
  });

  it("honours a payment for an order that expired meanwhile: the order is paid (stock: tests/api/stock.test.ts)", async () => {
    const orderId = await pendingOrder(t);
    await t.pool.query(
      "update orders set status = 'cancelled', cancel_reason = 'expired', cancelled_at = now() where id = $1",
      [orderId],
    );
    const body = itn(orderId);
    expect(await expectReceived(t, orderId, body)).toEqual(["accepted"]);
    expect(await orderRow(t, orderId)).toMatchObject({
      status: "completed",
      paidBy: "itn",
      pfPaymentId: paymentId(body),
    });
    const [record] = await itnRows(t, orderId);
    expect(record?.reason).toBe(
      "The order had been cancelled (expired) before this payment. It is paid, and its stock was taken again.",
    );
    expect((await attention(t)).find((entry) => entry.orderId === orderId)).toBeUndefined();
  });

  it.each([
    ["one cent more", "575.00"],
    ["one cent less", "574.98"],
    ["far less", "5.00"],
    ["not an amount", "lots"],
  ])("flags a payment of %s than the order total and leaves the order pending", async (_name, amount) => {
    const orderId = await pendingOrder(t);
    expect(await expectReceived(t, orderId, itn(orderId, { amount_gross: amount }))).toEqual(["wrong_amount"]);
    expect(await orderRow(t, orderId)).toMatchObject({ status: "pending", paidAt: null });
    expect((await attention(t)).find((entry) => entry.orderId === orderId)).toMatchObject({
      kind: "wrong_amount",
      amountGross: amount,
      orderTotal: "574.99",
    });
  });

  it("notes a FAILED payment on the order, which a later COMPLETE one still pays", async () => {
    const orderId = await pendingOrder(t);
    expect(await expectReceived(t, orderId, itn(orderId, { payment_status: "FAILED" }))).toEqual(["failed"]);
    expect(await orderRow(t, orderId)).toMatchObject({ status: "pending", payfastStatus: "FAILED" });
    expect(validator.received).toEqual([]);

    expect(await expectReceived(t, orderId, itn(orderId))).toEqual(["failed", "accepted"]);
    expect(await orderRow(t, orderId)).toMatchObject({ status: "completed", payfastStatus: null });
  });

  it("notes a PENDING payment on the order", async () => {
    const orderId = await pendingOrder(t);
    expect(await expectReceived(t, orderId, itn(orderId, { payment_status: "PENDING" }))).toEqual(["pending"]);
    expect(await orderRow(t, orderId)).toMatchObject({ status: "pending", payfastStatus: "PENDING" });
  });

  it("records and flags a payment for an unknown order", async () => {
    const unknown = randomUUID();
    expect(await expectReceived(t, unknown, itn(unknown))).toEqual(["unknown_order"]);
    expect((await attention(t)).some((entry) => entry.kind === "unknown_order" && entry.orderId === null)).toBe(true);
  });

  it("records and flags a payment whose m_payment_id is not one of our order ids", async () => {
    const response = await notify(t, itn("000000020"));
    expect(response.statusCode).toBe(200);
    const [record] = await t.db
      .select()
      .from(payfastItns)
      .where(eq(payfastItns.reason, 'No order has the reference "000000020".'));
    expect(record).toMatchObject({ outcome: "unknown_order", orderId: null });
  });

  it("records and flags a payment for another merchant", async () => {
    const orderId = await pendingOrder(t);
    expect(await expectReceived(t, orderId, itn(orderId, { merchant_id: "10027938" }))).toEqual(["foreign_merchant"]);
    expect((await orderRow(t, orderId))?.status).toBe("pending");
  });

  it("keeps the order pending when PayFast's server confirmation does not say VALID", async () => {
    const orderId = await pendingOrder(t);
    validator.answer = "INVALID";
    const body = itn(orderId);
    expect(await expectReceived(t, orderId, body)).toEqual(["unconfirmed"]);
    expect((await orderRow(t, orderId))?.status).toBe("pending");
    expect(validator.received).toHaveLength(1);
    // The admin sees it at once, with what happened and Check with PayFast.
    const listed = (await attention(t)).filter((item) => item.orderId === orderId);
    expect(listed).toMatchObject([{ kind: "unconfirmed", checkable: true, pfPaymentIds: [paymentId(body)] }]);
    expect(listed[0]?.detail).toMatch(/did not say VALID \(HTTP 200 "INVALID"\)/);
    // PayFast sends it again: the newest copy stands for both; once confirmed, it pays and leaves the list.
    expect(await expectReceived(t, orderId, body)).toEqual(["unconfirmed", "unconfirmed"]);
    expect((await attention(t)).filter((item) => item.orderId === orderId)).toHaveLength(1);
    validator.answer = "VALID";
    expect(await expectReceived(t, orderId, body)).toEqual(["unconfirmed", "unconfirmed", "accepted"]);
    expect((await attention(t)).filter((item) => item.orderId === orderId)).toEqual([]);
  });

  it("keeps the order pending when the server confirmation answers an error", async () => {
    const orderId = await pendingOrder(t);
    validator.status = 500;
    expect(await expectReceived(t, orderId, itn(orderId))).toEqual(["unconfirmed"]);
    expect((await itnRows(t, orderId))[0]?.reason).toMatch(/PayFast's confirmation did not say VALID \(HTTP 500/);
  });

  it("takes a COMPLETE ITN for an order an admin confirmed by hand as that order's payment", async () => {
    const orderId = await pendingOrder(t);
    await t.pool.query("update orders set status = 'completed', paid_by = 'admin', paid_at = now() where id = $1", [
      orderId,
    ]);
    const body = itn(orderId);
    expect(await expectReceived(t, orderId, body)).toEqual(["accepted"]);
    expect(await orderRow(t, orderId)).toMatchObject({ paidBy: "admin", pfPaymentId: paymentId(body) });
  });

  it("refuses an ITN with a bad signature with a generic 400", async () => {
    const orderId = await pendingOrder(t);
    const tampered = itn(orderId).replace("amount_net=561.77", "amount_net=574.99");
    await expectRefused(t, orderId, tampered, /signature mismatch/);
    expect(validator.received).toEqual([]);
  });

  it("refuses an ITN signed without our passphrase", async () => {
    const orderId = await pendingOrder(t);
    await expectRefused(t, orderId, itn(orderId, {}, ""), /signature mismatch/);
  });

  it("refuses an ITN without a signature", async () => {
    const orderId = await pendingOrder(t);
    const unsigned = itn(orderId).replace(/&signature=[0-9a-f]+$/, "");
    await expectRefused(t, orderId, unsigned, /no signature/);
  });

  it("keeps only a prefix of a large forged body", async () => {
    const orderId = await pendingOrder(t);
    const forged = `${itn(orderId, {}, "")}&junk=${"x".repeat(20_000)}`;
    await expectRefused(t, orderId, forged, /signature mismatch/);
  });

  it("records an ITN holding NUL characters instead of failing", async () => {
    const orderId = await pendingOrder(t);
    const response = await notify(t, itn(orderId, { payment_status: "FAIL\u0000ED", custom_str1: "\u0000" }));
    expect(response.statusCode).toBe(200);
    const [record] = await itnRows(t, orderId);
    expect(record).toMatchObject({ outcome: "ignored", paymentStatus: "FAIL\uFFFDED" });
  });

  it("refuses a body that is not a form", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/payfast/notify",
      headers: { "content-type": "application/json" },
      payload: { m_payment_id: "x" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(REFUSED);
  });
});

describe("refused notifications are rate limited per source address", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp();
  });
  afterAll(() => limited.close());

  it("answers 429 past 20 a minute from one address and stores no more of them", async () => {
    const forged = itn(randomUUID(), {}, "not-our-passphrase");
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await notify(limited, forged, { remoteAddress: "203.0.113.7" })).statusCode);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(400));
    expect(statuses.slice(20)).toEqual(Array(5).fill(429));
    const { rows } = await limited.pool.query(
      "select count(*)::int as n from payfast_itns where source_ip = '203.0.113.7'",
    );
    expect(rows[0].n).toBe(20);
    // Another address is not held back by it.
    expect((await notify(limited, forged, { remoteAddress: "203.0.113.8" })).statusCode).toBe(400);
  });

  it("counts an IPv6 client's whole /64 as one address", async () => {
    const forged = itn(randomUUID(), {}, "not-our-passphrase");
    for (let i = 0; i < 20; i++) {
      expect((await notify(limited, forged, { remoteAddress: `2001:db8:7:1::${i + 1}` })).statusCode).toBe(400);
    }
    expect((await notify(limited, forged, { remoteAddress: "2001:db8:7:1:ffff::9" })).statusCode).toBe(429);
    expect((await notify(limited, forged, { remoteAddress: "2001:db8:7:2::1" })).statusCode).toBe(400);
  });
});

describe("ITN source addresses", () => {
  let ranged: TestApp;
  let proxied: TestApp;
  let sandbox: TestApp;
  let oneHop: TestApp;
  const awsAddress = "13.245.74.88";
  beforeAll(async () => {
    const { port } = validator.server.address() as AddressInfo;
    const validateUrl = `http://127.0.0.1:${port}/eng/query/validate`;
    ranged = await buildTestApp({ PAYFAST_VALIDATE_URL: validateUrl, PAYFAST_VALID_IPS: "197.97.145.144/28" });
    proxied = await buildTestApp({
      PAYFAST_VALIDATE_URL: validateUrl,
      PAYFAST_VALID_IPS: "197.97.145.144/28",
      TRUST_PROXY: "127.0.0.1",
    });
    oneHop = await buildTestApp({
      PAYFAST_VALIDATE_URL: validateUrl,
      PAYFAST_VALID_IPS: "197.97.145.144/28",
      TRUST_PROXY: "1",
    });
    // Sandbox mode checks the sandbox host's addresses, looked up at start (here by a stand-in DNS).
    sandbox = await buildTestApp(
      { PAYFAST_MODE: "sandbox", PAYFAST_VALIDATE_URL: validateUrl },
      { resolvePayfastHost: async (host) => (host === "sandbox.payfast.co.za" ? [awsAddress] : []) },
    );
  });
  afterAll(async () => {
    await ranged.close();
    await proxied.close();
    await sandbox.close();
    await oneHop.close();
  });

  it("with one trusted hop, takes the address the proxy added, not one the client wrote before it", async () => {
    const orderId = await pendingOrder(oneHop);
    await expectReceived(oneHop, orderId, itn(orderId), {
      headers: { "x-forwarded-for": "203.0.113.9, 197.97.145.150" },
    });
    expect((await itnRows(oneHop, orderId))[0]).toMatchObject({ outcome: "accepted", sourceIp: "197.97.145.150" });

    const forged = await pendingOrder(oneHop);
    await expectSourceRefused(oneHop, forged, itn(forged), /Sent from 203\.0\.113\.9/, {
      headers: { "x-forwarded-for": "197.97.145.150, 203.0.113.9" },
    });
  });

  it("books a signed ITN from an address outside every list when PayFast confirms it VALID", async () => {
    const orderId = await pendingOrder(ranged);
    const body = itn(orderId);
    expect(await expectReceived(ranged, orderId, body, { remoteAddress: "198.51.100.20" })).toEqual(["accepted"]);
    // Asked once: the source check's confirmation is the server confirmation.
    expect(validator.received).toEqual([body.slice(0, body.indexOf("&signature="))]);
    expect(await orderRow(ranged, orderId)).toMatchObject({ status: "completed", pfPaymentId: paymentId(body) });
  });

  it("refuses an ITN from outside the configured ranges", async () => {
    const orderId = await pendingOrder(ranged);
    await expectSourceRefused(ranged, orderId, itn(orderId), /Sent from 127\.0\.0\.1, which is not a PayFast address/);
  });

  it("accepts an ITN from inside the configured ranges", async () => {
    const orderId = await pendingOrder(ranged);
    expect(await expectReceived(ranged, orderId, itn(orderId), { remoteAddress: "197.97.145.150" })).toEqual([
      "accepted",
    ]);
  });

  it("accepts an ITN from an address PayFast's host resolves to, outside every published range", async () => {
    const orderId = await pendingOrder(sandbox);
    expect(await expectReceived(sandbox, orderId, itn(orderId), { remoteAddress: awsAddress })).toEqual(["accepted"]);
  });

  it("refuses loopback outside local mode", async () => {
    const orderId = await pendingOrder(sandbox);
    await expectSourceRefused(sandbox, orderId, itn(orderId), /Sent from 127\.0\.0\.1/);
  });

  it("ignores X-Forwarded-For unless the proxy is trusted", async () => {
    const orderId = await pendingOrder(ranged);
    await expectSourceRefused(ranged, orderId, itn(orderId), /Sent from 127\.0\.0\.1/, {
      headers: { "x-forwarded-for": "197.97.145.150" },
    });
  });

  it("takes the client address from a trusted proxy's X-Forwarded-For", async () => {
    const orderId = await pendingOrder(proxied);
    await expectReceived(proxied, orderId, itn(orderId), { headers: { "x-forwarded-for": "197.97.145.150" } });
    const [record] = await itnRows(proxied, orderId);
    expect(record).toMatchObject({ outcome: "accepted", sourceIp: "197.97.145.150" });
  });

  it("does not believe X-Forwarded-For from an untrusted peer even when a proxy is trusted", async () => {
    const orderId = await pendingOrder(proxied);
    await expectSourceRefused(proxied, orderId, itn(orderId), /Sent from 10\.1\.2\.3/, {
      remoteAddress: "10.1.2.3",
      headers: { "x-forwarded-for": "197.97.145.150" },
    });
  });
});
