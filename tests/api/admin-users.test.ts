import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOrder, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { onlyAuditRecord, within } from "../helpers/audit.js";
import { ageStepUp, codeAt, enrolSecondFactor } from "../helpers/two-factor.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

interface CustomerAnswer {
  id: string;
  username: string;
  isAdmin: string;
  orderCount: number;
  spent: string;
  lastOrderAt: string | null;
}

const get = (cookie: string, url: string) => t.app.inject({ method: "GET", url, headers: { cookie } });

/** Customers straight into the table (no password hashing: these never log in), one second apart, oldest first. */
async function insertCustomers(prefix: string, count: number, start = Date.parse("2025-01-01T08:00:00Z")) {
  const { rows } = await t.pool.query<{ id: string }>(
    `insert into users (username, email, password_hash, full_name, phone, created_at)
     select $1 || n, $1 || n || '@example.co.za', 'not-a-hash', 'Bulk ' || $1 || ' ' || n, '083 100 ' || lpad(n::text, 4, '0'),
       to_timestamp($2 / 1000.0) + n * interval '1 second'
     from generate_series(1, $3) as n order by n returning id`,
    [prefix, start, count],
  );
  return rows.map((row) => row.id);
}

describe("GET /api/admin/users", () => {
  it("pages through every customer newest first, 50 at a time, none missed or repeated, while new ones sign up", async () => {
    const admin = await signInAsAdmin(t);
    const ids = await insertCustomers("pager_", 120, Date.parse("2020-01-01T00:00:00Z"));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await get(admin.cookie, `/api/admin/users${cursor ? `?cursor=${cursor}` : ""}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as { users: CustomerAnswer[]; nextCursor: string | null };
      expect(page.users.length).toBeLessThanOrEqual(50);
      seen.push(...page.users.map((user) => user.id));
      cursor = page.nextCursor;
      // Someone signs up between pages: the pages already handed out do not shift.
      if (pages === 0) await insertCustomers("latecomer_", 3, Date.now());
      pages++;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse());
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it("finds customers by a part of their name, username, e-mail or phone, in any case", async () => {
    const admin = await signInAsAdmin(t);
    const [id] = await insertCustomers("zanele_", 1);
    await t.pool.query("update users set full_name = 'Zanele Dlamini', phone = '072 998 4410' where id = $1", [id]);
    for (const q of ["DLAMI", "zanele_1", "ZANELE_1@EXAMPLE", "998 44"]) {
      const response = await get(admin.cookie, `/api/admin/users?q=${encodeURIComponent(q)}`);
      expect(response.statusCode).toBe(200);
      expect(
        (response.json() as { users: CustomerAnswer[] }).users.map((user) => user.id),
        q,
      ).toEqual([id]);
    }
    const none = await get(admin.cookie, "/api/admin/users?q=%25%25");
    expect((none.json() as { users: unknown[] }).users).toEqual([]);
  });

  it("gives each customer the number of their orders and what their paid and shipped orders came to, in rand", async () => {
    const admin = await signInAsAdmin(t);
    const [id] = await insertCustomers("spender_", 1);
    const line = (cents: number) => [{ name: "Night Pants", size: "M", quantity: 1, unitPriceCents: cents }];
    await insertOrder(t, { userId: id, status: "completed", lines: line(60_000) });
    await insertOrder(t, { userId: id, status: "processed", lines: line(20_000) });
    await insertOrder(t, { userId: id, status: "pending", lines: line(99_900) });
    await insertOrder(t, { userId: id, status: "cancelled", lines: line(99_900) });
    const response = await get(admin.cookie, "/api/admin/users?q=spender_1");
    const [found] = (response.json() as { users: CustomerAnswer[] }).users;
    // R600.00 (free delivery) + R200.00 + R75.00 delivery.
    expect(found).toMatchObject({ id, orderCount: 4, spent: "875.00", lastOrderAt: expect.any(String) });
    const one = await get(admin.cookie, `/api/admin/users/${id}`);
    expect(one.json()).toMatchObject({ id, orderCount: 4, spent: "875.00" });
  });

  it("lists one customer's orders newest first, with how each was paid", async () => {
    const admin = await signInAsAdmin(t);
    const [id] = await insertCustomers("orderer_", 1);
    const older = await insertOrder(t, {
      userId: id,
      status: "completed",
      createdAt: new Date(Date.now() - 86_400_000),
    });
    const newer = await insertOrder(t, { userId: id, status: "pending" });
    await insertOrder(t, { status: "pending" });
    const response = await get(admin.cookie, `/api/admin/users/${id}/orders`);
    expect(response.statusCode).toBe(200);
    const page = response.json() as { orders: { id: string; paidBy: string | null }[]; nextCursor: string | null };
    expect(page.orders.map((order) => [order.id, order.paidBy])).toEqual([
      [newer, null],
      [older, "itn"],
    ]);
    expect(page.nextCursor).toBeNull();
  });

  it("answers without passwords or their hashes", async () => {
    const admin = await signInAsAdmin(t);
    const customer = await signIn(t);
    const response = await get(admin.cookie, `/api/admin/users?q=${customer.username}`);
    expect((response.json() as { users: CustomerAnswer[] }).users).toEqual([
      expect.objectContaining({
        id: customer.id,
        username: customer.username,
        isAdmin: "false",
        orderCount: 0,
        spent: "0.00",
      }),
    ]);
    expect(response.body).not.toMatch(/password|argon|\$2[aby]\$/i);
    expect(response.body).not.toContain(customer.password);
  });

  it("refuses a cursor it did not make, a search over 100 characters and an unknown customer", async () => {
    const admin = await signInAsAdmin(t);
    for (const url of [
      "/api/admin/users?cursor=not-a-cursor",
      `/api/admin/users?cursor=${Buffer.from("2025-01-01|x").toString("base64url")}`,
      "/api/admin/users?cursor=%20",
      `/api/admin/users?q=${"a".repeat(101)}`,
      "/api/admin/users/not-a-uuid/orders",
    ]) {
      const response = await get(admin.cookie, url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    const unknown = await get(admin.cookie, "/api/admin/users/00000000-0000-4000-8000-000000000000");
    expect(unknown.statusCode).toBe(404);
  });

  it("is refused to guests (401) and customers (403)", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/admin/users" })).statusCode).toBe(401);
    const customer = await signIn(t);
    expect((await get(customer.cookie, "/api/admin/users")).statusCode).toBe(403);
  });
});

describe("PATCH /api/admin/users/{id}", () => {
  const patch = (cookie: string, id: string, payload: unknown, remoteAddress = "127.0.0.1") =>
    t.app.inject({
      method: "PATCH",
      url: `/api/admin/users/${id}`,
      headers: { cookie },
      payload: payload as object,
      remoteAddress,
    });

  it("makes a customer an admin and removes it again, each recorded with who, when, where and what changed", async () => {
    const admin = await signInAsAdmin(t);
    const customer = await signIn(t);
    const since = Date.now();
    const made = await patch(admin.cookie, customer.id, { isAdmin: true }, "198.51.100.23");
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ id: customer.id, isAdmin: "true" });
    expect((await get(customer.cookie, "/api/admin/users")).statusCode).toBe(200);
    const granted = await onlyAuditRecord(t, "user.admin_granted", customer.id);
    expect(granted).toMatchObject({
      actor_id: admin.id,
      actor_username: admin.username,
      address: "198.51.100.23",
      subject_type: "user",
      before: { isAdmin: false, username: customer.username },
      after: { isAdmin: true, username: customer.username },
    });
    expect(within(granted, since)).toBe(true);

    const removed = await patch(admin.cookie, customer.id, { isAdmin: "false" });
    expect(removed.json()).toMatchObject({ isAdmin: "false" });
    expect((await get(customer.cookie, "/api/admin/users")).statusCode).toBe(403);
    expect(await onlyAuditRecord(t, "user.admin_revoked", customer.id)).toMatchObject({
      actor_id: admin.id,
      after: { isAdmin: false },
    });
  });

  it("refuses to let an admin remove their own admin rights, and changes nothing", async () => {
    const admin = await signInAsAdmin(t);
    const response = await patch(admin.cookie, admin.id, { isAdmin: false });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: "You cannot remove your own admin rights. Ask another admin to do it.",
      code: "CANNOT_DEMOTE_SELF",
    });
    const { rows } = await t.pool.query("select is_admin from users where id = $1", [admin.id]);
    expect(rows[0]).toEqual({ is_admin: true });
    // Another admin may.
    const other = await signInAsAdmin(t);
    expect((await patch(other.cookie, admin.id, { isAdmin: false })).json()).toMatchObject({ isAdmin: "false" });
  });

  it("writes no record when nothing changes", async () => {
    const admin = await signInAsAdmin(t);
    const customer = await signIn(t);
    expect((await patch(admin.cookie, customer.id, { isAdmin: false })).statusCode).toBe(200);
    const { rows } = await t.pool.query("select 1 from audit_log where subject_id = $1 and action like 'user.admin%'", [
      customer.id,
    ]);
    expect(rows).toEqual([]);
  });

  it("answers a bad body 400 and an unknown user 404, changing nothing", async () => {
    const admin = await signInAsAdmin(t);
    const customer = await signIn(t);
    for (const payload of [{}, { isAdmin: "yes" }, { isAdmin: 1 }, { isAdmin: null }, []]) {
      const response = await patch(admin.cookie, customer.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    const unknown = await patch(admin.cookie, "00000000-0000-4000-8000-000000000000", { isAdmin: true });
    expect(unknown.statusCode).toBe(404);
    const { rows } = await t.pool.query("select is_admin from users where id = $1", [customer.id]);
    expect(rows[0]).toEqual({ is_admin: false });
  });

  it("is refused to a customer, who cannot make themselves an admin", async () => {
    const customer = await signIn(t);
    const response = await patch(customer.cookie, customer.id, { isAdmin: true });
    expect(response.statusCode).toBe(403);
    const { rows } = await t.pool.query("select is_admin from users where id = $1", [customer.id]);
    expect(rows[0]).toEqual({ is_admin: false });
  });
});

describe("POST /api/admin/users/{id}/disable", () => {
  const disable = (cookie: string, id: string) =>
    t.app.inject({
      method: "POST",
      url: `/api/admin/users/${id}/disable`,
      headers: { cookie },
      payload: { reason: "Issue 39 test" },
    });
  const disabledAt = async (id: string) =>
    (await t.pool.query("select disabled_at from users where id = $1", [id])).rows[0]?.disabled_at ?? null;

  it("asks for a fresh step-up before disabling another admin, and changes nothing without it", async () => {
    const admin = await signInAsAdmin(t);
    const other = await signInAsAdmin(t);
    const { secret } = await enrolSecondFactor(t, admin.cookie);
    await ageStepUp(t, admin.id);
    const refused = await disable(admin.cookie, other.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("STEP_UP_REQUIRED");
    expect(await disabledAt(other.id)).toBeNull();
    // Their session still works: nothing was ended.
    expect(
      (await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie: other.cookie } })).statusCode,
    ).toBe(200);

    const verified = await t.app.inject({
      method: "POST",
      url: "/api/auth/2fa/verify",
      headers: { cookie: admin.cookie },
      payload: { code: await codeAt(secret, 1) },
    });
    expect(verified.statusCode).toBe(204);
    expect((await disable(admin.cookie, other.id)).statusCode).toBe(200);
    expect(await disabledAt(other.id)).not.toBeNull();
  });

  it("asks an admin with no second factor for their password before disabling another admin, not before a customer", async () => {
    const admin = await signInAsAdmin(t);
    const other = await signInAsAdmin(t);
    const customer = await signIn(t);
    await ageStepUp(t, admin.id);
    const refused = await disable(admin.cookie, other.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("STEP_UP_PASSWORD_REQUIRED");
    expect(await disabledAt(other.id)).toBeNull();
    expect((await disable(admin.cookie, customer.id)).statusCode).toBe(200);
  });
});
