import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { marketingConsentWords } from "#domain/consent.js";
import { DATA_EXPORTS_PER_DAY } from "#domain/limits.js";
import type { AdminOrderDetail } from "#domain/schemas/admin-orders.js";
import type { Customer } from "#domain/schemas/customers.js";
import { SEND_EMAILS_JOB } from "#server/mail/mailer.js";
import { CLOSED_ACCOUNT_NAME } from "#server/privacy/close-account.js";
import { ACCOUNT_CLOSED_MESSAGE } from "#server/privacy/routes.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import { capturedText, type TestApp, withJobHeld } from "../helpers/app.js";
import { confirmAddress, confirmEmailChange } from "../helpers/email-change.js";
import { buildListeningApp, payOnEmulator, placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await buildListeningApp();
  admin = await signInAsAdmin(t);
});
afterAll(() => t?.close());

const SHOP = "Snug & Dry";
const EMAIL_WORDS = marketingConsentWords("email", SHOP);

let addressCounter = 1;
/** Each request from its own address, so the per-network login limits never get in the way. */
const nextAddress = () => `10.77.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

const post = (url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method: "POST", url, headers, payload: payload as object, remoteAddress: nextAddress() });
/** `null`: the body carries no password at all. */
const exportData = (who: LoggedInUser, password: string | null = who.password) =>
  post("/api/account/data-export", who.headers, password === null ? {} : { password });
const closeAccount = (who: LoggedInUser, password = who.password) =>
  post("/api/account/close", who.headers, { password });
const me = (cookie: string) => t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });
const login = (username: string, password: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { username, password },
    remoteAddress: nextAddress(),
  });
const asAdmin = (url: string) => t.app.inject({ method: "GET", url, headers: { cookie: admin.cookie } });

const auditOf = async (userId: string, action: string) =>
  (
    await t.pool.query<{ actor_id: string | null; after: Record<string, unknown> | null }>(
      "select actor_id, after from audit_log where subject_type = 'user' and subject_id = $1 and action = $2 order by id",
      [userId, action],
    )
  ).rows;

/** A customer with one order placed and paid through the emulator (so it has an invoice and a confirmation). */
async function customerWithPaidOrder(profile: { fullName?: string; phone?: string } = {}) {
  const customer = await registerAndLogin(t, profile);
  const { orderId, payfastData } = await placeTestOrder(t, customer, [await stockedLine(t, 1)]);
  await payOnEmulator(t, orderId, payfastData);
  // The confirmation is written with the payment and captured by the mail job (no SMTP here).
  await t.app.mail.deliverDue();
  return { customer, orderId };
}

async function secondDevice(who: LoggedInUser): Promise<string> {
  const response = await login(who.user.username, who.password);
  expect(response.statusCode).toBe(200);
  return `sid=${response.cookies.find((cookie) => cookie.name === "sid")?.value}`;
}

describe("POST /api/account/data-export", () => {
  it("hands over the customer's own account, orders, e-mails, consents and sessions, and nothing of anyone else", async () => {
    const { customer, orderId } = await customerWithPaidOrder({ fullName: "Lerato Dlamini", phone: "083 111 2222" });
    const { customer: other, orderId: otherOrderId } = await customerWithPaidOrder({
      fullName: "Pieter Botha",
      phone: "084 999 8888",
    });
    await secondDevice(customer);
    const consent = await t.app.inject({
      method: "PUT",
      url: "/api/account/consents",
      headers: customer.headers,
      payload: { channel: "email", granted: true },
    });
    expect(consent.statusCode).toBe(200);

    const response = await exportData(customer);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="snug-dry-my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(response.headers["cache-control"]).toBe("no-store");
    const data = response.json();

    expect(data.account).toMatchObject({
      id: customer.user.id,
      username: customer.user.username,
      email: customer.user.email,
      fullName: "Lerato Dlamini",
      phone: "083 111 2222",
    });
    expect(data.orders).toHaveLength(1);
    expect(data.orders[0]).toMatchObject({ id: orderId, status: "completed", refunds: [] });
    expect(data.orders[0].items).toHaveLength(1);
    expect(data.orders[0].invoiceNumber).toMatch(/^INV-/);
    expect(data.emails).toEqual([
      expect.objectContaining({ kind: "order_confirmation", to: customer.user.email, status: "captured" }),
    ]);
    expect(data.emails[0].text).toContain(orderId.slice(-8).toUpperCase());
    expect(data.marketingConsents).toEqual([
      { channel: "email", granted: true, words: EMAIL_WORDS, source: "profile", at: expect.any(String) },
    ]);
    expect(data.sessions).toHaveLength(2);
    expect(data.sessions.filter((session: { thisDevice: boolean }) => session.thisDevice)).toHaveLength(1);

    // Nothing of the other customer, and no secret of this one.
    const text = response.body;
    for (const foreign of [
      other.user.id,
      other.user.email,
      other.user.username,
      otherOrderId,
      "Pieter Botha",
      "084 999 8888",
    ]) {
      expect(text).not.toContain(foreign);
    }
    const { rows } = await t.pool.query<{ password_hash: string; token_hash: string }>(
      "select u.password_hash, s.token_hash from users u join sessions s on s.user_id = u.id where u.id = $1",
      [customer.user.id],
    );
    for (const row of rows) {
      expect(text).not.toContain(row.password_hash);
      expect(text).not.toContain(row.token_hash);
    }
    expect(text).not.toMatch(/argon2|passwordHash|tokenHash|password_hash|token_hash/);
    expect(text).not.toContain(customer.cookie.split("=")[1]);

    // Audited, with who asked.
    expect(await auditOf(customer.user.id, "user.data_exported")).toEqual([
      { actor_id: customer.user.id, after: null },
    ]);
  }, 120_000);

  it("hands over the customer's own returns and complaints, with the e-mails about them, and nobody else's", async () => {
    const { customer, orderId } = await customerWithPaidOrder();
    const { customer: other, orderId: otherOrderId } = await customerWithPaidOrder();
    const complain = (who: LoggedInUser, id: string, details: string) =>
      post(`/api/orders/${id}/returns`, who.headers, { reason: "complaint", details });
    const mine = await complain(customer, orderId, "The courier left the box in the rain.");
    expect(mine.statusCode, mine.body).toBe(201);
    const theirs = await complain(other, otherOrderId, "Someone else's complaint about a torn pack.");
    expect(theirs.statusCode, theirs.body).toBe(201);
    await t.app.mail.deliverDue();

    const response = await exportData(customer);
    expect(response.statusCode).toBe(200);
    const data = response.json();
    expect(data.returnRequests).toEqual([
      expect.objectContaining({
        id: mine.json().id,
        reference: mine.json().reference,
        orderId,
        reason: "complaint",
        details: "The courier left the box in the rain.",
        status: "requested",
        history: [expect.objectContaining({ status: "requested" })],
      }),
    ]);
    expect(data.emails.map((email: { kind: string }) => email.kind)).toEqual(["order_confirmation", "return_update"]);
    expect(data.emails[1].text).toContain(mine.json().reference);
    expect(response.body).not.toContain(theirs.json().id);
    expect(response.body).not.toContain(theirs.json().reference);
    expect(response.body).not.toContain("Someone else's complaint");
  }, 120_000);

  it("hands over the customer's back-in-stock alerts and their e-mail, without its links, and nobody else's", async () => {
    const name = `Export alert nappies ${randomBytes(4).toString("hex")}`;
    const productBody = {
      name,
      category: "baby",
      price: "149.99",
      image: "/images/products/baby-nappies-value-pack.svg",
      sizes: ["Size 3", "Size 4"],
    };
    const adminHeaders = { cookie: admin.cookie };
    const created = await post("/api/admin/products", adminHeaders, {
      ...productBody,
      stock: { "Size 3": 0, "Size 4": 2 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const productId = created.json().id as string;
    const [customer, other] = await Promise.all([
      registerAndLogin(t, { proven: true }),
      registerAndLogin(t, { proven: true }),
    ]);
    for (const who of [customer, other]) {
      const subscribed = await post("/api/stock-alerts", who.headers, { productId, size: "Size 3" });
      expect(subscribed.statusCode, subscribed.body).toBe(200);
    }

    const waiting = (await exportData(customer)).json();
    expect(waiting.backInStockAlerts).toEqual([
      { product: name, size: "Size 3", email: customer.user.email, confirmed: true, askedAt: expect.any(String) },
    ]);
    expect(JSON.stringify(waiting)).not.toContain(other.user.email);

    // The size is back: the alert ends with its one e-mail, which the export lists without its unsubscribe link.
    const restocked = await t.app.inject({
      method: "PUT",
      url: `/api/admin/products/${productId}`,
      headers: adminHeaders,
      payload: { ...productBody, stock: { "Size 3": 4, "Size 4": 2 } },
    });
    expect(restocked.statusCode, restocked.body).toBe(200);
    await t.app.mail.deliverDue();
    const after = (await exportData(customer)).json();
    expect(after.backInStockAlerts).toEqual([]);
    expect(after.emails).toEqual([expect.objectContaining({ kind: "back_in_stock", text: null })]);
    expect(JSON.stringify(after)).not.toContain("unsubscribe?token=");
  });

  it("keeps a password reset link out of the export", async () => {
    const customer = await registerAndLogin(t);
    const forgot = await post("/api/auth/forgot-password", {}, { email: customer.user.email });
    expect(forgot.statusCode).toBe(202);
    await t.app.mail.deliverDue();
    const data = (await exportData(customer)).json();
    expect(data.emails).toEqual([expect.objectContaining({ kind: "password_reset", text: null })]);
    expect(JSON.stringify(data)).not.toContain("reset-password?token=");
  });

  it("needs the account's password: missing or wrong gives 400 and nothing is exported or audited", async () => {
    const customer = await registerAndLogin(t);
    const missing = await exportData(customer, null);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    const wrong = await exportData(customer, `${customer.password}x`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: "CURRENT_PASSWORD_WRONG" });
    const guest = await post("/api/account/data-export", {}, { password: customer.password });
    expect(guest.statusCode).toBe(401);
    expect(guest.json()).toMatchObject({ code: "NOT_LOGGED_IN" });
    expect(await auditOf(customer.user.id, "user.data_exported")).toEqual([]);
  });

  it(`allows ${DATA_EXPORTS_PER_DAY} downloads in any 24 hours, refuses the next with 429, and allows one again when the oldest is a day old`, async () => {
    const customer = await registerAndLogin(t);
    for (let index = 0; index < DATA_EXPORTS_PER_DAY; index++) {
      expect((await exportData(customer)).statusCode).toBe(200);
    }
    const refused = await exportData(customer);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: "RATE_LIMITED",
      message: `You can download your data ${DATA_EXPORTS_PER_DAY} times a day. Please try again in 24 hours.`,
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(86_000);
    expect(await auditOf(customer.user.id, "user.data_exported")).toHaveLength(DATA_EXPORTS_PER_DAY);

    // The oldest one a minute short of a day: still counted.
    const oldest = `(select min(id) from audit_log where subject_id = $1 and action = 'user.data_exported')`;
    await t.pool.query(`update audit_log set at = now() - interval '23 hours 59 minutes' where id = ${oldest}`, [
      customer.user.id,
    ]);
    const stillRefused = await exportData(customer);
    expect(stillRefused.statusCode).toBe(429);
    expect(Number(stillRefused.headers["retry-after"])).toBeLessThanOrEqual(61);
    // A day and a second old: out of the window, so one more is allowed, and only one.
    await t.pool.query(`update audit_log set at = now() - interval '24 hours 1 second' where id = ${oldest}`, [
      customer.user.id,
    ]);
    expect((await exportData(customer)).statusCode).toBe(200);
    expect((await exportData(customer)).statusCode).toBe(429);
  });
});

describe("POST /api/account/close", () => {
  it("anonymises the profile at once, ends every session, frees the e-mail and username, and keeps the orders and invoices for admins", async () => {
    const { customer, orderId } = await customerWithPaidOrder({ fullName: "Nomsa Khumalo", phone: "082 123 4567" });
    const phone = await secondDevice(customer);
    await t.app.inject({
      method: "PUT",
      url: "/api/account/consents",
      headers: customer.headers,
      payload: { channel: "email", granted: true },
    });
    const { email, username } = customer.user;
    const edited = await t.app.inject({
      method: "PUT",
      url: `/api/users/${customer.user.id}`,
      headers: customer.headers,
      payload: {
        fullName: "Nomsa Khumalo",
        email,
        phone: "082 123 4567",
        address: "3 Protea Road",
        suburb: "Morningside",
        complex: "Unit 9 Protea Court",
        province: "KwaZulu-Natal",
        deliveryInstructions: "Gate code 7788",
        altPhone: "031 555 0177",
      },
    });
    expect(edited.statusCode).toBe(200);
    expect(JSON.stringify((await auditOf(customer.user.id, "user.profile_updated"))[0])).toContain("3 Protea Road");

    const response = await closeAccount(customer);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: ACCOUNT_CLOSED_MESSAGE });
    // This browser's cookie is cleared; both sessions are gone on the server.
    expect(response.cookies.find((cookie) => cookie.name === "sid")?.value).toBe("");
    expect((await me(customer.cookie)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await t.pool.query("select 1 from sessions where user_id = $1", [customer.user.id])).rowCount).toBe(0);

    // Nothing personal is left on the profile.
    const { rows } = await t.pool.query("select * from users where id = $1", [customer.user.id]);
    const row = rows[0];
    expect(row).toMatchObject({
      full_name: CLOSED_ACCOUNT_NAME,
      phone: "",
      address: "",
      city: "",
      zip_code: "",
      suburb: "",
      complex: "",
      province: "",
      delivery_instructions: "",
      alt_phone: "",
    });
    expect(row.closed_at).toBeInstanceOf(Date);
    const stored = JSON.stringify(row);
    for (const personal of [
      email,
      username,
      "Nomsa Khumalo",
      "082 123 4567",
      "Jacaranda",
      "0181",
      "Morningside",
      "Protea Court",
      "Gate code",
      "031 555 0177",
    ]) {
      expect(stored).not.toContain(personal);
    }
    // Closing withdrew the marketing consent, on the record.
    const consents = await t.pool.query(
      "select granted, source from marketing_consents where user_id = $1 order by id",
      [customer.user.id],
    );
    expect(consents.rows).toEqual([
      { granted: true, source: "profile" },
      { granted: false, source: "account_closed" },
    ]);

    // The audit trail keeps what happened, but no longer who the person was.
    const trail = await t.pool.query("select * from audit_log where actor_id = $1::uuid or subject_id = $1::text", [
      customer.user.id,
    ]);
    expect(trail.rows.map((entry) => entry.action)).toContain("auth.login_succeeded");
    const trailText = JSON.stringify(trail.rows);
    for (const personal of [email, username, "Nomsa Khumalo", "082 123 4567", "3 Protea Road"]) {
      expect(trailText).not.toContain(personal);
    }

    // Audited, with nothing personal in the record.
    const audit = await auditOf(customer.user.id, "user.account_closed");
    expect(audit).toEqual([{ actor_id: customer.user.id, after: { sessionsEnded: true, ordersKept: 1 } }]);

    // The admin still has the order and its invoice, and sees that the account was closed.
    const customerView = (await asAdmin(`/api/admin/users/${customer.user.id}`)).json() as Customer;
    expect(customerView).toMatchObject({
      fullName: CLOSED_ACCOUNT_NAME,
      orderCount: 1,
      closedAt: row.closed_at.toISOString(),
    });
    const detail = (await asAdmin(`/api/admin/orders/${orderId}`)).json() as AdminOrderDetail;
    expect(detail.order.status).toBe("completed");
    expect(detail.customer).toMatchObject({ id: customer.user.id, closedAt: row.closed_at.toISOString() });
    const invoice = await asAdmin(`/api/orders/${orderId}/invoice.pdf`);
    expect(invoice.statusCode).toBe(200);
    expect(invoice.headers["content-type"]).toBe("application/pdf");

    // The e-mail and username are free: a new account may take them.
    const again = await post(
      "/api/auth/register",
      {},
      { username, email, password: `quiet night ${randomBytes(4).toString("hex")}`, fullName: "Nomsa Khumalo" },
    );
    expect(again.statusCode).toBe(201);
    expect(again.json().id).not.toBe(customer.user.id);
  }, 120_000);

  it("refuses an admin's changes to a closed account's details or rights with 409", async () => {
    const customer = await registerAndLogin(t);
    expect((await closeAccount(customer)).statusCode).toBe(200);
    const profile = await t.app.inject({
      method: "PUT",
      url: `/api/users/${customer.user.id}`,
      headers: { cookie: admin.cookie },
      payload: { fullName: "Someone Again", email: "someone.again@example.co.za", currentPassword: admin.password },
    });
    expect(profile.statusCode).toBe(409);
    expect(profile.json()).toMatchObject({ code: "ACCOUNT_CLOSED" });
    const rights = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/users/${customer.user.id}`,
      headers: { cookie: admin.cookie },
      payload: { isAdmin: true },
    });
    expect(rights.statusCode).toBe(409);
    expect(rights.json()).toMatchObject({ code: "ACCOUNT_CLOSED" });
    const { rows } = await t.pool.query("select full_name, is_admin from users where id = $1", [customer.user.id]);
    expect(rows).toEqual([{ full_name: CLOSED_ACCOUNT_NAME, is_admin: false }]);
  });

  it("leaves a closed account unable to log in or reset its password", async () => {
    const customer = await registerAndLogin(t);
    expect((await closeAccount(customer)).statusCode).toBe(200);

    for (const identifier of [
      customer.user.username,
      customer.user.email,
      `closed:${customer.user.id.replaceAll("-", "")}`,
    ]) {
      const refused = await login(identifier, customer.password);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ code: "INVALID_CREDENTIALS" });
    }
    const resetsBefore = await t.pool.query("select count(*)::int as n from password_resets where user_id = $1", [
      customer.user.id,
    ]);
    const forgot = await post("/api/auth/forgot-password", {}, { email: customer.user.email });
    const unknown = await post(
      "/api/auth/forgot-password",
      {},
      { email: `nobody-${randomBytes(4).toString("hex")}@example.co.za` },
    );
    expect(forgot.statusCode).toBe(202);
    expect(forgot.json()).toEqual(unknown.json());
    const resetsAfter = await t.pool.query("select count(*)::int as n from password_resets where user_id = $1", [
      customer.user.id,
    ]);
    expect(resetsAfter.rows).toEqual(resetsBefore.rows);
  });

  it("ends a reset link mailed before the account was closed, and takes the person out of the account's messages", async () => {
    const customer = await registerAndLogin(t, { fullName: "Zanele Mthembu" });
    await post("/api/auth/forgot-password", {}, { email: customer.user.email });
    await t.app.mail.deliverDue();
    // A second link still waiting to be sent when the account closes: the outbox's job, woken by
    // the request, is held until then.
    await withJobHeld(t, SEND_EMAILS_JOB, async () => {
      await post("/api/auth/forgot-password", {}, { email: customer.user.email });
      expect((await closeAccount(customer)).statusCode).toBe(200);
    });
    const open = await t.pool.query("select 1 from password_resets where user_id = $1 and used_at is null", [
      customer.user.id,
    ]);
    expect(open.rowCount).toBe(0);

    const messages = await t.pool.query(
      "select m.* from emails m join password_resets r on m.event_key = r.id::text where r.user_id = $1 order by m.id",
      [customer.user.id],
    );
    expect(messages.rows.map((row) => row.status)).toEqual(["captured", "failed"]);
    const text = JSON.stringify(messages.rows);
    expect(text).not.toContain(customer.user.email);
    expect(text).not.toContain("Zanele");
    expect(text).not.toContain("reset-password?token=");
    // The admin can still open them: they are rendered again from what is left (a reset message
    // greets nobody by name since the abuse review, issue 26).
    const [first] = messages.rows;
    const view = await asAdmin(`/api/admin/emails/${first.id}`);
    expect(view.statusCode).toBe(200);
    expect(view.body).toContain("Choose a new password");
    expect(view.body).not.toContain("Zanele");
  });

  it("takes the payer's name and e-mail out of its orders' stored PayFast notifications, keeping the amounts", async () => {
    // Both orders are delivered to "Thandi Mokoena" (tests/helpers/orders.ts).
    const { customer, orderId } = await customerWithPaidOrder();
    const other = await customerWithPaidOrder();
    const notifications = (id: string) =>
      t.pool
        .query<{ raw_body: string; amount_gross: string; pf_payment_id: string; outcome: string }>(
          "select raw_body, amount_gross, pf_payment_id, outcome from payfast_itns where order_id = $1 order by id",
          [id],
        )
        .then((result) => result.rows);
    const before = await notifications(orderId);
    expect(before.length).toBeGreaterThan(0);
    const payer = new URLSearchParams(before[0]?.raw_body);
    expect(payer.get("name_first")).toBe("Thandi");
    expect(payer.get("email_address")).toBe(customer.user.email);

    expect((await closeAccount(customer)).statusCode).toBe(200);

    const after = await notifications(orderId);
    expect(after.map(({ amount_gross, pf_payment_id, outcome }) => ({ amount_gross, pf_payment_id, outcome }))).toEqual(
      before.map(({ amount_gross, pf_payment_id, outcome }) => ({ amount_gross, pf_payment_id, outcome })),
    );
    for (const row of after) {
      const fields = new URLSearchParams(row.raw_body);
      expect([fields.get("name_first"), fields.get("name_last"), fields.get("email_address")]).toEqual(["", "", ""]);
      expect(fields.get("m_payment_id")).toBe(orderId);
    }
    expect(JSON.stringify(after)).not.toMatch(/Thandi|Mokoena/);
    expect(JSON.stringify(after)).not.toContain(encodeURIComponent(customer.user.email));
    // Another customer's notifications are theirs.
    const kept = new URLSearchParams((await notifications(other.orderId))[0]?.raw_body);
    expect([kept.get("name_first"), kept.get("email_address")]).toEqual(["Thandi", other.customer.user.email]);
  });

  it("refuses a wrong password with 400 and changes nothing", async () => {
    const customer = await registerAndLogin(t);
    const refused = await closeAccount(customer, `${customer.password}x`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: "CURRENT_PASSWORD_WRONG" });
    expect((await me(customer.cookie)).statusCode).toBe(200);
    const { rows } = await t.pool.query("select email, closed_at from users where id = $1", [customer.user.id]);
    expect(rows).toEqual([{ email: customer.user.email, closed_at: null }]);
    expect(await auditOf(customer.user.id, "user.account_closed")).toEqual([]);
  });

  it("refuses to close an admin's account with 409", async () => {
    const other = await registerAndLogin(t, { admin: true });
    const refused = await closeAccount(other);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "ADMIN_ACCOUNT_CLOSE_REFUSED" });
    expect((await me(other.cookie)).statusCode).toBe(200);
  });
});

