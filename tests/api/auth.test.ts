import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNUP_ATTEMPT_NOTES_PER_DAY } from "#domain/limits.js";
import { buildApp } from "#server/app.js";
import { loadConfig } from "#server/platform/config.js";
import { createDatabase } from "#server/platform/db/client.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { confirmAddress } from "../helpers/email-change.js";

const USER_KEYS = [
  "address",
  "altPhone",
  "city",
  "complex",
  "createdAt",
  "deliveryInstructions",
  "email",
  "fullName",
  "id",
  "isAdmin",
  "phone",
  "province",
  "suburb",
  "username",
  "zipCode",
];

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A distinct client address per test, so one test's attempts never count against another's. */
let addressCounter = 1;
const nextAddress = () => `10.1.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

function newAccount(overrides: Record<string, string> = {}) {
  const tag = randomBytes(4).toString("hex");
  return {
    username: `thandi_${tag}`,
    email: `thandi.${tag}@example.co.za`,
    password: `correct horse ${tag}`,
    fullName: "Thandi Mokoena",
    phone: "082 555 0101",
    address: "12 Jacaranda Street",
    city: "Pretoria",
    zipCode: "0181",
    ...overrides,
  };
}

async function register(app: TestApp["app"], account: Record<string, string>, remoteAddress = nextAddress()) {
  return app.inject({ method: "POST", url: "/api/auth/register", payload: account, remoteAddress });
}

async function login(app: TestApp["app"], username: string, password: string, extra: { cookie?: string } = {}) {
  return app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { username, password },
    remoteAddress: nextAddress(),
    headers: extra.cookie ? { cookie: extra.cookie } : {},
  });
}

async function registered(overrides: Record<string, string> = {}) {
  const account = newAccount(overrides);
  const response = await register(t.app, account);
  expect(response.statusCode).toBe(201);
  return { ...account, id: (response.json() as { id: string }).id };
}

interface ResponseCookie {
  name: string;
  value: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: string;
  path?: string;
}

function sidOf(response: { cookies: ResponseCookie[] }) {
  return response.cookies.find((cookie) => cookie.name === "sid");
}

async function signedInCookie(username: string, password: string) {
  const response = await login(t.app, username, password);
  expect(response.statusCode).toBe(200);
  const sid = sidOf(response);
  if (!sid) throw new Error("no sid cookie");
  return `sid=${sid.value}`;
}

const me = (cookie?: string) => t.app.inject({ method: "GET", url: "/api/auth/me", headers: cookie ? { cookie } : {} });

describe("registration", () => {
  it("creates a customer and answers the user of docs/product.md §3, never the password", async () => {
    const account = newAccount();
    const response = await register(t.app, account);
    expect(response.statusCode).toBe(201);
    const body = response.json() as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(USER_KEYS);
    expect(body).toMatchObject({
      username: account.username,
      email: account.email,
      fullName: "Thandi Mokoena",
      phone: "082 555 0101",
      address: "12 Jacaranda Street",
      city: "Pretoria",
      zipCode: "0181",
      isAdmin: "false",
    });
    expect(new Date(String(body.createdAt)).toISOString()).toBe(body.createdAt);
    expect(response.body).not.toContain(account.password);
    expect(response.body).not.toContain("argon2");
  });

  it("does not sign the new customer in: they log in next", async () => {
    const response = await register(t.app, newAccount());
    expect(response.statusCode).toBe(201);
    expect(sidOf(response)).toBeUndefined();
  });

  it("keeps only an argon2id hash with OWASP's parameters (19 MiB, 2 passes, 1 lane)", async () => {
    const account = await registered();
    const { rows } = await t.pool.query<{ password_hash: string }>("select password_hash from users where id = $1", [
      account.id,
    ]);
    expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(rows[0]?.password_hash).not.toContain(account.password);
  });

  it("accepts the optional fields left out, as empty text", async () => {
    const { phone: _p, address: _a, city: _c, zipCode: _z, ...required } = newAccount();
    const response = await register(t.app, required);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ phone: "", address: "", city: "", zipCode: "" });
  });

  it("refuses a username already taken, whatever its case, with 409", async () => {
    const first = await registered();
    const response = await register(t.app, newAccount({ username: first.username.toUpperCase() }));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: "Username already taken", code: "USERNAME_TAKEN" });
  });

  it("answers an address already registered, whatever its case, exactly as a new sign-up, makes nothing, and tells its owner", async () => {
    const first = await registered();
    const fresh = await register(t.app, newAccount());
    const attempt = newAccount({ email: first.email.toUpperCase() });
    const taken = await register(t.app, attempt);
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.statusCode).toBe(201);
    expect(taken.headers["content-type"]).toBe(fresh.headers["content-type"]);
    const shape = (body: Record<string, unknown>) => ({ ...body, id: "-", createdAt: "-", username: "-", email: "-" });
    expect(shape(taken.json())).toEqual(shape(fresh.json()));
    expect(taken.json()).toMatchObject({ username: attempt.username, email: attempt.email, isAdmin: "false" });
    expect(taken.json().id).toMatch(/^[0-9a-f-]{36}$/);
    expect(taken.body).not.toContain(first.id);

    const { rows } = await t.pool.query("select id from users where lower(email) = lower($1) or username = $2", [
      first.email,
      attempt.username,
    ]);
    expect(rows).toEqual([{ id: first.id }]);
    const mails = await t.pool.query<{ kind: string; to_address: string; data: Record<string, unknown> }>(
      "select kind, to_address, data from emails where lower(to_address) = lower($1) order by id",
      [first.email],
    );
    // The owner's own sign-up link, then the note: nothing the stranger typed is in it.
    expect(mails.rows.map((row) => row.kind)).toEqual(["email_confirm", "signup_attempt"]);
    expect(JSON.stringify(mails.rows[1])).not.toContain(attempt.username);
    expect(mails.rows[1]?.to_address).toBe(first.email);
  });

  it("takes about as long for a taken address as for a new sign-up", async () => {
    const owner = await registered();
    const time = async (account: Record<string, string>) => {
      const started = performance.now();
      const response = await register(t.app, account);
      expect(response.statusCode).toBe(201);
      return performance.now() - started;
    };
    const fresh: number[] = [];
    const taken: number[] = [];
    // A first round of each, not counted: the password list loads on the first new password.
    await time(newAccount());
    await time(newAccount({ email: owner.email }));
    for (let round = 0; round < 7; round++) {
      fresh.push(await time(newAccount()));
      taken.push(await time(newAccount({ email: owner.email })));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const ratio = median(taken) / median(fresh);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it(`tells an address's owner of sign-up attempts at most ${SIGNUP_ATTEMPT_NOTES_PER_DAY} times in 24 hours`, async () => {
    const owner = await registered();
    for (let round = 0; round <= SIGNUP_ATTEMPT_NOTES_PER_DAY; round++) {
      expect((await register(t.app, newAccount({ email: owner.email }))).statusCode).toBe(201);
    }
    const notes = await t.pool.query("select 1 from emails where kind = 'signup_attempt' and to_address = $1", [
      owner.email,
    ]);
    expect(notes.rowCount).toBe(SIGNUP_ATTEMPT_NOTES_PER_DAY);
  });

  it("still refuses a taken username, even with a taken address", async () => {
    const first = await registered();
    const response = await register(t.app, newAccount({ username: first.username, email: first.email }));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: "Username already taken", code: "USERNAME_TAKEN" });
  });

  it("answers two simultaneous sign-ups with one address alike, and makes one account", async () => {
    const email = `race.${randomBytes(4).toString("hex")}@example.co.za`;
    const answers = await Promise.all([0, 1, 2].map(() => register(t.app, newAccount({ email }))));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
    const { rows } = await t.pool.query("select id from users where email = $1", [email]);
    expect(rows).toHaveLength(1);
  });

  it("mails a link at sign-up that proves the address; the account is unconfirmed until it is followed", async () => {
    const account = await registered();
    const cookie = await signedInCookie(account.username, account.password);
    const status = () => t.app.inject({ method: "GET", url: "/api/auth/address", headers: { cookie } });
    expect((await status()).json()).toEqual({ email: account.email, confirmed: false });
    const followed = await confirmAddress(t, account.email);
    expect(followed.statusCode, followed.body).toBe(200);
    expect(followed.json()).toEqual({ message: "Thank you: your e-mail address is confirmed." });
    expect((await status()).json()).toEqual({ email: account.email, confirmed: true });
    // No "your address was changed" notice: nothing changed.
    const notices = await t.pool.query("select 1 from emails where kind = 'account_changed' and to_address = $1", [
      account.email,
    ]);
    expect(notices.rowCount).toBe(0);
    const audit = await t.pool.query(
      "select 1 from audit_log where action = 'user.email_confirmed' and subject_id = $1",
      [account.id],
    );
    expect(audit.rowCount).toBe(1);
  });

  it("lets exactly one of two simultaneous sign-ups with one username through", async () => {
    const username = `race_${randomBytes(4).toString("hex")}`;
    const answers = await Promise.all(
      [0, 1, 2].map(() =>
        register(t.app, newAccount({ username, email: `${randomBytes(4).toString("hex")}@x.co.za` })),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const answer of answers.filter((a) => a.statusCode === 409)) {
      expect(answer.json()).toEqual({ message: "Username already taken", code: "USERNAME_TAKEN" });
    }
  });

  it("refuses a common or leaked password, whatever its case, and creates nothing", async () => {
    for (const password of ["password1", "iloveyou", "IloveYou"]) {
      const account = newAccount({ password });
      const response = await register(t.app, account);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: "This password is too common: it appears in lists of leaked passwords. Choose another.",
        code: "PASSWORD_TOO_COMMON",
      });
      const { rows } = await t.pool.query("select 1 from users where username = $1", [account.username]);
      expect(rows).toEqual([]);
    }
  });

  it("refuses a password shorter than 8 characters and accepts one of 128", async () => {
    const short = await register(t.app, newAccount({ password: "1234567" }));
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ message: "password must be at least 8 characters", code: "VALIDATION_FAILED" });

    const long = "Ubuntu-".repeat(18).slice(0, 128);
    const account = newAccount({ password: long });
    expect((await register(t.app, account)).statusCode).toBe(201);
    expect((await login(t.app, account.username, long)).statusCode).toBe(200);
  });

  it("refuses a missing username, an invalid e-mail and a username with spaces with 400 and a message", async () => {
    const { username: _u, ...noUsername } = newAccount();
    const missing = await register(t.app, noUsername);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ message: "username is required", code: "VALIDATION_FAILED" });

    const badEmail = await register(t.app, newAccount({ email: "not-an-email" }));
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json()).toEqual({ message: "email must be a valid email address", code: "VALIDATION_FAILED" });

    const spaced = await register(t.app, newAccount({ username: "thandi mokoena" }));
    expect(spaced.statusCode).toBe(400);
  });
});

