import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FORGOT_PASSWORD_MESSAGE,
  PASSWORD_RESET_MESSAGE,
  RESET_LINK_INVALID_MESSAGE,
} from "#server/auth/password-reset.js";
import { buildTestApp, capturedText, type TestApp } from "../helpers/app.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A distinct client address per request, so no test spends another's budget. */
let addressCounter = 1;
const nextAddress = () => `10.40.${Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

const forgot = (app: TestApp["app"], email: string, remoteAddress = nextAddress()) =>
  app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email }, remoteAddress });

const reset = (token: string, password: string, cookie?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/reset-password",
    payload: { token, password },
    remoteAddress: nextAddress(),
    headers: cookie ? { cookie } : {},
  });

const login = (username: string, password: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { username, password },
    remoteAddress: nextAddress(),
  });

const me = (cookie: string) => t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });

const strongPassword = () => `new soft towels ${randomBytes(4).toString("hex")}`;

/**
 * Sends what is due (no SMTP in tests: the message is captured) and reads the newest reset link
 * mailed to `email` from MAIL_CAPTURE_DIR, where the shop writes captured messages in full (the
 * outbox keeps them without the link). The jobs engine may be delivering it at the same moment,
 * so wait for it to be captured.
 */
async function mailedResetToken(email: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    await t.app.mail.deliverDue();
    const { rows } = await t.pool.query<{ id: string; status: string }>(
      `select id, status from emails where kind = 'password_reset' and to_address = $1 order by id desc limit 1`,
      [email],
    );
    const captured = rows[0]?.status === "captured" ? await capturedText(t, rows[0].id).catch(() => "") : "";
    const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(captured)?.[1];
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no reset link was mailed to ${email}`);
}

async function requestResetLink(user: LoggedInUser): Promise<string> {
  expect((await forgot(t.app, user.user.email)).statusCode).toBe(202);
  return mailedResetToken(user.user.email);
}

const count = async (query: string, values: unknown[]) =>
  Number((await t.pool.query<{ n: string }>(`select count(*) as n from (${query}) q`, values)).rows[0]?.n);

describe("POST /api/auth/forgot-password", () => {
  it("answers an unknown and a known address with the same 202 and body", async () => {
    const customer = await registerAndLogin(t);
    const known = await forgot(t.app, customer.user.email.toUpperCase());
    const unknown = await forgot(t.app, `nobody.${randomBytes(4).toString("hex")}@example.co.za`);
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    expect(unknown.body).toBe(known.body);
    expect(known.headers["cache-control"]).toBe("no-store");
    expect(unknown.headers["cache-control"]).toBe("no-store");
  });

  it("writes a reset request and its message for a known address only, never a token", async () => {
    const customer = await registerAndLogin(t, { fullName: "Ayanda Zulu" });
    await forgot(t.app, customer.user.email);
    const { rows: resets } = await t.pool.query(
      "select id, token_hash, expires_at, used_at from password_resets where user_id = $1",
      [customer.user.id],
    );
    // The token is made only when the message is sent (the mail job may already have sent it):
    // the row holds at most its SHA-256, never the token.
    expect(resets).toEqual([
      {
        id: expect.any(String),
        token_hash: expect.toSatisfy((hash) => hash === null || /^[0-9a-f]{64}$/.test(hash)),
        expires_at: expect.toSatisfy((at) => at === null || at instanceof Date),
        used_at: null,
      },
    ]);
    const { rows: mails } = await t.pool.query(
      "select kind, event_key, to_address, status, data from emails where kind = 'password_reset' and to_address = $1",
      [customer.user.email],
    );
    expect(mails).toEqual([
      {
        kind: "password_reset",
        event_key: resets[0].id,
        to_address: customer.user.email,
        status: expect.toSatisfy((status) => status === "queued" || status === "captured"),
        // No name: a reset message greets nobody by name.
        data: { resetId: resets[0].id },
      },
    ]);

    const stranger = `nobody.${randomBytes(4).toString("hex")}@example.co.za`;
    await forgot(t.app, stranger);
    expect(await count("select 1 from emails where to_address = $1", [stranger])).toBe(0);
  });

  it("refuses an address that is not an e-mail address with 400", async () => {
    const response = await forgot(t.app, "not-an-address");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: "email must be a valid email address", code: "VALIDATION_FAILED" });
  });

  it("sends at most 3 links a minute to one address, known or not, from any number of networks", async () => {
    const customer = await registerAndLogin(t);
    const stranger = `nobody.${randomBytes(4).toString("hex")}@example.co.za`;
    for (const email of [customer.user.email, stranger]) {
      for (let i = 0; i < 3; i++) expect((await forgot(t.app, email)).statusCode).toBe(202);
      const refused = await forgot(t.app, email.toUpperCase());
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: "RATE_LIMITED" });
      expect(refused.headers["retry-after"]).toBeDefined();
    }
    expect(await count("select 1 from password_resets where user_id = $1", [customer.user.id])).toBe(3);
  });

  it("limits one network to AUTH_RATE_LIMIT_PER_MINUTE requests a minute", async () => {
    const limited = await buildTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: "5" });
    try {
      const address = "10.41.0.1";
      for (let i = 0; i < 5; i++) {
        expect((await forgot(limited.app, `someone.${i}@example.co.za`, address)).statusCode).toBe(202);
      }
      expect((await forgot(limited.app, "someone.else@example.co.za", address)).statusCode).toBe(429);
      expect((await forgot(limited.app, "someone.else@example.co.za", "10.41.0.2")).statusCode).toBe(202);
    } finally {
      await limited.close();
    }
  });
});