describe("marketing consent", () => {
  const consents = (who: LoggedInUser) =>
    t.app.inject({ method: "GET", url: "/api/account/consents", headers: who.headers });
  const choose = (who: LoggedInUser, payload: unknown) =>
    t.app.inject({ method: "PUT", url: "/api/account/consents", headers: who.headers, payload: payload as object });
  const records = async (userId: string) =>
    (
      await t.pool.query(
        "select channel, granted, words, source, actor_id, address from marketing_consents where user_id = $1 order by id",
        [userId],
      )
    ).rows;

  it("is off for a new account unless the sign-up box was ticked", async () => {
    const customer = await registerAndLogin(t);
    expect((await consents(customer)).json()).toEqual({
      consents: [{ channel: "email", granted: false, words: EMAIL_WORDS, changedAt: null, source: null }],
    });
    expect(await records(customer.user.id)).toEqual([]);
  });

  it("records a ticked sign-up box with the words shown, the source and who gave it", async () => {
    const username = `optin_${randomBytes(4).toString("hex")}`;
    const registered = await t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      remoteAddress: "10.78.0.9",
      payload: {
        username,
        email: `${username}@example.co.za`,
        password: `quiet night ${randomBytes(4).toString("hex")}`,
        fullName: "Anele Ndlovu",
        marketingEmail: true,
      },
    });
    expect(registered.statusCode).toBe(201);
    const { id } = registered.json() as { id: string };
    expect(await records(id)).toEqual([
      { channel: "email", granted: true, words: EMAIL_WORDS, source: "signup", actor_id: id, address: "10.78.0.9" },
    ]);
  });

  it("records each change on the profile, and an answer that changes nothing not at all", async () => {
    const customer = await registerAndLogin(t);
    const granted = await choose(customer, { channel: "email", granted: true });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().consents).toEqual([
      { channel: "email", granted: true, words: EMAIL_WORDS, changedAt: expect.any(String), source: "profile" },
    ]);
    expect((await choose(customer, { channel: "email", granted: true })).statusCode).toBe(200);
    expect((await choose(customer, { channel: "email", granted: false })).json().consents[0].granted).toBe(false);
    expect(
      (await records(customer.user.id)).map(({ granted, source, words, actor_id }) => ({
        granted,
        source,
        words,
        actor_id,
      })),
    ).toEqual([
      { granted: true, source: "profile", words: EMAIL_WORDS, actor_id: customer.user.id },
      { granted: false, source: "profile", words: EMAIL_WORDS, actor_id: customer.user.id },
    ]);
    expect(await auditOf(customer.user.id, "user.marketing_consent_changed")).toHaveLength(2);
  });

  it("refuses a channel the shop does not offer, or no answer, with 400", async () => {
    const customer = await registerAndLogin(t);
    for (const payload of [
      { channel: "sms", granted: true },
      { channel: "email" },
      { channel: "email", granted: "yes" },
    ]) {
      const refused = await choose(customer, payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    expect(await records(customer.user.id)).toEqual([]);
    const guest = await t.app.inject({ method: "GET", url: "/api/account/consents" });
    expect(guest.statusCode).toBe(401);
  });
});

