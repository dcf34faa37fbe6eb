import { randomBytes } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmailMessage, EmailPage, EmailSummary } from "#domain/schemas/emails.js";
import { enqueueEmail } from "#server/mail/outbox.js";
import { enqueueOrderConfirmation } from "#server/orders/order-emails.js";
import type { Transaction } from "#server/platform/db/client.js";
import { emails } from "#server/platform/db/schema.js";
import { insertOrder } from "../helpers/admin.js";
import { buildTestApp, capturedText, type TestApp } from "../helpers/app.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";
import { waitFor } from "../helpers/wait.js";

let t: TestApp;
let admin: LoggedInUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await registerAndLogin(t, { admin: true });
});
afterAll(() => t.close());

const MESSAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; sandbox";

function get(url: string, headers: Record<string, string> = admin.headers) {
  return t.app.inject({ method: "GET", url, headers });
}

const tomorrow = () => new Date(Date.now() + 86_400_000);

/**
 * Written as the events write them, in a transaction that also makes them due only tomorrow: the
 * mail job (which may run in this app) leaves them queued while a test looks at them.
 */
async function writeHeld(
  write: (tx: Transaction) => Promise<unknown>,
  eventKey: string,
  app: TestApp = t,
): Promise<number> {
  return app.db.transaction(async (tx) => {
    await write(tx);
    const [row] = await tx
      .update(emails)
      .set({ nextAttemptAt: tomorrow() })
      .where(eq(emails.eventKey, eventKey))
      .returning({ id: emails.id });
    if (!row) throw new Error("the message was not written");
    return row.id;
  });
}

/** An account notice in the outbox, queued; answers its id. */
function enqueueNotice(to = `reader-${randomBytes(4).toString("hex")}@example.co.za`): Promise<number> {
  const eventKey = randomBytes(8).toString("hex");
  const data = {
    name: "Thandi Mokoena",
    change: "password" as const,
    newEmail: null,
    changedAt: new Date().toISOString(),
  };
  return writeHeld((tx) => enqueueEmail(tx, { kind: "account_changed", eventKey, to, data }), eventKey);
}

/** A paid order's confirmation, written as paying the order writes it; answers the message id and order number. */
async function confirmationOfPaidOrder(app: TestApp = t): Promise<{ id: number; orderNumber: string; to: string }> {
  const to = `buyer-${randomBytes(4).toString("hex")}@example.co.za`;
  const orderId = await insertOrder(app, { status: "completed", customerEmail: to });
  const id = await writeHeld((tx) => enqueueOrderConfirmation(tx, orderId), orderId, app);
  return { id, orderNumber: orderId.slice(-8).toUpperCase(), to };
}

describe("GET /api/admin/emails", () => {
  it("lists the outbox newest first, in the summary shape", async () => {
    const older = await enqueueNotice();
    const { id: newer, to } = await confirmationOfPaidOrder();
    const response = await get("/api/admin/emails");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const page = response.json() as EmailPage;
    const ids = page.emails.map((email) => email.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    expect(page.emails.find((email) => email.id === newer)).toEqual({
      id: newer,
      kind: "order_confirmation",
      to,
      subject: expect.stringContaining("is confirmed"),
      status: "queued",
      attempts: 0,
      lastError: null,
      createdAt: expect.any(String),
      sentAt: null,
      nextAttemptAt: expect.any(String),
    } satisfies EmailSummary);
  });

  it("pages by cursor without missing or repeating a message, even when new ones arrive meanwhile", async () => {
    for (let i = 0; i < 7; i++) await enqueueNotice();
    const expected = (await t.db.select({ id: emails.id }).from(emails).orderBy(desc(emails.id))).map((row) => row.id);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await get(`/api/admin/emails?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(response.statusCode).toBe(200);
      const page = response.json() as EmailPage;
      expect(page.emails.length).toBeLessThanOrEqual(3);
      seen.push(...page.emails.map((email) => email.id));
      cursor = page.nextCursor;
      // A message written after the first page is newer than every cursor: it belongs to a fresh first page.
      if (pages++ === 0) await enqueueNotice();
    } while (cursor !== null);
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 3));
  });

  it("answers 50 by default and refuses a limit over 200 or a cursor that is not one", async () => {
    while ((await t.db.select({ id: emails.id }).from(emails)).length <= 50) await enqueueNotice();
    const first = (await get("/api/admin/emails")).json() as EmailPage;
    expect(first.emails).toHaveLength(50);
    expect(first.nextCursor).toBe(String(first.emails.at(-1)?.id));
    const all = (await get("/api/admin/emails?limit=200")).json() as EmailPage;
    expect(all.nextCursor).toBeNull();

    for (const query of ["limit=201", "limit=0", "limit=two", "cursor=abc", "cursor=-1", "cursor=1%20or%201=1"]) {
      const response = await get(`/api/admin/emails?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code, query).toBe("VALIDATION_FAILED");
    }
  });
});