describe("daily caps on reset mail (issue 39)", () => {
  /** Ends this minute's window for `email`, as a minute passing would: the daily cap is what is left. */
  const nextMinute = (email: string) =>
    t.pool.query("update rate_limits set reset_at = now() - interval '1 second' where key = $1", [
      `forgot-password:account:${email.toLowerCase()}`,
    ]);
  const resetMails = (email: string) =>
    count("select 1 from emails where kind = 'password_reset' and lower(to_address) = lower($1)", [email]);

  it("sends 5 links a day to one address; the sixth request sends nothing and is answered the same", async () => {
    const customer = await registerAndLogin(t);
    const answers: { statusCode: number; body: string }[] = [];
    for (let i = 0; i < 6; i++) {
      await nextMinute(customer.user.email);
      answers.push(await forgot(t.app, i % 2 ? customer.user.email.toUpperCase() : customer.user.email));
      if (i === 4) expect(await resetMails(customer.user.email)).toBe(5);
    }
    for (const answer of answers) {
      expect(answer.statusCode).toBe(202);
      expect(answer.body).toBe(answers[0]?.body);
    }
    expect(await resetMails(customer.user.email)).toBe(5);
    expect(await count("select 1 from password_resets where user_id = $1", [customer.user.id])).toBe(5);
  });

  it("answers the sixth request for an address nobody has exactly as for a customer's", async () => {
    const customer = await registerAndLogin(t);
    const stranger = `nobody.${randomBytes(4).toString("hex")}@example.co.za`;
    const sixth: Record<string, { statusCode: number; body: string; headers: Record<string, unknown> }> = {};
    for (const email of [customer.user.email, stranger]) {
      for (let i = 0; i < 5; i++) {
        await nextMinute(email);
        expect((await forgot(t.app, email)).statusCode).toBe(202);
      }
      await nextMinute(email);
      sixth[email] = await forgot(t.app, email);
    }
    const [known, unknown] = [sixth[customer.user.email], sixth[stranger]];
    expect(known?.statusCode).toBe(202);
    expect(unknown?.statusCode).toBe(202);
    expect(unknown?.body).toBe(known?.body);
    expect(unknown?.headers["retry-after"]).toBeUndefined();
    expect(known?.headers["retry-after"]).toBeUndefined();
  });

  it("sends again once the address's day is over", async () => {
    const customer = await registerAndLogin(t);
    for (let i = 0; i < 6; i++) {
      await nextMinute(customer.user.email);
      await forgot(t.app, customer.user.email);
    }
    await t.pool.query("update rate_limits set reset_at = now() - interval '1 second' where key = $1", [
      `forgot-password-day:account:${customer.user.email.toLowerCase()}`,
    ]);
    await nextMinute(customer.user.email);
    expect((await forgot(t.app, customer.user.email)).statusCode).toBe(202);
    expect(await resetMails(customer.user.email)).toBe(6);
  });

  it("takes 20 requests a day from one network and refuses the 21st with 429, whatever the address", async () => {
    const limited = await buildTestApp({ RESETS_PER_NETWORK_PER_DAY: "20" });
    try {
      const network = "2001:db8:5e7:1::1";
      for (let i = 0; i < 20; i++) {
        const address = `2001:db8:5e7:1::${(i + 1).toString(16)}`;
        expect((await forgot(limited.app, `someone.${i}@example.co.za`, address)).statusCode).toBe(202);
      }
      const refused = await forgot(limited.app, "someone.else@example.co.za", network);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        message: expect.stringMatching(/from your network today/),
        code: "RATE_LIMITED",
      });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(23 * 3600);
      expect((await forgot(limited.app, "someone.else@example.co.za", "2001:db8:5e7:2::1")).statusCode).toBe(202);
    } finally {
      await limited.close();
    }
  });
});