describe("login", () => {
  it("signs in by username, whatever its case, with an httpOnly SameSite=Lax cookie", async () => {
    const account = await registered();
    const response = await login(t.app, account.username.toUpperCase(), account.password);
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json() as object).sort()).toEqual(USER_KEYS);
    expect(response.json()).toMatchObject({ id: account.id, username: account.username, isAdmin: "false" });
    const sid = sidOf(response);
    expect(sid).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(sid?.secure).toBeFalsy();
    expect(sid?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("signs in by e-mail, whatever its case", async () => {
    const account = await registered();
    const response = await login(t.app, account.email.toUpperCase(), account.password);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: account.id });
  });

  it("answers 401 Invalid credentials to a wrong password, with no cookie", async () => {
    const account = await registered();
    const response = await login(t.app, account.username, `${account.password}x`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "Invalid credentials", code: "INVALID_CREDENTIALS" });
    expect(sidOf(response)).toBeUndefined();
  });

  it("answers an unknown user exactly as a wrong password", async () => {
    const response = await login(t.app, `nobody_${randomBytes(4).toString("hex")}`, "whatever-password");
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "Invalid credentials", code: "INVALID_CREDENTIALS" });
  });

  it("takes about as long for an unknown user as for a wrong password", async () => {
    const account = await registered();
    const time = async (username: string) => {
      const started = performance.now();
      const response = await login(t.app, username, "wrong-password-123");
      expect(response.statusCode).toBe(401);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 7; round++) {
      known.push(await time(account.username));
      unknown.push(await time(`ghost_${round}_${randomBytes(3).toString("hex")}`));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it("refuses a login without a password with 400", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: "someone" },
      remoteAddress: nextAddress(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: "password is required", code: "VALIDATION_FAILED" });
  });

  it("issues a new session at each login and ends the one the browser already had", async () => {
    const account = await registered();
    const first = await signedInCookie(account.username, account.password);
    const again = await login(t.app, account.username, account.password, { cookie: first });
    expect(again.statusCode).toBe(200);
    const second = `sid=${sidOf(again)?.value}`;
    expect(second).not.toBe(first);
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
  });

  it("marks the cookie Secure when PUBLIC_URL is https", async () => {
    const secure = await buildTestApp({ PUBLIC_URL: "https://shop.example.co.za", ALLOW_TEST_PAYMENTS: "true" });
    try {
      const account = newAccount();
      expect((await register(secure.app, account)).statusCode).toBe(201);
      const response = await login(secure.app, account.username, account.password);
      const session = response.cookies.find((cookie: ResponseCookie) => cookie.name === "__Host-sid");
      expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax", path: "/" });
    } finally {
      await secure.close();
    }
  });
});

