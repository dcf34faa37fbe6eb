import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_PASSWORD_WRONG_MESSAGE } from "#server/auth/current-password.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

let addressCounter = 1;
const nextAddress = () => `10.50.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

const change = (app: TestApp["app"], who: LoggedInUser, body: { currentPassword?: string; newPassword?: string }) =>
  app.inject({
    method: "POST",
    url: "/api/auth/change-password",
    headers: who.headers,
    payload: body,
    remoteAddress: nextAddress(),
  });

const login = (app: TestApp["app"], username: string, password: string) =>
  app.inject({ method: "POST", url: "/api/auth/login", payload: { username, password }, remoteAddress: nextAddress() });

const me = (cookie: string) => t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });

const strongPassword = () => `quiet night nappy ${randomBytes(4).toString("hex")}`;

/** A second device of the same customer: a session of its own. */
async function secondDevice(who: LoggedInUser): Promise<string> {
  const response = await login(t.app, who.user.username, who.password);
  expect(response.statusCode).toBe(200);
  return `sid=${response.cookies.find((cookie) => cookie.name === "sid")?.value}`;
}

const accountChangedNotices = async (email: string) =>
  (
    await t.pool.query<{ event_key: string; data: Record<string, unknown> }>(
      "select event_key, data from emails where kind = 'account_changed' and to_address = $1 order by id",
      [email],
    )
  ).rows;

describe("POST /api/auth/change-password", () => {
  it("sets the new password, keeps this session and ends every other one", async () => {
    const customer = await registerAndLogin(t);
    const phone = await secondDevice(customer);
    const newPassword = strongPassword();

    const response = await change(t.app, customer, { currentPassword: customer.password, newPassword });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: expect.stringContaining("Your password was changed.") });
    expect(response.headers["cache-control"]).toBe("no-store");

    expect((await me(customer.cookie)).statusCode).toBe(200);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await login(t.app, customer.user.username, customer.password)).statusCode).toBe(401);
    expect((await login(t.app, customer.user.username, newPassword)).statusCode).toBe(200);
  });

  it("refuses a wrong current password with 400 and changes nothing", async () => {
    const customer = await registerAndLogin(t);
    const phone = await secondDevice(customer);
    const newPassword = strongPassword();

    const response = await change(t.app, customer, { currentPassword: `${customer.password}x`, newPassword });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: CURRENT_PASSWORD_WRONG_MESSAGE, code: "CURRENT_PASSWORD_WRONG" });

    expect((await me(customer.cookie)).statusCode).toBe(200);
    expect((await me(phone)).statusCode).toBe(200);
    expect((await login(t.app, customer.user.username, newPassword)).statusCode).toBe(401);
    expect((await login(t.app, customer.user.username, customer.password)).statusCode).toBe(200);
    expect(await accountChangedNotices(customer.user.email)).toEqual([]);
  });

  it("counts a wrong current password as a login failure: the failing network is shut out, the owner's is not", async () => {
    const limited = await buildTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: "10", LOGIN_FAILURES_PER_ACCOUNT: "3" });
    try {
      const customer = await registerAndLogin(limited);
      const from = (remoteAddress: string, currentPassword: string) =>
        limited.app.inject({
          method: "POST",
          url: "/api/auth/change-password",
          headers: customer.headers,
          payload: { currentPassword, newPassword: strongPassword() },
          remoteAddress,
        });
      for (let i = 0; i < 3; i++) expect((await from("198.51.100.9", "guess-guess")).statusCode).toBe(400);
      const refused = await from("198.51.100.9", customer.password);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: "RATE_LIMITED" });
      const loginThere = await limited.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { username: customer.user.username, password: customer.password },
        remoteAddress: "198.51.100.9",
      });
      expect(loginThere.statusCode).toBe(429);
      // From another network the same session changes the password.
      expect((await from("198.51.100.10", customer.password)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("lets the owner change their password after 50 wrong logins from a stranger's network (issue 39)", async () => {
    const limited = await buildTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: "10", LOGIN_FAILURES_PER_ACCOUNT: "10" });
    try {
      const customer = await registerAndLogin(limited);
      for (let i = 0; i < 50; i++) {
        await limited.app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { username: customer.user.username, password: `guess-${i}` },
          remoteAddress: "203.0.113.66",
        });
      }
      const changed = await limited.app.inject({
        method: "POST",
        url: "/api/auth/change-password",
        headers: customer.headers,
        payload: { currentPassword: customer.password, newPassword: strongPassword() },
        remoteAddress: "203.0.113.67",
      });
      expect(changed.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("refuses a common or short new password and changes nothing", async () => {
    const customer = await registerAndLogin(t);
    for (const newPassword of ["password1", "iloveyou", "Sunshine1"]) {
      const response = await change(t.app, customer, { currentPassword: customer.password, newPassword });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: "This password is too common: it appears in lists of leaked passwords. Choose another.",
        code: "PASSWORD_TOO_COMMON",
      });
    }
    const short = await change(t.app, customer, { currentPassword: customer.password, newPassword: "Xq7#vL2" });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ message: "newPassword must be at least 8 characters", code: "VALIDATION_FAILED" });
    expect((await login(t.app, customer.user.username, customer.password)).statusCode).toBe(200);
  });

  it("asks for the current password and for a session", async () => {
    const customer = await registerAndLogin(t);
    const missing = await change(t.app, customer, { newPassword: strongPassword() });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ message: "currentPassword is required", code: "VALIDATION_FAILED" });

    const guest = await t.app.inject({
      method: "POST",
      url: "/api/auth/change-password",
      payload: { currentPassword: customer.password, newPassword: strongPassword() },
    });
    expect(guest.statusCode).toBe(401);
    expect(guest.json()).toMatchObject({ code: "NOT_LOGGED_IN" });
  });

  it("writes one account_changed notice per change", async () => {
    const customer = await registerAndLogin(t, { fullName: "Naledi Khumalo" });
    const second = strongPassword();
    expect(
      (await change(t.app, customer, { currentPassword: customer.password, newPassword: second })).statusCode,
    ).toBe(200);
    expect((await change(t.app, customer, { currentPassword: second, newPassword: strongPassword() })).statusCode).toBe(
      200,
    );
    const notices = await accountChangedNotices(customer.user.email);
    expect(notices).toHaveLength(2);
    expect(new Set(notices.map((notice) => notice.event_key)).size).toBe(2);
    expect(notices[0]).toEqual({
      event_key: expect.stringMatching(/^password:/),
      // The address was never proven the account's: no name in the greeting.
      data: {
        name: "Naledi Khumalo",
        change: "password",
        newEmail: null,
        changedAt: expect.any(String),
        greetByName: false,
      },
    });
  });

  it("stops the account's reset links that were not used yet", async () => {
    const customer = await registerAndLogin(t);
    const token = randomBytes(32).toString("base64url");
    await t.pool.query(
      "insert into password_resets (user_id, token_hash, expires_at) values ($1, $2, now() + interval '30 minutes')",
      [customer.user.id, createHash("sha256").update(token).digest("hex")],
    );
    await change(t.app, customer, { currentPassword: customer.password, newPassword: strongPassword() });
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      payload: { token, password: strongPassword() },
    });
    expect(response.json()).toMatchObject({ code: "RESET_LINK_INVALID" });
  });
});
