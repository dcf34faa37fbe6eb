import { createHash, randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_PASSWORD_WRONG_MESSAGE } from "#server/auth/current-password.js";
import { RESET_LINK_REDACTED } from "#server/mail/sender.js";
import { EMAIL_CHANGE_NEEDS_PASSWORD_MESSAGE } from "#server/users/routes.js";
import { type SignedIn, signIn } from "../helpers/admin.js";
import { buildTestApp, capturedText, type TestApp } from "../helpers/app.js";
import { confirmAddress, confirmEmailChange } from "../helpers/email-change.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const profile = (overrides: Record<string, string> = {}) => ({
  fullName: "Lerato Dlamini",
  email: `lerato.${randomUUID().slice(0, 8)}@example.co.za`,
  phone: "083 555 0199",
  address: "7 Protea Avenue",
  city: "Durban",
  zipCode: "4001",
  ...overrides,
});

const put = (who: SignedIn, id: string, payload: object) =>
  t.app.inject({
    method: "PUT",
    url: `/api/users/${id}`,
    headers: { cookie: who.cookie, "x-user-id": who.id },
    payload,
  });

describe("PUT /api/users/{id}", () => {
  it("updates the customer's own profile and answers the updated user", async () => {
    const customer = await signIn(t);
    const changes = profile({ email: customer.email });
    const response = await put(customer, customer.id, { ...changes, currentPassword: customer.password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: customer.id,
      username: customer.username,
      isAdmin: "false",
      ...changes,
    });
    expect(response.body).not.toContain("password");
    expect(response.headers["cache-control"]).toBe("no-store");

    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie: customer.cookie } });
    expect(me.json()).toMatchObject(changes);
  });

  it("trims what was typed and stores missing optional fields as empty text", async () => {
    const customer = await signIn(t);
    const response = await put(customer, customer.id, {
      fullName: "  Lerato Dlamini  ",
      email: ` ${customer.email} `,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      fullName: "Lerato Dlamini",
      email: customer.email,
      phone: "",
      address: "",
      city: "",
      zipCode: "",
    });
  });

  it("never changes the username, the admin flag or the password, whatever the body says", async () => {
    const customer = await signIn(t);
    const response = await put(customer, customer.id, {
      ...profile({ email: customer.email }),
      currentPassword: customer.password,
      username: "someone_else",
      isAdmin: "true",
      password: "new-password-123",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ username: customer.username, isAdmin: "false" });
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: customer.username, password: customer.password },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ isAdmin: "false" });
  });

  it("keeps the customer's own e-mail when only its case changes", async () => {
    const customer = await signIn(t);
    const response = await put(customer, customer.id, profile({ email: customer.email.toUpperCase() }));
    expect(response.statusCode).toBe(200);
  });

  it("says another account has the e-mail only when the link mailed to it is followed, with 409", async () => {
    const customer = await signIn(t);
    const other = await signIn(t);
    // The form answers the same whoever has the address: it tells nobody who is a customer.
    const response = await put(customer, customer.id, {
      ...profile({ email: other.email.toUpperCase() }),
      currentPassword: customer.password,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: customer.email });
    const confirmed = await confirmEmailChange(t, other.email.toUpperCase());
    expect(confirmed.statusCode).toBe(409);
    expect(confirmed.json()).toEqual({ message: "Email already registered", code: "EMAIL_TAKEN" });
  });

  it("refuses an invalid e-mail and a blank full name with 400 and a message", async () => {
    const customer = await signIn(t);
    const badEmail = await put(customer, customer.id, profile({ email: "lerato-at-home" }));
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json()).toEqual({ message: "email must be a valid email address", code: "VALIDATION_FAILED" });
    const blankName = await put(customer, customer.id, profile({ fullName: "   " }));
    expect(blankName.statusCode).toBe(400);
    expect(blankName.json()).toEqual({ message: "fullName is required", code: "VALIDATION_FAILED" });
  });

  it("lets an admin update a customer's profile", async () => {
    const customer = await signIn(t);
    const admin = await signIn(t, { admin: true });
    const changes = profile({ city: "Gqeberha", email: customer.email });
    const response = await put(admin, customer.id, changes);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: customer.id, city: "Gqeberha" });
  });

  it("answers 404 to an admin updating an account that does not exist", async () => {
    const admin = await signIn(t, { admin: true });
    const response = await put(admin, randomUUID(), profile());
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "User not found", code: "NOT_FOUND" });
  });

  it("refuses another customer's profile with 403 and changes nothing", async () => {
    const customer = await signIn(t);
    const intruder = await signIn(t);
    const response = await put(intruder, customer.id, profile({ fullName: "Not Me" }));
    expect(response.statusCode).toBe(403);
    const { rows } = await t.pool.query<{ full_name: string }>("select full_name from users where id = $1", [
      customer.id,
    ]);
    expect(rows[0]?.full_name).not.toBe("Not Me");
  });

  it("answers 400 to an admin naming an id that is not an id", async () => {
    const admin = await signIn(t, { admin: true });
    const response = await put(admin, "not-a-uuid", profile());
    expect(response.statusCode).toBe(400);
  });
});