describe("sessions", () => {
  it("answers the signed-in user on /api/auth/me, and 401 without a session", async () => {
    const account = await registered();
    const cookie = await signedInCookie(account.username, account.password);
    const response = await me(cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: account.id, fullName: "Thandi Mokoena" });
    expect(response.headers["cache-control"]).toBe("no-store");

    const anonymous = await me();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: "Not logged in", code: "NOT_LOGGED_IN" });
  });

  it("keeps only the SHA-256 of the session token in the database", async () => {
    const account = await registered();
    const cookie = await signedInCookie(account.username, account.password);
    const token = cookie.slice("sid=".length);
    const { rows } = await t.pool.query<{ token_hash: string }>("select token_hash from sessions where user_id = $1", [
      account.id,
    ]);
    expect(rows).toEqual([{ token_hash: createHash("sha256").update(token).digest("hex") }]);
  });

  it("answers 401 to a made-up or malformed session cookie", async () => {
    expect((await me(`sid=${randomBytes(32).toString("base64url")}`)).statusCode).toBe(401);
    expect((await me("sid=not-a-token")).statusCode).toBe(401);
  });

  it("ends the session on the server at logout, so the old cookie is worthless", async () => {
    const account = await registered();
    const cookie = await signedInCookie(account.username, account.password);
    const logout = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie } });
    expect(logout.statusCode).toBe(204);
    const cleared = sidOf(logout);
    expect(cleared?.value).toBe("");
    expect((await me(cookie)).statusCode).toBe(401);
    const { rowCount } = await t.pool.query("select 1 from sessions where user_id = $1", [account.id]);
    expect(rowCount).toBe(0);
  });

  it("answers 204 to a logout without a session", async () => {
    const response = await t.app.inject({ method: "POST", url: "/api/auth/logout" });
    expect(response.statusCode).toBe(204);
  });

  it("expires a session idle for longer than 7 days and deletes it", async () => {
    const account = await registered();
    const cookie = await signedInCookie(account.username, account.password);
    await t.pool.query("update sessions set last_seen_at = now() - interval '7 days 1 minute' where user_id = $1", [
      account.id,
    ]);
    expect((await me(cookie)).statusCode).toBe(401);
    const { rowCount } = await t.pool.query("select 1 from sessions where user_id = $1", [account.id]);
    expect(rowCount).toBe(0);
  });

  it("keeps a session idle for less than 7 days", async () => {
    const account = await registered();
    const cookie = await signedInCookie(account.username, account.password);
    await t.pool.query("update sessions set last_seen_at = now() - interval '6 days 23 hours' where user_id = $1", [
      account.id,
    ]);
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it("expires a session 30 days after login even when it is in use every day", async () => {
    const account = await registered();
    const cookie = await signedInCookie(account.username, account.password);
    await t.pool.query(
      "update sessions set created_at = now() - interval '30 days 1 minute', last_seen_at = now() - interval '1 hour' where user_id = $1",
      [account.id],
    );
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("takes its idle expiry from SESSION_IDLE_DAYS", async () => {
    const quick = await buildTestApp({ SESSION_IDLE_DAYS: "0.00001" }); // 0.864 seconds
    try {
      const account = newAccount();
      await register(quick.app, account);
      const response = await login(quick.app, account.username, account.password);
      const cookie = `sid=${sidOf(response)?.value}`;
      const meOn = () => quick.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });
      expect((await meOn()).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect((await meOn()).statusCode).toBe(401);
    } finally {
      await quick.close();
    }
  });

  it("records the session's last use at most once a minute, not on every request", async () => {
    const account = await registered();
    const cookie = await signedInCookie(account.username, account.password);
    const lastSeen = async () =>
      (
        await t.pool.query<{ last_seen_at: Date }>("select last_seen_at from sessions where user_id = $1", [account.id])
      ).rows[0]?.last_seen_at.getTime();

    await t.pool.query("update sessions set last_seen_at = now() - interval '30 seconds' where user_id = $1", [
      account.id,
    ]);
    const before = await lastSeen();
    await me(cookie);
    expect(await lastSeen()).toBe(before);

    await t.pool.query("update sessions set last_seen_at = now() - interval '2 minutes' where user_id = $1", [
      account.id,
    ]);
    const stale = await lastSeen();
    await me(cookie);
    expect(await lastSeen()).toBeGreaterThan((stale ?? 0) + 100_000);
  });

  it("ignores x-user-id on public routes and never signs anyone in by it", async () => {
    const account = await registered();
    const products = await t.app.inject({ method: "GET", url: "/api/products", headers: { "x-user-id": account.id } });
    expect(products.statusCode).toBe(200);
    const who = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { "x-user-id": account.id } });
    expect(who.statusCode).toBe(401);
  });
});