describe("bad input to /api/account", () => {
  it("answers every malformed body 4xx with a code and changes nothing", async () => {
    const customer = await registerAndLogin(t);
    const bodies: { payload: string; contentType?: string }[] = [
      { payload: "{not json" },
      { payload: "[]" },
      { payload: "null" },
      { payload: JSON.stringify({ password: 12 }) },
      { payload: JSON.stringify({ password: "x".repeat(300) }) },
      { payload: JSON.stringify({ password: "pw\u0000" }) },
      { payload: JSON.stringify({ channel: "email\u0000", granted: true }) },
      { payload: JSON.stringify({ channel: ["email"], granted: 1 }) },
      { payload: "password=x", contentType: "application/x-www-form-urlencoded" },
    ];
    for (const [method, url] of [
      ["POST", "/api/account/data-export"],
      ["POST", "/api/account/close"],
      ["PUT", "/api/account/consents"],
    ] as const) {
      for (const { payload, contentType = "application/json" } of bodies) {
        const response = await t.app.inject({
          method,
          url,
          payload,
          headers: { ...customer.headers, "content-type": contentType },
          remoteAddress: nextAddress(),
        });
        expect(response.statusCode, `${method} ${url} ${payload}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${method} ${url} ${payload}`).toBeLessThan(500);
        expect(response.json()).toMatchObject({ message: expect.any(String), code: expect.any(String) });
      }
    }
    expect((await me(customer.cookie)).statusCode).toBe(200);
    const { rows } = await t.pool.query(
      "select (select count(*)::int from marketing_consents where user_id = $1) as consents, (select count(*)::int from audit_log where subject_id = $1::text and action in ('user.data_exported', 'user.account_closed')) as audited",
      [customer.user.id],
    );
    expect(rows).toEqual([{ consents: 0, audited: 0 }]);
  });
});

