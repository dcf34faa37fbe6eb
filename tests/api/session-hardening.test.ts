import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "#server/platform/config.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { registerAndLogin } from "../helpers/users.js";

let plain: TestApp;
let secure: TestApp;
beforeAll(async () => {
  [plain, secure] = await Promise.all([
    buildTestApp(),
    buildTestApp({ PUBLIC_URL: "https://shop.example.co.za", ALLOW_TEST_PAYMENTS: "true" }),
  ]);
});
afterAll(() => Promise.all([plain.close(), secure.close()]));

async function registerAndLoginRaw(t: TestApp) {
  const tag = randomBytes(4).toString("hex");
  const account = { username: `naledi_${tag}`, email: `naledi.${tag}@example.co.za`, password: `warm-nappy-${tag}` };
  const registered = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: { ...account, fullName: "Naledi Khumalo" },
  });
  expect(registered.statusCode).toBe(201);
  const login = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { username: account.username, password: account.password },
  });
  expect(login.statusCode).toBe(200);
  return login;
}

const setCookieLines = (response: { headers: Record<string, unknown> }) => {
  const header = response.headers["set-cookie"];
  return (Array.isArray(header) ? header : [header]).filter((line): line is string => typeof line === "string");
};

const me = (t: TestApp, cookie: string) => t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });

describe("the session cookie's name", () => {
  it("is __Host-sid when PUBLIC_URL is https: Secure, HttpOnly, Path=/ and no Domain", async () => {
    const login = await registerAndLoginRaw(secure);
    const session = login.cookies.find((cookie) => cookie.name === "__Host-sid");
    expect(session).toMatchObject({ secure: true, httpOnly: true, path: "/", sameSite: "Lax" });
    expect(session?.domain).toBeUndefined();
    expect(login.cookies.find((cookie) => cookie.name === "sid")).toBeUndefined();
    const line = setCookieLines(login).find((text) => text.startsWith("__Host-sid="));
    expect(line).toMatch(/; Secure/);
    expect(line).toMatch(/; Path=\/(;|$)/);
    expect(line).not.toMatch(/Domain=/i);
    // The readable hint keeps its name.
    expect(login.cookies.find((cookie) => cookie.name === "signed_in")).toMatchObject({ value: "1", secure: true });

    expect((await me(secure, `__Host-sid=${session?.value}`)).statusCode).toBe(200);
  });

  it("ignores a plain sid cookie on an https shop, as one planted by a sibling subdomain would be", async () => {
    const login = await registerAndLoginRaw(secure);
    const token = login.cookies.find((cookie) => cookie.name === "__Host-sid")?.value;
    expect((await me(secure, `sid=${token}`)).statusCode).toBe(401);
  });

  it("is cleared by its own name at logout on an https shop", async () => {
    const login = await registerAndLoginRaw(secure);
    const cookie = `__Host-sid=${login.cookies.find((c) => c.name === "__Host-sid")?.value}`;
    const logout = await secure.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie } });
    expect(logout.statusCode).toBe(204);
    const cleared = logout.cookies.find((c) => c.name === "__Host-sid");
    expect(cleared).toMatchObject({ value: "", secure: true, path: "/" });
    expect((await me(secure, cookie)).statusCode).toBe(401);
  });

  it("is sid on plain http, where the browser would refuse a __Host- cookie", async () => {
    const login = await registerAndLoginRaw(plain);
    const session = login.cookies.find((cookie) => cookie.name === "sid");
    expect(session).toMatchObject({ httpOnly: true, path: "/" });
    expect(session?.secure).toBeFalsy();
    expect(login.cookies.find((cookie) => cookie.name === "__Host-sid")).toBeUndefined();
    expect((await me(plain, `sid=${session?.value}`)).statusCode).toBe(200);
    expect((await me(plain, `__Host-sid=${session?.value}`)).statusCode).toBe(401);
  });
});

describe("an admin's session idles out sooner than a customer's", () => {
  const idleFor = (t: TestApp, userId: string, interval: string) =>
    t.pool.query(`update sessions set last_seen_at = now() - interval '${interval}' where user_id = $1`, [userId]);

  it("refuses an admin's session idle for over 2 hours (ADMIN_SESSION_IDLE_HOURS), and deletes it", async () => {
    const admin = await registerAndLogin(plain, { admin: true });
    await idleFor(plain, admin.user.id, "2 hours 1 minute");
    const response = await plain.app.inject({ method: "GET", url: "/api/auth/me", headers: admin.headers });
    expect(response.statusCode).toBe(401);
    const { rowCount } = await plain.pool.query("select 1 from sessions where user_id = $1", [admin.user.id]);
    expect(rowCount).toBe(0);
  });

  it("keeps an admin's session idle for less than 2 hours", async () => {
    const admin = await registerAndLogin(plain, { admin: true });
    await idleFor(plain, admin.user.id, "1 hour 58 minutes");
    const response = await plain.app.inject({ method: "GET", url: "/api/auth/me", headers: admin.headers });
    expect(response.statusCode).toBe(200);
  });

  it("keeps a customer's session idle for the same time", async () => {
    const customer = await registerAndLogin(plain);
    await idleFor(plain, customer.user.id, "2 hours 1 minute");
    const response = await plain.app.inject({ method: "GET", url: "/api/auth/me", headers: customer.headers });
    expect(response.statusCode).toBe(200);
  });

  it("applies the admin limit to a customer promoted while signed in", async () => {
    const customer = await registerAndLogin(plain);
    await plain.pool.query("update users set is_admin = true where id = $1", [customer.user.id]);
    await idleFor(plain, customer.user.id, "3 hours");
    const response = await plain.app.inject({ method: "GET", url: "/api/auth/me", headers: customer.headers });
    expect(response.statusCode).toBe(401);
  });

  it("reads ADMIN_SESSION_IDLE_HOURS, defaulting to 2, never longer than SESSION_IDLE_DAYS, and refuses a bad one", () => {
    expect(loadConfig({}).session.adminIdleMs).toBe(2 * 3_600_000);
    expect(loadConfig({ ADMIN_SESSION_IDLE_HOURS: "0.5" }).session.adminIdleMs).toBe(1_800_000);
    expect(loadConfig({ ADMIN_SESSION_IDLE_HOURS: "48", SESSION_IDLE_DAYS: "1" }).session.adminIdleMs).toBe(86_400_000);
    expect(() => loadConfig({ ADMIN_SESSION_IDLE_HOURS: "0" })).toThrow(/ADMIN_SESSION_IDLE_HOURS/);
    expect(() => loadConfig({ ADMIN_SESSION_IDLE_HOURS: "soon" })).toThrow(/ADMIN_SESSION_IDLE_HOURS/);
  });
});
