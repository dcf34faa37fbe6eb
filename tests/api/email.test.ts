import { randomInt } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderNumber } from "#domain/order-status.js";
import { freePort } from "#server/platform/db/embedded.js";
import { emails } from "#server/platform/db/schema.js";
import { insertOrder } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { createOrderPayload } from "../helpers/orders.js";
import { completeItn } from "../helpers/payfast.js";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.js";
import { inStockSizes, stockedCatalog } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";
import { waitFor } from "../helpers/wait.js";

const validator = http.createServer((request, response) => {
  request.resume().on("end", () => response.writeHead(200, { "content-type": "text/plain" }).end("VALID"));
});

let t: TestApp;
let smtpPort: number;
let smtp: TestSmtpServer | null;
let shopper: LoggedInUser;
let admin: LoggedInUser;

beforeAll(async () => {
  await new Promise<void>((resolve) => validator.listen(0, "127.0.0.1", resolve));
  smtpPort = await freePort();
  smtp = await startSmtpServer(smtpPort);
  t = await buildTestApp({
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}?requireTLS=false`,
    MAIL_FROM: '"Snug & Dry" <orders@snuganddry.co.za>',
    PAYFAST_VALIDATE_URL: `http://127.0.0.1:${(validator.address() as AddressInfo).port}/eng/query/validate`,
  });
  [shopper, admin] = await Promise.all([registerAndLogin(t), registerAndLogin(t, { admin: true })]);
});
afterAll(async () => {
  await t.close();
  await smtp?.close();
  await new Promise((resolve) => validator.close(resolve));
});

/** A pending order of one unit, through POST /api/create-order: its id and the amount PayFast will report. */
async function placeOrder(): Promise<{ orderId: string; amount: string }> {
  const product = (await stockedCatalog(t.db)).find((candidate) => inStockSizes(candidate).length > 0);
  if (!product) throw new Error("nothing in stock");
  const response = await t.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: shopper.headers,
    payload: createOrderPayload(shopper, [{ ...product, size: inStockSizes(product)[0] as string, quantity: 1 }]),
  });
  expect(response.statusCode).toBe(200);
  const answer = response.json() as { orderId: string; payfastData: { amount: string } };
  return { orderId: answer.orderId, amount: answer.payfastData.amount };
}

function notify(orderId: string, amount: string, pfPaymentId: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/payfast/notify",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: completeItn(orderId, amount, pfPaymentId, shopper.user.email),
  });
}

const outbox = (eventKey: string) => t.db.select().from(emails).where(eq(emails.eventKey, eventKey));
const mailsAbout = (number: string) => (smtp?.received ?? []).filter((mail) => mail.subject?.includes(number));

