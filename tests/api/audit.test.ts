import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "#server/platform/db/embedded.js";
import { insertOrder, type SignedIn, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { auditRecords, onlyAuditRecord, within } from "../helpers/audit.js";
import { confirmEmailChange } from "../helpers/email-change.js";

/**
 * The audit trail: every admin action and security event is recorded with who (id and username),
 * when, from which address (request.ip) and what changed, in the change's own transaction.
 */

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAsAdmin(t);
});
afterAll(() => t.close());

const ADDRESS = "203.0.113.9";
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const send = (method: Method, url: string, payload?: unknown, cookie = admin.cookie) =>
  t.app.inject({
    method,
    url,
    headers: { cookie },
    remoteAddress: ADDRESS,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const byAdmin = () => ({ actor_id: admin.id, actor_username: admin.username, address: ADDRESS });

describe("order actions", () => {
  it("records Mark as Paid and Mark as Shipped, and keeps which admin marked the order paid", async () => {
    const id = await insertOrder(t);
    const since = Date.now();
    const paid = await send("PATCH", `/api/admin/orders/${id}/status`, { status: "completed" });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: "completed", paidBy: "admin", paidByAdmin: admin.username });
    const { rows } = await t.pool.query("select paid_by, paid_by_user_id from orders where id = $1", [id]);
    expect(rows[0]).toEqual({ paid_by: "admin", paid_by_user_id: admin.id });
    const record = await onlyAuditRecord(t, "order.status_changed", id);
    expect(record).toMatchObject({
      ...byAdmin(),
      subject_type: "order",
      before: { status: "pending" },
      after: { status: "completed" },
    });
    expect(within(record, since)).toBe(true);

    await send("PATCH", `/api/admin/orders/${id}/status`, {
      status: "processed",
      courier: "Aramex",
      trackingNumber: "AX1",
    });
    const moves = await auditRecords(t, "order.status_changed", id);
    expect(moves.at(-1)).toMatchObject({
      before: { status: "completed" },
      after: { status: "processed", courier: "Aramex", trackingNumber: "AX1" },
    });
    // The order lists answer who marked it paid too.
    const list = await send("GET", "/api/admin/orders");
    expect(
      (list.json() as { orders: { id: string; paidByAdmin: string | null }[] }).orders.find((order) => order.id === id),
    ).toMatchObject({
      paidByAdmin: admin.username,
    });
  });

  it("records a payment confirmed in Payment Verification, and nothing for a refused move", async () => {
    const id = await insertOrder(t);
    expect((await send("PATCH", `/api/admin/orders/${id}/confirm-payment`)).statusCode).toBe(200);
    expect(await onlyAuditRecord(t, "order.payment_confirmed", id)).toMatchObject({
      ...byAdmin(),
      before: { status: "pending" },
      after: { status: "completed" },
    });
    const again = await send("PATCH", `/api/admin/orders/${id}/confirm-payment`);
    expect(again.statusCode).toBe(409);
    expect(await auditRecords(t, "order.payment_confirmed", id)).toHaveLength(1);
  });

  it("records an order cancelled by an admin, with the reason", async () => {
    const id = await insertOrder(t);
    expect((await send("POST", `/api/orders/${id}/cancel`)).statusCode).toBe(200);
    expect(await onlyAuditRecord(t, "order.cancelled", id)).toMatchObject({
      ...byAdmin(),
      before: { status: "pending" },
      after: { status: "cancelled", cancelReason: "admin" },
    });
  });

  it("records Mark resolved on a flagged payment under its order", async () => {
    const orderId = await insertOrder(t, { status: "completed" });
    const { rows } = await t.pool.query<{ id: string }>(
      `insert into payfast_itns (order_id, pf_payment_id, amount_gross, source_ip, outcome, reason, raw_body)
       values ($1, '880001', '10.00', '127.0.0.1', 'wrong_amount', 'Paid 10.00', 'x') returning id`,
      [orderId],
    );
    const item = `payment-${rows[0]?.id}`;
    expect((await send("POST", `/api/admin/payments/attention/${item}/resolve`)).statusCode).toBe(204);
    expect(await onlyAuditRecord(t, "payment.attention_resolved", orderId)).toMatchObject({
      ...byAdmin(),
      subject_type: "order",
      before: { item, outcome: "wrong_amount", resolved: false },
      after: { item, resolved: true },
    });
  });
});