describe("an address not proven yet (issue 39)", () => {
  /** A sold-out size, and a guest's alert for `email` on it, confirmed by the guest's own link. */
  async function guestAlert(email: string) {
    const created = await post(
      "/api/admin/products",
      { cookie: admin.cookie },
      {
        name: `Adult briefs ${randomBytes(4).toString("hex")}`,
        category: "adult",
        price: "249.99",
        image: "/images/products/baby-nappies-value-pack.svg",
        sizes: ["M", "L"],
        stock: { M: 0, L: 3 },
      },
    );
    expect(created.statusCode, created.body).toBe(201);
    const productId = created.json().id as string;
    const asked = await post("/api/stock-alerts", {}, { productId, size: "M", email });
    expect(asked.statusCode, asked.body).toBe(202);
    const { rows } = await t.pool.query<{ data: { confirmUrl: string } }>(
      "select data from emails where kind = 'stock_alert_confirm' and to_address = $1",
      [email],
    );
    const token = new URL(rows[0]?.data.confirmUrl ?? "").searchParams.get("token");
    expect((await post("/api/stock-alerts/confirm", {}, { token })).statusCode).toBe(200);
    return productId;
  }

  it("exports nothing of a guest's alerts, or of notices to the address, to a second account on it until the address is proven", async () => {
    const email = `guest.${randomBytes(5).toString("hex")}@example.co.za`;
    await guestAlert(email);
    // Someone registers the guest's address (nobody has it yet) and downloads their data.
    const stranger = await registerAndLogin(t, { email });
    const before = await exportData(stranger);
    expect(before.statusCode, before.body).toBe(200);
    const data = before.json();
    expect(data.account).toMatchObject({ email, emailConfirmed: false });
    expect(data.backInStockAlerts).toEqual([]);
    expect(data.emails).toEqual([]);
    expect(before.body).not.toContain("Adult briefs");

    // Only whoever reads the address's mail can follow the sign-up's link; then it is theirs.
    expect((await confirmAddress(t, email)).statusCode).toBe(200);
    const after = (await exportData(stranger)).json();
    expect(after.account).toMatchObject({ emailConfirmed: true });
    expect(after.backInStockAlerts).toEqual([expect.objectContaining({ email, confirmed: true, size: "M" })]);
    expect(after.emails).toEqual([expect.objectContaining({ kind: "stock_alert_confirm", text: null })]);
  });

  it("keeps the notice left at an old address out of the export of whoever registers that address next", async () => {
    const owner = await registerAndLogin(t, { proven: true });
    const newEmail = `moved.${randomBytes(5).toString("hex")}@example.co.za`;
    const changed = await t.app.inject({
      method: "PUT",
      url: `/api/users/${owner.user.id}`,
      headers: owner.headers,
      payload: { ...owner.user, email: newEmail, currentPassword: owner.password },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await confirmEmailChange(t, newEmail)).statusCode).toBe(200);
    // The old address is free now; a stranger registers it.
    const stranger = await registerAndLogin(t, { email: owner.user.email });
    const data = (await exportData(stranger)).json();
    expect(JSON.stringify(data)).not.toContain(newEmail);
    expect(data.emails).toEqual([]);
    // The owner still has it: their new address is proven by the link they followed.
    const own = (await exportData(owner)).json();
    expect(own.account).toMatchObject({ email: newEmail, emailConfirmed: true });
  });

  it("closing an account on an unproven address ends none of the address owner's alerts", async () => {
    const email = `guest.${randomBytes(5).toString("hex")}@example.co.za`;
    const productId = await guestAlert(email);
    const stranger = await registerAndLogin(t, { email });
    expect((await closeAccount(stranger)).statusCode).toBe(200);
    const left = await t.pool.query("select confirmed_at from stock_alerts where product_id = $1 and email = $2", [
      productId,
      email,
    ]);
    expect(left.rowCount).toBe(1);
  });

  it("closing an account voids its pending e-mail change link and leaves no requested address anywhere", async () => {
    const customer = await registerAndLogin(t, { proven: true });
    const newEmail = `asked.${randomBytes(5).toString("hex")}@example.co.za`;
    const changed = await t.app.inject({
      method: "PUT",
      url: `/api/users/${customer.user.id}`,
      headers: customer.headers,
      payload: { ...customer.user, email: newEmail, currentPassword: customer.password },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // The link was mailed (and read) before the account closed.
    await t.app.mail.deliverDue();
    const { rows: mailed } = await t.pool.query<{ id: string }>(
      "select id from emails where kind = 'email_change' and to_address = $1",
      [newEmail],
    );
    const text = await capturedText(t, mailed[0]?.id ?? "");
    const token = /\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
    expect(token).toBeTruthy();

    expect((await closeAccount(customer)).statusCode).toBe(200);
    const follow = await post("/api/auth/confirm-email", {}, { token });
    expect(follow.statusCode).toBe(400);
    expect(follow.json()).toMatchObject({ code: "RESET_LINK_INVALID" });

    const audit = await t.pool.query(
      "select before, after from audit_log where subject_type = 'user' and subject_id = $1",
      [customer.user.id],
    );
    expect(audit.rowCount).toBeGreaterThan(0);
    expect(JSON.stringify(audit.rows)).not.toContain(newEmail);
    const changes = await t.pool.query("select new_email, used_at from email_changes where user_id = $1", [
      customer.user.id,
    ]);
    expect(JSON.stringify(changes.rows)).not.toContain(newEmail);
    expect(changes.rows.every((row) => row.used_at !== null)).toBe(true);
    const messages = await t.pool.query("select to_address, text_body, html from emails where id = $1", [
      mailed[0]?.id,
    ]);
    expect(JSON.stringify(messages.rows)).not.toContain(newEmail);
  });
});