describe("GET /api/admin/emails/{id}", () => {
  it("renders a message not delivered yet from its data", async () => {
    const { id, orderNumber, to } = await confirmationOfPaidOrder();
    const response = await get(`/api/admin/emails/${id}`);
    expect(response.statusCode).toBe(200);
    const message = response.json() as EmailMessage;
    expect(message).toMatchObject({ id, to, kind: "order_confirmation", status: "queued" });
    expect(message.html).toContain(orderNumber);
    expect(message.text).toContain(orderNumber);
  });

  it("shows a delivered message exactly as it went out", async () => {
    const id = await enqueueNotice();
    await t.db
      .update(emails)
      .set({ status: "captured", html: "<p>As delivered</p>", textBody: "As delivered", sentAt: new Date() })
      .where(eq(emails.id, id));
    const message = (await get(`/api/admin/emails/${id}`)).json() as EmailMessage;
    expect(message).toMatchObject({ status: "captured", html: "<p>As delivered</p>", text: "As delivered" });
    expect(message.sentAt).toEqual(expect.any(String));
  });

  it("answers 404 for an unknown id and 400 for a bad one", async () => {
    expect((await get("/api/admin/emails/999999999")).statusCode).toBe(404);
    for (const bad of ["abc", "0", "1.5", "-3", "12345678901234567890"]) {
      expect((await get(`/api/admin/emails/${bad}`)).statusCode, bad).toBe(400);
    }
  });
});

describe("GET /api/admin/emails/{id}/html", () => {
  it("answers the message's HTML with headers that let only the shop frame it, sandboxed", async () => {
    const { id, orderNumber } = await confirmationOfPaidOrder();
    const response = await get(`/api/admin/emails/${id}/html`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["content-security-policy"]).toBe(MESSAGE_CSP);
    expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.body).toBe(((await get(`/api/admin/emails/${id}`)).json() as EmailMessage).html);
    expect(response.body).toContain(orderNumber);
  });

  it("keeps the API's headers on every other answer, the admin page may frame the shop's own URLs", async () => {
    const list = await get("/api/admin/emails");
    expect(list.headers["x-frame-options"]).toBe("DENY");
    expect(list.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    const missing = await get("/api/admin/emails/999999999/html");
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["x-frame-options"]).toBe("DENY");
    const page = await t.app.inject({ method: "GET", url: "/admin" });
    expect(String(page.headers["content-security-policy"])).toMatch(/frame-src 'self'(;|$)/);
  });
});

/** Makes a held message due and lets the mail job capture it (this app has no SMTP); answers its row then. */
async function captureNow(id: number, app: TestApp = t) {
  await app.db.update(emails).set({ nextAttemptAt: new Date() }).where(eq(emails.id, id));
  // Captured here, or by the job if a run of it took the message first.
  await app.app.mail.deliverDue();
  const [row] = await waitFor(
    () => app.db.select().from(emails).where(eq(emails.id, id)),
    (rows) => rows[0]?.status === "captured",
  );
  return row;
}