describe("rate limits", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: "10", LOGIN_FAILURES_PER_ACCOUNT: "10" });
  });
  afterAll(() => limited.close());

  const attempt = (app: TestApp["app"], username: string, remoteAddress: string) =>
    app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username, password: "guess-password" },
      remoteAddress,
    });

  it("allows 10 login attempts a minute from one address, then answers 429 with Retry-After", async () => {
    const address = "10.2.0.1";
    for (let i = 0; i < 10; i++) {
      expect((await attempt(limited.app, `someone_${i}`, address)).statusCode).toBe(401);
    }
    const refused = await attempt(limited.app, "someone_else", address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: "Too many attempts. Please wait a minute and try again.",
      code: "RATE_LIMITED",
    });
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it("answers wrong passwords for one account from any number of addresses, and shuts out only the networks failing", async () => {
    const target = `victim_${randomBytes(4).toString("hex")}`;
    for (let i = 0; i < 10; i++) {
      expect((await attempt(limited.app, target, `10.3.0.${i + 1}`)).statusCode).toBe(401);
    }
    // Before issue 39 the 11th was 429 from anywhere: strangers could keep the owner out.
    expect((await attempt(limited.app, target.toUpperCase(), "10.3.1.1")).statusCode).toBe(401);
    for (let i = 0; i < 2; i++) await attempt(limited.app, target, "10.3.1.1");
    expect((await attempt(limited.app, target, "10.3.1.1")).statusCode).toBe(429);
    // Another account from a fresh address is not affected.
    expect((await attempt(limited.app, `other_${target}`, "10.3.1.2")).statusCode).toBe(401);
  });

  it("takes the right password from a fresh network while the account is under attack", async () => {
    const account = newAccount();
    expect((await register(limited.app, account, "10.4.0.1")).statusCode).toBe(201);
    for (let i = 0; i < 10; i++) await attempt(limited.app, account.username, `10.4.1.${i + 1}`);
    const response = await limited.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: account.username, password: account.password },
      remoteAddress: "10.4.2.1",
    });
    expect(response.statusCode).toBe(200);
  });

  it("starts counting afresh when the minute is over", async () => {
    const address = "10.5.0.1";
    for (let i = 0; i < 11; i++) await attempt(limited.app, `later_${i}`, address);
    expect((await attempt(limited.app, "later_x", address)).statusCode).toBe(429);
    await limited.pool.query("update rate_limits set reset_at = now() - interval '1 second' where key like $1", [
      `login:ip:${address}`,
    ]);
    expect((await attempt(limited.app, "later_y", address)).statusCode).toBe(401);
  });

  it("limits registrations from one address too", async () => {
    const address = "10.6.0.1";
    for (let i = 0; i < 10; i++) {
      expect((await register(limited.app, newAccount(), address)).statusCode).toBe(201);
    }
    const refused = await register(limited.app, newAccount(), address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
  });

  it("shares the count between two app instances on one database", async () => {
    const config = loadConfig({
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      PUBLIC_URL: "http://localhost:3000",
      SERVE_STATIC: "false",
      AUTH_RATE_LIMIT_PER_MINUTE: "10",
    });
    const { db, pool } = createDatabase(limited.databaseUrl, 2);
    const second = await buildApp({ config, db, pool, databaseUrl: limited.databaseUrl });
    try {
      const address = "10.7.0.1";
      for (let i = 0; i < 10; i++) {
        const app = i % 2 === 0 ? limited.app : second;
        expect((await attempt(app, `shared_${i}`, address)).statusCode).toBe(401);
      }
      expect((await attempt(second, "shared_x", address)).statusCode).toBe(429);
      expect((await attempt(limited.app, "shared_y", address)).statusCode).toBe(429);
    } finally {
      await second.close();
      await pool.end();
    }
  });
});