describe("changing the e-mail address", () => {
  const emailOf = async (id: string) =>
    (await t.pool.query<{ email: string }>("select email from users where id = $1", [id])).rows[0]?.email;
  const notices = async (to: string) =>
    (
      await t.pool.query<{ event_key: string; data: Record<string, unknown> }>(
        "select event_key, data from emails where kind = 'account_changed' and to_address = $1",
        [to],
      )
    ).rows;

  it("asks for the current password and changes nothing without it", async () => {
    const customer = await signIn(t);
    const response = await put(customer, customer.id, profile({ city: "Polokwane" }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: EMAIL_CHANGE_NEEDS_PASSWORD_MESSAGE,
      code: "CURRENT_PASSWORD_REQUIRED",
    });
    const empty = await put(customer, customer.id, { ...profile(), currentPassword: "" });
    expect(empty.json()).toMatchObject({ code: "CURRENT_PASSWORD_REQUIRED" });
    expect(await emailOf(customer.id)).toBe(customer.email);
    const { rows } = await t.pool.query<{ city: string }>("select city from users where id = $1", [customer.id]);
    expect(rows[0]?.city).not.toBe("Polokwane");
  });

  it("refuses a wrong current password and changes nothing", async () => {
    const customer = await signIn(t);
    const response = await put(customer, customer.id, { ...profile(), currentPassword: `${customer.password}x` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: CURRENT_PASSWORD_WRONG_MESSAGE, code: "CURRENT_PASSWORD_WRONG" });
    expect(await emailOf(customer.id)).toBe(customer.email);
    expect(await notices(customer.email)).toEqual([]);
  });

  it("changes it with the right password only once the link mailed to the new address is followed, then tells the old one", async () => {
    const customer = await signIn(t);
    const changes = profile({ fullName: "Lerato Mokoena" });
    const response = await put(customer, customer.id, { ...changes, currentPassword: customer.password });
    expect(response.statusCode).toBe(200);
    // Not yet: the rest of the profile is saved, the address waits for its link.
    expect(response.json()).toMatchObject({ email: customer.email, fullName: "Lerato Mokoena" });
    expect(await emailOf(customer.id)).toBe(customer.email);
    expect(await notices(customer.email)).toEqual([]);
    const bogus = await t.app.inject({ method: "POST", url: "/api/auth/confirm-email", payload: { token: "nope" } });
    expect(bogus.json()).toMatchObject({ code: "RESET_LINK_INVALID" });

    const confirmed = await confirmEmailChange(t, changes.email);
    expect(confirmed.statusCode).toBe(200);
    expect(await emailOf(customer.id)).toBe(changes.email);
    // The outbox, which admins read, never kept the link: an admin could otherwise confirm it.
    const kept = await t.pool.query(
      "select html, text_body, data from emails where kind = 'email_change' and to_address = $1",
      [changes.email],
    );
    expect(kept.rows).toHaveLength(1);
    expect(JSON.stringify(kept.rows[0])).not.toMatch(/confirm-email\?token=/);
    expect(kept.rows[0].text_body).toContain(RESET_LINK_REDACTED);
    // The link works once.
    const { rows } = await t.pool.query("select used_at from email_changes where user_id = $1", [customer.id]);
    expect(rows.every((row) => row.used_at !== null)).toBe(true);
    expect(await notices(customer.email)).toEqual([
      {
        event_key: expect.stringMatching(/^email:[0-9a-f-]{36}$/),
        data: {
          name: "Lerato Mokoena",
          change: "email",
          newEmail: changes.email,
          changedAt: expect.any(String),
          greetByName: false,
        },
      },
    ]);
    expect(await notices(changes.email)).toEqual([]);
  });

  it("needs no password when the address stays (or only its case changes)", async () => {
    const customer = await signIn(t);
    expect((await put(customer, customer.id, profile({ email: customer.email }))).statusCode).toBe(200);
    expect((await put(customer, customer.id, profile({ email: customer.email.toUpperCase() }))).statusCode).toBe(200);
    expect(await notices(customer.email)).toEqual([]);
  });

  it("asks an admin changing a customer's address for the admin's own password", async () => {
    const customer = await signIn(t);
    const admin = await signIn(t, { admin: true });
    const changes = profile();
    const withTheirs = await put(admin, customer.id, { ...changes, currentPassword: customer.password });
    expect(withTheirs.json()).toMatchObject({ code: "CURRENT_PASSWORD_WRONG" });
    const withOwn = await put(admin, customer.id, { ...changes, currentPassword: admin.password });
    expect(withOwn.statusCode).toBe(200);
    expect(await emailOf(customer.id)).toBe(customer.email);
    expect((await confirmEmailChange(t, changes.email)).statusCode).toBe(200);
    expect(await emailOf(customer.id)).toBe(changes.email);
    expect(await notices(customer.email)).toHaveLength(1);
  });

  it("never lets an admin change another admin's address (they could then reset that admin's password)", async () => {
    const admin = await signIn(t, { admin: true });
    const other = await signIn(t, { admin: true });
    const mine = `taken.over.${randomUUID().slice(0, 8)}@example.co.za`;
    const refused = await put(admin, other.id, { ...profile({ email: mine }), currentPassword: admin.password });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: "FORBIDDEN" });
    expect(await emailOf(other.id)).toBe(other.email);
    // (Their own sign-up's link to confirm the address they have is the one row they hold.)
    const { rows } = await t.pool.query("select new_email from email_changes where user_id = $1", [other.id]);
    expect(rows).toEqual([{ new_email: other.email }]);
    // Their other details an admin may still correct; their own address the admin changes as anyone does.
    expect((await put(admin, other.id, profile({ email: other.email, city: "Kimberley" }))).statusCode).toBe(200);
    expect(
      (await put(other, other.id, { ...profile({ email: mine }), currentPassword: other.password })).statusCode,
    ).toBe(200);
  });

  it("stops the reset links mailed to the old address", async () => {
    const customer = await signIn(t);
    const token = randomBytes(32).toString("base64url");
    await t.pool.query(
      "insert into password_resets (user_id, token_hash, expires_at) values ($1, $2, now() + interval '30 minutes')",
      [customer.id, createHash("sha256").update(token).digest("hex")],
    );
    const changes = profile();
    expect((await put(customer, customer.id, { ...changes, currentPassword: customer.password })).statusCode).toBe(200);
    expect((await confirmEmailChange(t, changes.email)).statusCode).toBe(200);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      payload: { token, password: `a fresh start ${randomUUID()}` },
    });
    expect(response.json()).toMatchObject({ code: "RESET_LINK_INVALID" });
  });
});