describe("POST /api/auth/reset-password", () => {
  it("sets the new password with the mailed link, once", async () => {
    const customer = await registerAndLogin(t);
    const token = await requestResetLink(customer);
    const newPassword = strongPassword();

    const response = await reset(token, newPassword);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: PASSWORD_RESET_MESSAGE });
    expect((await login(customer.user.username, newPassword)).statusCode).toBe(200);
    expect((await login(customer.user.username, customer.password)).statusCode).toBe(401);

    const again = await reset(token, strongPassword());
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: RESET_LINK_INVALID_MESSAGE, code: "RESET_LINK_INVALID" });
    expect((await login(customer.user.username, newPassword)).statusCode).toBe(200);
  });

  it("stores only the token's SHA-256, valid for 30 minutes from sending", async () => {
    const customer = await registerAndLogin(t);
    const token = await requestResetLink(customer);
    const { rows } = await t.pool.query<{ token_hash: string; minutes: number }>(
      `select token_hash, round(extract(epoch from expires_at - now()) / 60)::int as minutes
       from password_resets where user_id = $1`,
      [customer.user.id],
    );
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.token_hash).not.toContain(token);
    expect(rows[0]?.minutes).toBe(30);
  });

  it("refuses an expired link and changes nothing", async () => {
    const customer = await registerAndLogin(t);
    const token = await requestResetLink(customer);
    await t.pool.query("update password_resets set expires_at = now() - interval '1 second' where user_id = $1", [
      customer.user.id,
    ]);
    const response = await reset(token, strongPassword());
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: RESET_LINK_INVALID_MESSAGE, code: "RESET_LINK_INVALID" });
    expect((await login(customer.user.username, customer.password)).statusCode).toBe(200);
  });

  it("refuses a made-up token and a missing one", async () => {
    const madeUp = await reset(randomBytes(32).toString("base64url"), strongPassword());
    expect(madeUp.statusCode).toBe(400);
    expect(madeUp.json()).toMatchObject({ code: "RESET_LINK_INVALID" });
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      payload: { password: strongPassword() },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ message: "token is required", code: "VALIDATION_FAILED" });
  });

  it("ends every session of the account, on every device", async () => {
    const customer = await registerAndLogin(t);
    const phone = await login(customer.user.username, customer.password);
    const phoneCookie = `sid=${phone.cookies.find((cookie) => cookie.name === "sid")?.value}`;
    expect((await me(customer.cookie)).statusCode).toBe(200);
    expect((await me(phoneCookie)).statusCode).toBe(200);

    const token = await requestResetLink(customer);
    // Reset from the signed-in laptop: its cookie is cleared in the answer too.
    const response = await reset(token, strongPassword(), customer.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((cookie) => cookie.name === "sid")?.value).toBe("");

    expect((await me(customer.cookie)).statusCode).toBe(401);
    expect((await me(phoneCookie)).statusCode).toBe(401);
    expect(await count("select 1 from sessions where user_id = $1", [customer.user.id])).toBe(0);
  });

  it("refuses a common or short new password and leaves the link working", async () => {
    const customer = await registerAndLogin(t);
    const token = await requestResetLink(customer);
    for (const password of ["password1", "iloveyou", "ILoveYou"]) {
      const refused = await reset(token, password);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        message: "This password is too common: it appears in lists of leaked passwords. Choose another.",
        code: "PASSWORD_TOO_COMMON",
      });
    }
    const short = await reset(token, "Xq7#vL2");
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ message: "password must be at least 8 characters", code: "VALIDATION_FAILED" });

    expect((await login(customer.user.username, customer.password)).statusCode).toBe(200);
    expect((await reset(token, strongPassword())).statusCode).toBe(200);
  });

  it("writes an account_changed notice to the account's address", async () => {
    const customer = await registerAndLogin(t, { fullName: "Sipho Ndlovu" });
    const token = await requestResetLink(customer);
    await reset(token, strongPassword());
    const { rows } = await t.pool.query(
      "select to_address, event_key, data from emails where kind = 'account_changed' and to_address = $1",
      [customer.user.email],
    );
    expect(rows).toEqual([
      {
        to_address: customer.user.email,
        event_key: expect.stringMatching(/^password:[0-9a-f-]{36}$/),
        // Following the link proved the address, so this notice may greet by name.
        data: {
          name: "Sipho Ndlovu",
          change: "password",
          newEmail: null,
          changedAt: expect.any(String),
          greetByName: true,
        },
      },
    ]);
  });

  it("lets exactly one of two simultaneous uses of a link through", async () => {
    const customer = await registerAndLogin(t);
    const token = await requestResetLink(customer);
    const answers = await Promise.all([reset(token, strongPassword()), reset(token, strongPassword())]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
  });

  it("stops every other link of the account once one is used", async () => {
    const customer = await registerAndLogin(t);
    const first = await requestResetLink(customer);
    const second = await requestResetLink(customer);
    expect(first).not.toBe(second);
    expect((await reset(second, strongPassword())).statusCode).toBe(200);
    expect((await reset(first, strongPassword())).json()).toMatchObject({ code: "RESET_LINK_INVALID" });
  });
});