describe("cross-site requests", () => {
  const post = (headers: Record<string, string>) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: "anyone", password: "anything-at-all" },
      remoteAddress: nextAddress(),
      headers,
    });

  it("refuses a state-changing request from another site's Origin with 403", async () => {
    const response = await post({ origin: "https://evil.example.com" });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: "Cross-site request refused", code: "CROSS_SITE_REFUSED" });
  });

  it("refuses one with an opaque Origin (null)", async () => {
    expect((await post({ origin: "null" })).statusCode).toBe(403);
  });

  it("refuses one whose Referer is another site's when there is no Origin", async () => {
    expect((await post({ referer: "https://evil.example.com/page" })).statusCode).toBe(403);
  });

  it("lets the shop's own pages through, by PUBLIC_URL or by the Host they were sent to", async () => {
    expect((await post({ origin: "http://localhost:3000" })).statusCode).toBe(401);
    expect((await post({ origin: "http://shop.internal:8080", host: "shop.internal:8080" })).statusCode).toBe(401);
    expect((await post({ referer: "http://localhost:3000/checkout" })).statusCode).toBe(401);
  });

  it("lets requests without Origin or Referer through (curl, PayFast's server-to-server notification)", async () => {
    expect((await post({})).statusCode).toBe(401);
    const itn = await t.app.inject({
      method: "POST",
      url: "/api/payfast/notify",
      payload: "m_payment_id=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(itn.statusCode).not.toBe(403);
  });

  it("leaves reads from other sites alone", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/products",
      headers: { origin: "https://evil.example.com" },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe("security headers", () => {
  it("sends pages a CSP without inline script that forbids framing, plus no-sniff and a referrer policy", async () => {
    const response = await t.app.inject({ method: "GET", url: "/no-such-page" });
    const csp = String(response.headers["content-security-policy"]);
    const directives = new Map(
      csp.split(";").map((part) => {
        const [name = "", ...values] = part.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get("default-src")).toEqual(["'self'"]);
    expect(directives.get("script-src")).toEqual(["'self'"]);
    expect(directives.get("script-src-attr")).toEqual(["'none'"]);
    expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-frame-options"]).toBe("DENY");
    expect(response.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(response.headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(response.headers["strict-transport-security"]).toBeUndefined();
  });

  it("sends API answers, whatever their status, the headers that protect JSON: nothing may load, run or frame it", async () => {
    for (const [method, url] of [
      ["GET", "/api/health"],
      ["GET", "/api/products"],
      ["GET", "/api/no-such-thing"],
      ["GET", "/api/auth/me"],
      ["POST", "/api/auth/login"],
    ] as const) {
      const response = await t.app.inject({ method, url, ...(method === "POST" ? { payload: {} } : {}) });
      expect(response.headers["content-security-policy"], `${method} ${url}`).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(response.headers["x-content-type-options"], `${method} ${url}`).toBe("nosniff");
      expect(response.headers["x-frame-options"], `${method} ${url}`).toBe("DENY");
      expect(response.headers["cross-origin-resource-policy"], `${method} ${url}`).toBe("same-origin");
      expect(response.headers["x-request-id"], `${method} ${url}`).toMatch(/^[\w-]+$/);
      expect(response.headers["strict-transport-security"], `${method} ${url}`).toBeUndefined();
    }
  });

  it("adds HSTS to pages and API answers, and upgrade-insecure-requests to pages, when PUBLIC_URL is https", async () => {
    const secure = await buildTestApp({ PUBLIC_URL: "https://shop.example.co.za", ALLOW_TEST_PAYMENTS: "true" });
    try {
      const page = await secure.app.inject({ method: "GET", url: "/no-such-page" });
      expect(page.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      expect(String(page.headers["content-security-policy"])).toContain("upgrade-insecure-requests");
      const api = await secure.app.inject({ method: "GET", url: "/api/health" });
      expect(api.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    } finally {
      await secure.close();
    }
  });
});

describe("the signed-in hint cookie", () => {
  it("is set readable beside the session cookie at login and cleared at logout, granting nothing", async () => {
    const account = await registered();
    const response = await login(t.app, account.username, account.password);
    const hint = response.cookies.find((cookie: ResponseCookie) => cookie.name === "signed_in");
    expect(hint).toMatchObject({ value: "1", sameSite: "Lax", path: "/" });
    expect(hint?.httpOnly).not.toBe(true);
    expect(sidOf(response)?.httpOnly).toBe(true);

    // The hint alone is not a session.
    expect((await me("signed_in=1")).statusCode).toBe(401);

    const cookie = `sid=${sidOf(response)?.value}`;
    const logout = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: { cookie } });
    const cleared = logout.cookies.find((c: ResponseCookie) => c.name === "signed_in");
    expect(cleared?.value).toBe("");
  });
});