describe("the address's confirmation on the profile (issue 39)", () => {
  const address = (who: SignedIn) =>
    t.app.inject({ method: "GET", url: "/api/auth/address", headers: { cookie: who.cookie } });
  const resend = (who: SignedIn) =>
    t.app.inject({ method: "POST", url: "/api/auth/address/resend", headers: { cookie: who.cookie }, payload: {} });
  const links = async (email: string) =>
    (await t.pool.query("select id from emails where kind = 'email_confirm' and to_address = $1", [email])).rowCount;

  it("resends the link once a minute and at most 5 in 24 hours; the newest link works and the older ones stop", async () => {
    const customer = await signIn(t);
    expect((await address(customer)).json()).toEqual({ email: customer.email, confirmed: false });
    expect(await links(customer.email)).toBe(1);
    await t.app.mail.deliverDue();
    const first = await t.pool.query<{ id: string }>(
      "select id from emails where kind = 'email_confirm' and to_address = $1",
      [customer.email],
    );
    const firstText = await capturedText(t, first.rows[0]?.id ?? "");
    const firstToken = /\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(firstText)?.[1];

    const sent = await resend(customer);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message).toContain(customer.email);
    const soon = await resend(customer);
    expect(soon.statusCode).toBe(429);
    expect(soon.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(await links(customer.email)).toBe(2);
    // Three more minutes' worth: the fifth link of the day is the last.
    for (let index = 0; index < 3; index++) {
      await t.pool.query("delete from rate_limits where key = $1", [`address-proof:user:${customer.id}`]);
      expect((await resend(customer)).statusCode).toBe(200);
    }
    await t.pool.query("delete from rate_limits where key = $1", [`address-proof:user:${customer.id}`]);
    const capped = await resend(customer);
    expect(capped.statusCode).toBe(429);
    expect(capped.json().message).toContain("5 links");
    expect(await links(customer.email)).toBe(5);

    // The first link was replaced by the newer ones once they were sent; the newest proves the address.
    await t.app.mail.deliverDue();
    const old = await t.app.inject({ method: "POST", url: "/api/auth/confirm-email", payload: { token: firstToken } });
    expect(old.statusCode).toBe(400);
    expect((await confirmAddress(t, customer.email)).statusCode).toBe(200);
    expect((await address(customer)).json()).toEqual({ email: customer.email, confirmed: true });
    await t.pool.query("delete from rate_limits where key = $1", [`address-proof:user:${customer.id}`]);
    const done = await resend(customer);
    expect(done.statusCode).toBe(409);
    expect(done.json()).toMatchObject({ code: "EMAIL_ALREADY_CONFIRMED" });
  });

  it("needs a session: 401 without one", async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/auth/address/resend", payload: {} });
    expect(response.statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/address" })).statusCode).toBe(401);
  });

  it("counts an address changed by its link as confirmed", async () => {
    const customer = await signIn(t);
    const newEmail = `moved.${randomUUID().slice(0, 8)}@example.co.za`;
    const changed = await put(customer, customer.id, profile({ email: newEmail, currentPassword: customer.password }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await confirmEmailChange(t, newEmail)).statusCode).toBe(200);
    expect((await address(customer)).json()).toEqual({ email: newEmail, confirmed: true });
  });
});