describe("subjects, made when a message goes out", () => {
  it("shows a queued message's subject, and keeps on the row the subject it went out with", async () => {
    const { id, orderNumber } = await confirmationOfPaidOrder();
    const subject = `Your Snug & Dry order ${orderNumber} is confirmed`;
    const [queued] = await t.db.select({ subject: emails.subject }).from(emails).where(eq(emails.id, id));
    expect(queued?.subject).toBeNull();
    const listed = ((await get("/api/admin/emails?limit=200")).json() as EmailPage).emails.find((e) => e.id === id);
    expect(listed).toMatchObject({ id, status: "queued", subject });
    expect((await get(`/api/admin/emails/${id}`)).json()).toMatchObject({ status: "queued", subject });

    const sent = await captureNow(id);
    expect(sent).toMatchObject({ status: "captured", subject });
    expect(await capturedText(t, id)).toContain(`Subject: ${subject}\n`);
    expect((await get(`/api/admin/emails/${id}`)).json()).toMatchObject({ status: "captured", subject });
  });

  it("keeps the subject a message was queued with (written before subjects were made at send time)", async () => {
    const id = await enqueueNotice();
    await t.db.update(emails).set({ subject: "Your account was changed (as queued)" }).where(eq(emails.id, id));
    const listed = ((await get("/api/admin/emails?limit=200")).json() as EmailPage).emails.find((e) => e.id === id);
    expect(listed?.subject).toBe("Your account was changed (as queued)");
    expect((await captureNow(id))?.subject).toBe("Your account was changed (as queued)");
  });

  it("names the shop its config names, queued and sent", async () => {
    const other = await buildTestApp({ SHOP_NAME: "Umbrella Nappies" });
    try {
      const otherAdmin = await registerAndLogin(other, { admin: true });
      const { id, orderNumber } = await confirmationOfPaidOrder(other);
      const subject = `Your Umbrella Nappies order ${orderNumber} is confirmed`;
      const list = await other.app.inject({ method: "GET", url: "/api/admin/emails", headers: otherAdmin.headers });
      expect((list.json() as EmailPage).emails.find((e) => e.id === id)?.subject).toBe(subject);
      expect((await captureNow(id, other))?.subject).toBe(subject);
      expect(await capturedText(other, id)).toContain(`Subject: ${subject}\n`);
    } finally {
      await other.close();
    }
  });
});

describe("POST /api/admin/emails/{id}/resend", () => {
  it("queues a failed message again from scratch", async () => {
    const id = await enqueueNotice();
    await t.db
      .update(emails)
      .set({
        status: "failed",
        attempts: 9,
        lastError: "550 mailbox unavailable",
        nextAttemptAt: null,
        lockedUntil: new Date(Date.now() + 60_000),
      })
      .where(eq(emails.id, id));
    const before = Date.now();
    const response = await t.app.inject({
      method: "POST",
      url: `/api/admin/emails/${id}/resend`,
      headers: admin.headers,
    });
    expect(response.statusCode).toBe(200);
    const summary = response.json() as EmailSummary;
    expect(summary).toMatchObject({ id, status: "queued", attempts: 0, lastError: null });
    expect(Date.parse(summary.nextAttemptAt ?? "")).toBeGreaterThan(before - 5_000);
    const [row] = await t.db.select().from(emails).where(eq(emails.id, id));
    // The mail job may already have taken it (woken by the resend): then it is captured again.
    expect(["queued", "captured"]).toContain(row?.status);
    expect(row?.lastError).toBeNull();
  });

  it("queues a captured message again too", async () => {
    const id = await enqueueNotice();
    await t.db.update(emails).set({ status: "captured", html: "<p>x</p>", textBody: "x" }).where(eq(emails.id, id));
    const response = await t.app.inject({
      method: "POST",
      url: `/api/admin/emails/${id}/resend`,
      headers: admin.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id, status: "queued", attempts: 0 });
  });

  it("answers 404 for an unknown id and 400 for a bad one", async () => {
    const post = (id: string) =>
      t.app.inject({ method: "POST", url: `/api/admin/emails/${id}/resend`, headers: admin.headers });
    expect((await post("999999999")).statusCode).toBe(404);
    expect((await post("nope")).statusCode).toBe(400);
  });
});

describe("who may read the outbox", () => {
  it("refuses guests (401) and customers (403) on every route", async () => {
    const id = await enqueueNotice();
    const customer = await registerAndLogin(t);
    for (const [method, url] of [
      ["GET", "/api/admin/emails"],
      ["GET", `/api/admin/emails/${id}`],
      ["GET", `/api/admin/emails/${id}/html`],
      ["POST", `/api/admin/emails/${id}/resend`],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
      expect((await t.app.inject({ method, url, headers: customer.headers })).statusCode, `${method} ${url}`).toBe(403);
    }
    const [row] = await t.db.select({ status: emails.status }).from(emails).where(eq(emails.id, id));
    expect(row?.status).toBe("queued");
  });
});