describe("Check with PayFast", () => {
  let live: TestApp;
  let liveAdmin: SignedIn;
  beforeAll(async () => {
    // The emulator's PayFast API answers over real HTTP, so this app listens.
    const port = await freePort();
    live = await buildTestApp({
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      PAYFAST_RECONCILE_MINUTES: "600",
    });
    await live.app.listen({ port, host: "127.0.0.1" });
    liveAdmin = await signInAsAdmin(live);
  });
  afterAll(() => live.close());

  it("records the check under the order, with what PayFast showed", async () => {
    const id = await insertOrder(live);
    const checked = await live.app.inject({
      method: "POST",
      url: `/api/admin/orders/${id}/check-payfast`,
      headers: { cookie: liveAdmin.cookie },
      remoteAddress: ADDRESS,
    });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(await onlyAuditRecord(live, "order.payfast_checked", id)).toMatchObject({
      actor_id: liveAdmin.id,
      actor_username: liveAdmin.username,
      address: ADDRESS,
      after: { outcome: "not_found", status: "pending" },
    });
  });
});

describe("catalogue actions", () => {
  const product = {
    name: "Audit Trial Pack",
    category: "adult",
    price: "99.00",
    image: "/images/products/adult-pants.svg",
    sizes: ["M", "L"],
    stock: { M: 5, L: 3 },
  };

  it("records a product created, its price and stock changed, and deleted, with what changed", async () => {
    const created = await send("POST", "/api/admin/products", product);
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as { id: string };
    expect(await onlyAuditRecord(t, "product.created", id)).toMatchObject({
      ...byAdmin(),
      subject_type: "product",
      after: { name: "Audit Trial Pack", category: "adult", priceCents: 9900, stock: { M: 5, L: 3 } },
    });

    await send("PUT", `/api/admin/products/${id}`, { ...product, price: "89.00", stock: { M: 5, L: 12 } });
    expect(await onlyAuditRecord(t, "product.updated", id)).toMatchObject({
      before: { priceCents: 9900, sizePrices: { M: 9900, L: 9900 }, stock: { M: 5, L: 3 } },
      after: { priceCents: 8900, sizePrices: { M: 8900, L: 8900 }, stock: { M: 5, L: 12 } },
    });
    const update = await onlyAuditRecord(t, "product.updated", id);
    // The sizes without their own price follow the price (docs/decisions/022-prices-per-size.md).
    expect(Object.keys(update.after ?? {}).sort()).toEqual(["priceCents", "sizePrices", "stock"]);

    expect((await send("DELETE", `/api/admin/products/${id}`)).statusCode).toBe(204);
    expect(await onlyAuditRecord(t, "product.deleted", id)).toMatchObject({
      before: { name: "Audit Trial Pack", priceCents: 8900 },
      after: null,
    });
  });

  it("leaves no record of a change the shop refused: the record is written in the change's transaction", async () => {
    const created = await send("POST", "/api/admin/products", product);
    const { id } = created.json() as { id: string };
    await t.pool.query("update product_stock set held = 4 where product_id = $1 and size = 'M'", [id]);
    const refused = await send("PUT", `/api/admin/products/${id}`, { ...product, price: "1.00", stock: { M: 1 } });
    expect(refused.statusCode).toBe(409);
    expect(await auditRecords(t, "product.updated", id)).toEqual([]);
    const { rows } = await t.pool.query("select price_cents from products where id = $1", [id]);
    expect(rows[0]).toEqual({ price_cents: 9900 });
  });

  it("records a category created, renamed and deleted", async () => {
    const created = await send("POST", "/api/admin/categories", { name: "Audit-Cat", description: "one" });
    const { id } = created.json() as { id: string };
    expect(await onlyAuditRecord(t, "category.created", id)).toMatchObject({
      ...byAdmin(),
      after: { name: "audit-cat", description: "one" },
    });
    await send("PUT", `/api/admin/categories/${id}`, { name: "audit-cat-2", description: "one" });
    expect(await onlyAuditRecord(t, "category.updated", id)).toMatchObject({
      before: { name: "audit-cat" },
      after: { name: "audit-cat-2" },
    });
    await send("DELETE", `/api/admin/categories/${id}`);
    expect(await onlyAuditRecord(t, "category.deleted", id)).toMatchObject({ before: { name: "audit-cat-2" } });
  });
});

