import { randomBytes } from "node:crypto";
import type { User } from "#domain/schemas/account.js";
import type { TestApp } from "./app.js";
import { confirmAddress } from "./email-change.js";

export interface LoggedInUser {
  user: User;
  password: string;
  /** The `cookie` request header that carries the session (`sid=...`, `__Host-sid=...` on https). */
  cookie: string;
  /** Headers for app.inject as the browser sends them: the session cookie and x-user-id. */
  headers: { cookie: string; "x-user-id": string };
}

/**
 * Registers a new customer and logs them in through the real /api/auth routes, as the browser
 * does. `admin: true` makes them an admin in the database before logging in, and confirms the
 * session with the password (the step-up money moves ask of an admin with no second factor), as the
 * admin would at their first refund; `stepUp: false` leaves the session unconfirmed. `proven: true`
 * follows the link mailed at sign-up first, so the address is proven theirs (docs/decisions/041).
 */
export async function registerAndLogin(
  t: TestApp,
  {
    admin = false,
    stepUp = true,
    proven = false,
    ...profile
  }: { admin?: boolean; stepUp?: boolean; proven?: boolean; fullName?: string; phone?: string; email?: string } = {},
): Promise<LoggedInUser> {
  const tag = randomBytes(5).toString("hex");
  const username = `shopper_${tag}`;
  const password = `pw-${randomBytes(9).toString("hex")}`;
  const registered = await t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    payload: {
      username,
      email: profile.email ?? `${username}@example.co.za`,
      password,
      fullName: profile.fullName ?? "Thandi Mokoena",
      phone: profile.phone ?? "082 555 0101",
      address: "12 Jacaranda Street",
      city: "Pretoria",
      zipCode: "0181",
    },
  });
  if (registered.statusCode !== 201 && registered.statusCode !== 200) {
    throw new Error(`register failed: ${registered.statusCode} ${registered.body}`);
  }
  const { id } = registered.json() as { id: string };
  if (admin) await t.pool.query("update users set is_admin = true where id = $1", [id]);
  if (proven) {
    const confirmed = await confirmAddress(t, profile.email ?? `${username}@example.co.za`);
    if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.statusCode} ${confirmed.body}`);
  }

  const login = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { username, password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const name = t.app.config.session.cookieName;
  const sid = login.cookies.find((cookie) => cookie.name === name);
  if (!sid) throw new Error(`login answered no ${name} cookie`);
  const cookie = `${name}=${sid.value}`;
  if (admin && stepUp) await confirmWithPassword(t, cookie, password);
  return { user: login.json() as User, password, cookie, headers: { cookie, "x-user-id": id } };
}

/** POST /api/auth/step-up/password: an admin with no second factor confirms the session for money moves. */
export async function confirmWithPassword(t: TestApp, cookie: string, password: string): Promise<void> {
  const confirmed = await t.app.inject({
    method: "POST",
    url: "/api/auth/step-up/password",
    headers: { cookie },
    payload: { password },
  });
  if (confirmed.statusCode !== 204) throw new Error(`step-up failed: ${confirmed.statusCode} ${confirmed.body}`);
}