describe("order confirmation", () => {
  it("sends one confirmation per paid order, however often PayFast repeats the notification", async () => {
    const { orderId, amount } = await placeOrder();
    const pfPaymentId = String(randomInt(1_000_000, 10_000_000));
    const answers = await Promise.all(Array.from({ length: 5 }, () => notify(orderId, amount, pfPaymentId)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);

    // The job sends it by itself, woken by the payment.
    const number = orderNumber(orderId);
    const received = await waitFor(
      () => mailsAbout(number),
      (found) => found.length > 0,
    );
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail?.subject).toBe(`Your Snug & Dry order ${number} is confirmed`);
    expect(mail?.to && "text" in mail.to ? mail.to.text : "").toBe(shopper.user.email);
    expect(mail?.from?.text).toBe('"Snug & Dry" <orders@snuganddry.co.za>');
    expect(mail?.html).toBeTruthy();
    expect(mail?.text).toContain(number);
    // The row says so a moment after the SMTP server took the message.
    const recorded = await waitFor(
      () => outbox(orderId),
      (rows) => rows[0]?.status === "sent",
    );
    expect(recorded).toMatchObject([{ kind: "order_confirmation", status: "sent", attempts: 1 }]);

    // Another run finds nothing more to send.
    await t.app.mail.deliverDue();
    expect(mailsAbout(number)).toHaveLength(1);
  });

  it("is written when an admin marks an order paid too", async () => {
    const { orderId } = await placeOrder();
    const response = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${orderId}/confirm-payment`,
      headers: admin.headers,
    });
    expect(response.statusCode).toBe(200);
    const received = await waitFor(
      () => mailsAbout(orderNumber(orderId)),
      (found) => found.length > 0,
    );
    expect(received).toHaveLength(1);
  });
});

describe("shipped", () => {
  it("tells the customer the courier and tracking number, with the courier's tracking link", async () => {
    const { orderId } = await placeOrder();
    await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${orderId}/confirm-payment`,
      headers: admin.headers,
    });
    const shipped = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${orderId}/status`,
      headers: admin.headers,
      payload: { status: "processed", courier: "The Courier Guy", trackingNumber: "TCG 123 456" },
    });
    expect(shipped.statusCode).toBe(200);
    const trackingUrl = "https://portal.thecourierguy.co.za/track?ref=TCG%20123%20456";
    expect(shipped.json()).toMatchObject({ courier: "The Courier Guy", trackingNumber: "TCG 123 456", trackingUrl });

    const number = orderNumber(orderId);
    const mail = (
      await waitFor(
        () => mailsAbout(`${number} is on its way`),
        (found) => found.length > 0,
      )
    )[0];
    expect(mail?.text).toContain("TCG 123 456");
    expect(mail?.text).toContain(trackingUrl);
    // The order history shows the same.
    const history = await t.app.inject({
      method: "GET",
      url: `/api/users/${shopper.user.id}/orders`,
      headers: shopper.headers,
    });
    expect((history.json() as { id: string }[]).find((order) => order.id === orderId)).toMatchObject({
      courier: "The Courier Guy",
      trackingUrl,
    });
  });
});

describe("accounts", () => {
  it("mails a reset link that works once and ends every session, then a notice of the change", async () => {
    const customer = await registerAndLogin(t);
    const forgot = await t.app.inject({
      method: "POST",
      url: "/api/auth/forgot-password",
      payload: { email: customer.user.email },
    });
    expect(forgot.statusCode).toBe(202);
    const toCustomer = () =>
      (smtp?.received ?? []).filter((mail) => mail.to && "text" in mail.to && mail.to.text === customer.user.email);
    // Sign-up's own message (the link that proves the address) goes to the same address first.
    const [resetMail] = await waitFor(
      () => toCustomer().filter((mail) => mail.subject?.startsWith("Reset")),
      (found) => found.length > 0,
    );
    expect(resetMail?.subject).toBe("Reset your Snug & Dry password");
    const link = /http:\/\/localhost:3000\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(resetMail?.text ?? "");
    expect(link, "the link in the plain-text part").not.toBeNull();
    // The outbox keeps what was sent, but not the live link.
    const [stored] = await waitFor(
      () =>
        t.db
          .select()
          .from(emails)
          .where(and(eq(emails.toAddress, customer.user.email), eq(emails.kind, "password_reset"))),
      (rows) => rows[0]?.status === "sent",
    );
    expect(stored?.textBody).not.toContain(link?.[1]);

    const reset = (password: string) =>
      t.app.inject({ method: "POST", url: "/api/auth/reset-password", payload: { token: link?.[1], password } });
    expect((await reset("a quiet Karoo morning 42")).statusCode).toBe(200);
    expect((await reset("another Karoo morning 43")).statusCode).toBe(400);
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: customer.headers });
    expect(me.statusCode).toBe(401);
    const notices = await waitFor(toCustomer, (found) => found.some((mail) => mail.subject?.includes("was changed")));
    expect(notices.map((mail) => mail.subject)).toContain("Your Snug & Dry password was changed");
  });
});

describe("an SMTP server that is down", () => {
  it("loses nothing: the message waits, is retried with the error kept, and arrives once the server is back", async () => {
    await smtp?.close();
    smtp = null;
    const { orderId } = await placeOrder();
    await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${orderId}/confirm-payment`,
      headers: admin.headers,
    });

    const [retrying] = await waitFor(
      () => outbox(orderId),
      (rows) => rows[0]?.status === "retrying",
    );
    expect(retrying).toMatchObject({ status: "retrying", attempts: 1 });
    expect(retrying?.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(retrying?.nextAttemptAt?.getTime()).toBeGreaterThan(Date.now() + 30_000);

    // The server comes back; the retry is due (as if the minute had passed).
    smtp = await startSmtpServer(smtpPort);
    await t.db.update(emails).set({ nextAttemptAt: new Date() }).where(eq(emails.eventKey, orderId));
    // Sent here, or by the job if its run took it first (a lease keeps them from both sending it).
    await t.app.mail.deliverDue();
    const [sent] = await waitFor(
      () => outbox(orderId),
      (rows) => rows[0]?.status === "sent",
    );
    expect(sent).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(mailsAbout(orderNumber(orderId))).toHaveLength(1);
  });
});

describe("an SMTP server that refuses a recipient", () => {
  it("keeps and logs its answer without the e-mail addresses it quotes", async () => {
    const refused = `refused.${randomInt(1e9)}@example.co.za`;
    await smtp?.close();
    smtp = await startSmtpServer(smtpPort, { refuse: /^refused\./ });
    try {
      await registerAndLogin(t, { email: refused });
      const asked = await t.app.inject({
        method: "POST",
        url: "/api/auth/forgot-password",
        payload: { email: refused },
      });
      expect(asked.statusCode).toBe(202);
      await t.app.mail.deliverDue();
      const [row] = await waitFor(
        () => t.db.select().from(emails).where(eq(emails.toAddress, refused)),
        (rows) => rows.some((candidate) => candidate.kind === "password_reset" && candidate.status === "retrying"),
      ).then((rows) => rows.filter((candidate) => candidate.kind === "password_reset"));
      // The server's own words stay (they say what went wrong), its quoting of the address does not.
      expect(row?.lastError).toMatch(/Recipient address rejected/);
      expect(row?.lastError).toContain("[address]");
      expect(row?.lastError).not.toContain(refused);
      expect(row?.lastError).not.toMatch(/@/);
    } finally {
      await smtp?.close();
      smtp = await startSmtpServer(smtpPort);
    }
  });
});

describe("without SMTP_URL", () => {
  it("captures every message in the outbox, readable as the customer would see it", async () => {
    const offline = await buildTestApp();
    try {
      const orderId = await insertOrder(offline, { customerEmail: "offline@example.co.za" });
      const offlineAdmin = await registerAndLogin(offline, { admin: true });
      await offline.app.inject({
        method: "PATCH",
        url: `/api/admin/orders/${orderId}/confirm-payment`,
        headers: offlineAdmin.headers,
      });
      // Captured here, or by the job woken by the payment if its run took it first.
      await offline.app.mail.deliverDue();
      const [captured] = await waitFor(
        () => offline.db.select().from(emails).where(eq(emails.eventKey, orderId)),
        (rows) => rows[0]?.status === "captured",
      );
      expect(captured).toMatchObject({ status: "captured", toAddress: "offline@example.co.za", sentAt: null });
      expect(captured?.html).toBeTruthy();
      expect(captured?.textBody).toContain(orderNumber(orderId));
    } finally {
      await offline.close();
    }
  });
});