describe("e-mail actions", () => {
  it("records an e-mail sent again, with its status before", async () => {
    const orderId = await insertOrder(t);
    await send("PATCH", `/api/admin/orders/${orderId}/confirm-payment`);
    const { rows } = await t.pool.query<{ id: number }>("select id from emails where event_key = $1", [orderId]);
    const emailId = String(rows[0]?.id);
    expect((await send("POST", `/api/admin/emails/${emailId}/resend`)).statusCode).toBe(200);
    expect(await onlyAuditRecord(t, "email.resent", emailId)).toMatchObject({
      ...byAdmin(),
      subject_type: "email",
      before: { status: expect.any(String) },
      after: { status: "queued", attempts: 0, kind: "order_confirmation" },
    });
  });
});

describe("security events", () => {
  const login = (username: string, password: string) =>
    t.app.inject({ method: "POST", url: "/api/auth/login", payload: { username, password }, remoteAddress: ADDRESS });

  it("records logins that worked and that failed, naming the account when there is one", async () => {
    const customer = await signIn(t);
    expect((await login(customer.username, customer.password)).statusCode).toBe(200);
    expect((await auditRecords(t, "auth.login_succeeded", customer.id)).at(-1)).toMatchObject({
      actor_id: customer.id,
      actor_username: customer.username,
      address: ADDRESS,
    });
    expect((await login(customer.email, "not-the-password")).statusCode).toBe(401);
    const failed = (await auditRecords(t, "auth.login_failed")).filter((row) => row.actor_id === customer.id);
    expect(failed).toEqual([expect.objectContaining({ address: ADDRESS, after: { reason: "wrong password" } })]);
    // What was typed is never kept when it names nobody: it is often a password in the wrong field.
    expect((await login("Correct-Horse-Battery-26", "whatever")).statusCode).toBe(401);
    const unknown = (await auditRecords(t, "auth.login_failed")).at(-1);
    expect(unknown).toMatchObject({ actor_id: null, after: { reason: "unknown account", typed: "a username" } });
    expect(JSON.stringify(unknown)).not.toContain("Correct-Horse-Battery-26");
  });

  it("records a customer refused the admin routes (403)", async () => {
    const customer = await signIn(t);
    expect((await send("GET", "/api/admin/orders", undefined, customer.cookie)).statusCode).toBe(403);
    expect((await auditRecords(t, "auth.admin_refused")).filter((row) => row.actor_id === customer.id)).toEqual([
      expect.objectContaining({ address: ADDRESS, after: { method: "GET", url: "/api/admin/orders" } }),
    ]);
  });

  it("folds 1,000 forbidden admin requests from one customer into one counted record", async () => {
    const customer = await signIn(t);
    const before = Number((await t.pool.query("select count(*) from audit_log")).rows[0].count);
    const paths = ["/api/admin/orders", "/api/admin/users", "/api/admin/orders.csv", "/api/admin/audit"];
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          send("GET", `${paths[index % paths.length]}?n=${batch}-${index}`, undefined, customer.cookie),
        ),
      );
      expect(answers.every((answer) => answer.statusCode === 403)).toBe(true);
    }
    const after = Number((await t.pool.query("select count(*) from audit_log")).rows[0].count);
    // One window of FOLD_MINUTES, or two if the run crossed its edge.
    expect(after - before).toBeLessThanOrEqual(2);
    const { rows } = await t.pool.query(
      "select repeat_count, last_at, at from audit_log where action = 'auth.admin_refused' and actor_id = $1",
      [customer.id],
    );
    expect(rows.reduce((sum, row) => sum + row.repeat_count, 0)).toBe(1_000);
    const listed = await send("GET", `/api/admin/audit?q=${customer.username}`);
    expect(listed.json().entries[0]).toMatchObject({ action: "auth.admin_refused", repeatCount: expect.any(Number) });
  });

  it("keeps the caller's X-Request-Id only as its claim", async () => {
    const customer = await signIn(t);
    const refused = await t.app.inject({
      method: "GET",
      url: "/api/admin/products",
      headers: { cookie: customer.cookie, "x-request-id": "forged-id-1" },
      remoteAddress: ADDRESS,
    });
    expect(refused.statusCode).toBe(403);
    const { rows } = await t.pool.query(
      "select request_id, client_request_id from audit_log where action = 'auth.admin_refused' and actor_id = $1",
      [customer.id],
    );
    expect(rows).toEqual([{ request_id: refused.headers["x-request-id"], client_request_id: "forged-id-1" }]);
    expect(refused.headers["x-request-id"]).not.toBe("forged-id-1");
  });

  it("records a password change and a password reset, never the password", async () => {
    const customer = await signIn(t);
    const changed = await send(
      "POST",
      "/api/auth/change-password",
      { currentPassword: customer.password, newPassword: "a-new-and-long-passphrase-7" },
      customer.cookie,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await onlyAuditRecord(t, "auth.password_changed", customer.id)).toMatchObject({
      actor_id: customer.id,
      address: ADDRESS,
    });

    const token = "audit-test-reset-token-0123456789abcdefghijk";
    await t.pool.query(
      `insert into password_resets (user_id, token_hash, expires_at) values ($1, $2, now() + interval '10 minutes')`,
      [customer.id, createHash("sha256").update(token).digest("hex")],
    );
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      payload: { token, password: "another-long-passphrase-8" },
      remoteAddress: ADDRESS,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await onlyAuditRecord(t, "auth.password_reset", customer.id)).toMatchObject({
      actor_id: customer.id,
      actor_username: customer.username,
      address: ADDRESS,
    });
    const { rows } = await t.pool.query("select count(*)::int as n from audit_log where audit_log::text like $1", [
      "%passphrase%",
    ]);
    expect(rows[0]).toEqual({ n: 0 });
  });

  it("records an e-mail address change with the old and new address", async () => {
    const customer = await signIn(t);
    const response = await send(
      "PUT",
      `/api/users/${customer.id}`,
      { fullName: "Lerato Khumalo", email: `new-${customer.email}`, currentPassword: customer.password },
      customer.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(await onlyAuditRecord(t, "user.profile_updated", customer.id)).toMatchObject({
      actor_id: customer.id,
      before: { fullName: `Test ${customer.username}` },
      after: { fullName: "Lerato Khumalo" },
    });
    expect(await onlyAuditRecord(t, "user.email_change_requested", customer.id)).toMatchObject({
      actor_id: customer.id,
      after: { newEmail: `new-${customer.email}` },
    });
    // The address changes when the link mailed to it is followed: by its owner, as far as the shop can tell.
    expect((await confirmEmailChange(t, `new-${customer.email}`)).statusCode).toBe(200);
    expect(await onlyAuditRecord(t, "user.email_changed", customer.id)).toMatchObject({
      actor_id: customer.id,
      before: { email: customer.email },
      after: { email: `new-${customer.email}` },
    });
  });
});

describe("lockouts", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: "3" });
  });
  afterAll(() => limited.close());

  it("records a lockout once per budget and window, not every attempt it refuses", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const response = await limited.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { username: "someone-guessing", password: "guess" },
        remoteAddress: "192.0.2.44",
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    const records = await auditRecords(limited, "auth.rate_limited");
    expect(records).toEqual([
      expect.objectContaining({
        actor_id: null,
        address: "192.0.2.44",
        // The network's attempts: wrong passwords against the name are counted apart (decision 042).
        after: { keys: ["login:ip:192.0.2.44"], limit: 3 },
      }),
    ]);
  });
});