describe("reset links and admins", () => {
  it("an admin reads a reset message without its link, and Resend mails a fresh link that stops the old one", async () => {
    const admin = await registerAndLogin(t, { admin: true });
    const victim = await registerAndLogin(t);
    const firstToken = await requestResetLink(victim);
    const { rows } = await t.pool.query<{ id: string }>(
      "select id from emails where kind = 'password_reset' and to_address = $1 order by id desc limit 1",
      [victim.user.email],
    );
    const id = rows[0]?.id as string;
    const asAdmin = (method: "GET" | "POST", url: string) => t.app.inject({ method, url, headers: admin.headers });

    const message = await asAdmin("GET", `/api/admin/emails/${id}`);
    expect(message.statusCode).toBe(200);
    const { text, html } = message.json() as { text: string; html: string };
    const framed = (await asAdmin("GET", `/api/admin/emails/${id}/html`)).body;
    for (const body of [text, html, framed]) {
      expect(body).not.toContain(firstToken);
      expect(body).not.toMatch(/reset-password\?token=/);
    }
    expect(text).toContain("[reset link, not kept: use Resend to send a new one]");
    const stored = await t.pool.query("select html, text_body, data from emails where id = $1", [id]);
    expect(JSON.stringify(stored.rows[0])).not.toContain(firstToken);

    expect((await asAdmin("POST", `/api/admin/emails/${id}/resend`)).statusCode).toBe(200);
    const secondToken = await mailedResetToken(victim.user.email);
    expect(secondToken).not.toBe(firstToken);
    expect((await reset(firstToken, strongPassword())).json()).toMatchObject({ code: "RESET_LINK_INVALID" });
    expect((await reset(secondToken, strongPassword())).statusCode).toBe(200);
  });
});

describe("phishing through the shop's mail", () => {
  it("a sign-up whose 'full name' is a lure produces a reset mail without that text", async () => {
    const lure = "Your account is locked, verify at https://evil.example";
    const victim = `victim-${randomBytes(4).toString("hex")}@example.co.za`;
    await registerAndLogin(t, { email: victim, fullName: lure });
    expect((await forgot(t.app, victim)).statusCode).toBe(202);
    await mailedResetToken(victim);
    const { rows } = await t.pool.query<{ id: string; data: unknown; html: string; text_body: string }>(
      "select id, data, html, text_body from emails where kind = 'password_reset' and to_address = $1",
      [victim],
    );
    const full = await capturedText(t, rows[0]?.id as string);
    for (const part of [full, rows[0]?.html, rows[0]?.text_body, JSON.stringify(rows[0]?.data)]) {
      expect(part).not.toContain("locked");
      expect(part).not.toContain("evil");
    }
    expect(full).toContain("Hello,");
  });
});
