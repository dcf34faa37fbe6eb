import { sql } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { auditRecords } from "../helpers/audit.js";
import { LIVE_SELLER, LIVE_TOTP_KEY } from "../helpers/live-seller.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

// The default step-up window (10 minutes); a code "older than the window" is made so by moving the
// session's last code back in time, not by waiting, so a slow machine cannot age a fresh one.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_STEP_UP_MINUTES: "10" });
});
afterAll(() => t.close());

const now = () => Math.floor(Date.now() / 1000);
/** The code of this 30-second step (`steps` = 0), or of the next one (1): the shop takes one step of drift. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: now() + steps * 30 });
/** Makes every session's last second-factor code of this user older than the step-up window. */
async function ageLastCode(userId: string) {
  await t.db.execute(
    sql`update sessions set second_factor_at = now() - interval '11 minutes' where user_id = ${userId} and second_factor_at is not null`,
  );
}

function login(username: string, password: string, code?: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { username, password, ...(code === undefined ? {} : { code }) },
  });
}

const cookieOf = (response: Awaited<ReturnType<typeof login>>) => {
  const sid = response.cookies.find((cookie) => cookie.name === t.app.config.session.cookieName);
  return sid ? `${sid.name}=${sid.value}` : null;
};

/** Enrols `admin` through the API as the profile page does; answers the secret and the recovery codes. */
async function enrol(admin: LoggedInUser) {
  const setup = await t.app.inject({ method: "POST", url: "/api/auth/2fa/setup", headers: admin.headers });
  expect(setup.statusCode).toBe(200);
  const { secret, uri, qrCode } = setup.json() as { secret: string; uri: string; qrCode: string };
  expect(uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
  expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(Buffer.from(qrCode.split(",")[1] as string, "base64").toString()).toContain("<svg");

  const wrong = await t.app.inject({
    method: "POST",
    url: "/api/auth/2fa/enable",
    headers: admin.headers,
    payload: { code: (Number(await codeAt(secret)) ^ 1).toString().padStart(6, "0") },
  });
  expect(wrong.statusCode).toBe(401);
  expect(wrong.json().code).toBe("SECOND_FACTOR_WRONG");

  const enabled = await t.app.inject({
    method: "POST",
    url: "/api/auth/2fa/enable",
    headers: admin.headers,
    payload: { code: await codeAt(secret) },
  });
  expect(enabled.statusCode).toBe(200);
  const { recoveryCodes } = enabled.json() as { recoveryCodes: string[] };
  expect(recoveryCodes).toHaveLength(10);
  expect(new Set(recoveryCodes).size).toBe(10);
  return { secret, recoveryCodes };
}

describe("an admin's second factor", () => {
  it("enrols, then asks every login for a code: missing, wrong and replayed codes are refused", async () => {
    const admin = await registerAndLogin(t, { admin: true });
    const { secret, recoveryCodes } = await enrol(admin);
    const status = await t.app.inject({ method: "GET", url: "/api/auth/2fa", headers: admin.headers });
    expect(status.json()).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
    // Only hashes are stored.
    const stored = await t.pool.query("select code_hash from recovery_codes where user_id = $1", [admin.user.id]);
    expect(JSON.stringify(stored.rows)).not.toContain(recoveryCodes[0]);

    const { username } = admin.user;
    const noCode = await login(username, admin.password);
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json()).toEqual({
      code: "SECOND_FACTOR_REQUIRED",
      message: "Enter the 6-digit code from your authenticator app.",
    });
    expect(cookieOf(noCode)).toBeNull();

    const wrong = await login(username, admin.password, "000000");
    expect(wrong.json().code).toBe("SECOND_FACTOR_WRONG");
    expect(cookieOf(wrong)).toBeNull();
    // A wrong password with a right code is still just a wrong password.
    expect((await login(username, "not-the-password", await codeAt(secret, 1))).json().code).toBe(
      "INVALID_CREDENTIALS",
    );

    const code = await codeAt(secret, 1);
    const signedIn = await login(username, admin.password, code);
    expect(signedIn.statusCode).toBe(200);
    expect(cookieOf(signedIn)).not.toBeNull();
    // The same code again (someone watching over a shoulder): refused.
    expect((await login(username, admin.password, code)).json().code).toBe("SECOND_FACTOR_WRONG");

    const failures = (await auditRecords(t, "auth.second_factor_failed")).filter(
      (row) => row.actor_id === admin.user.id,
    );
    expect(failures.length).toBeGreaterThanOrEqual(1);
  });

  it("takes each recovery code once", async () => {
    const admin = await registerAndLogin(t, { admin: true });
    const { recoveryCodes } = await enrol(admin);
    const [first] = recoveryCodes as [string];
    expect((await login(admin.user.username, admin.password, first.toUpperCase())).statusCode).toBe(200);
    expect((await login(admin.user.username, admin.password, first)).json().code).toBe("SECOND_FACTOR_WRONG");
    const status = await t.app.inject({ method: "GET", url: "/api/auth/2fa", headers: admin.headers });
    expect(status.json()).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it("asks for a fresh code before a refund, the exports, making an admin, resetting another's and turning it off", async () => {
    const admin = await registerAndLogin(t, { admin: true });
    const customer = await registerAndLogin(t);
    const lost = await registerAndLogin(t, { admin: true });
    await enrol(lost);
    const { secret, recoveryCodes } = await enrol(admin);
    const signedIn = await login(admin.user.username, admin.password, await codeAt(secret, 1));
    const headers = { cookie: cookieOf(signedIn) as string };
    await ageLastCode(admin.user.id);

    const unknownOrder = "00000000-0000-4000-8000-000000000026";
    const asks = {
      refund: () =>
        t.app.inject({
          method: "POST",
          url: `/api/admin/orders/${unknownOrder}/refund`,
          headers,
          payload: { amountCents: 100, reason: "Damaged", restock: false },
        }),
      exportCsv: () => t.app.inject({ method: "GET", url: "/api/admin/orders.csv", headers }),
      // The complaints register: every complainant's name, e-mail and words.
      registerCsv: () => t.app.inject({ method: "GET", url: "/api/admin/returns/register.csv", headers }),
      makeAdmin: () =>
        t.app.inject({
          method: "PATCH",
          url: `/api/admin/users/${customer.user.id}`,
          headers,
          payload: { isAdmin: true },
        }),
      // Turning another admin's second factor off (a lost phone) strips their protection.
      resetOther: () =>
        t.app.inject({ method: "POST", url: `/api/admin/users/${lost.user.id}/second-factor/reset`, headers }),
    };
    for (const ask of Object.values(asks)) {
      const refused = await ask();
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe("STEP_UP_REQUIRED");
    }
    // Reading is not stepped up.
    expect((await t.app.inject({ method: "GET", url: "/api/admin/orders", headers })).statusCode).toBe(200);

    const badStepUp = await t.app.inject({
      method: "POST",
      url: "/api/auth/2fa/verify",
      headers,
      payload: { code: "123456" },
    });
    expect(badStepUp.json().code).toBe("SECOND_FACTOR_WRONG");
    const stepUp = await t.app.inject({
      method: "POST",
      url: "/api/auth/2fa/verify",
      headers,
      payload: { code: recoveryCodes[0] },
    });
    expect(stepUp.statusCode).toBe(204);
    // Fresh now: the refund goes on to its own answer (no such order), the others through.
    expect((await asks.refund()).statusCode).toBe(404);
    expect((await asks.exportCsv()).statusCode).toBe(200);
    expect((await asks.registerCsv()).statusCode).toBe(200);
    expect((await asks.makeAdmin()).statusCode).toBe(200);
    expect((await asks.resetOther()).statusCode).toBe(204);
    expect(await auditRecords(t, "auth.second_factor_reset", lost.user.id)).toHaveLength(1);
    await ageLastCode(admin.user.id);
    expect((await asks.refund()).json().code).toBe("STEP_UP_REQUIRED");

    // Turning it off needs a right code too.
    const off = (code: string) =>
      t.app.inject({ method: "POST", url: "/api/auth/2fa/disable", headers, payload: { code } });
    expect((await off("999999")).json().code).toBe("SECOND_FACTOR_WRONG");
    expect((await off(recoveryCodes[1] as string)).statusCode).toBe(204);
    expect((await login(admin.user.username, admin.password)).statusCode).toBe(200);
    expect(await auditRecords(t, "auth.second_factor_disabled", admin.user.id)).toHaveLength(1);
  });

  it("another admin resets a lost phone: the admin's sessions end, it is audited, and they log in without a code", async () => {
    const lost = await registerAndLogin(t, { admin: true });
    const helper = await registerAndLogin(t, { admin: true });
    await enrol(lost);
    const reset = await t.app.inject({
      method: "POST",
      url: `/api/admin/users/${lost.user.id}/second-factor/reset`,
      headers: helper.headers,
    });
    expect(reset.statusCode).toBe(204);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: lost.headers })).statusCode).toBe(401);
    expect((await login(lost.user.username, lost.password)).statusCode).toBe(200);
    const [record] = await auditRecords(t, "auth.second_factor_reset", lost.user.id);
    expect(record).toMatchObject({ actor_id: helper.user.id, after: { enabled: false, sessionsEnded: 1 } });
    const self = await t.app.inject({
      method: "POST",
      url: `/api/admin/users/${helper.user.id}/second-factor/reset`,
      headers: helper.headers,
    });
    expect(self.statusCode).toBe(409);
  });
});

/** What live mode needs to start (as payfast-outcomes.test.ts gives it), without ADMIN_2FA. */
const LIVE: Record<string, string> = {
  PAYFAST_MODE: "live",
  PUBLIC_URL: "https://shop.example.co.za",
  PAYFAST_MERCHANT_ID: "10012345",
  PAYFAST_MERCHANT_KEY: "q1cd2rdny4a53",
  PAYFAST_PASSPHRASE: "a long and secret passphrase",
  SMTP_URL: "smtps://shop:mail-secret@mail.example.co.za:465",
  ...LIVE_SELLER,
  ...LIVE_TOTP_KEY,
};

describe("ADMIN_2FA=required", () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await buildTestApp({ ADMIN_2FA: "required" }, {}, t.databaseUrl);
  });
  afterAll(() => strict.close());

  it("keeps the admin panel shut until the admin enrols, and leaves enrolment open", async () => {
    const admin = await registerAndLogin(strict, { admin: true });
    const panel = await strict.app.inject({ method: "GET", url: "/api/admin/orders", headers: admin.headers });
    expect(panel.statusCode).toBe(403);
    expect(panel.json().code).toBe("SECOND_FACTOR_ENROLMENT_REQUIRED");
    const setup = await strict.app.inject({ method: "POST", url: "/api/auth/2fa/setup", headers: admin.headers });
    const { secret } = setup.json() as { secret: string };
    const enabled = await strict.app.inject({
      method: "POST",
      url: "/api/auth/2fa/enable",
      headers: admin.headers,
      payload: { code: await codeAt(secret) },
    });
    expect(enabled.statusCode).toBe(200);
    const open = await strict.app.inject({ method: "GET", url: "/api/admin/orders", headers: admin.headers });
    expect(open.statusCode).toBe(200);
  });

  it("is the default in live mode only", async () => {
    const { loadConfig } = await import("#server/config.js");
    expect(loadConfig({}).adminSecondFactor.required).toBe(false);
    expect(loadConfig({ PAYFAST_MODE: "sandbox" }).adminSecondFactor.required).toBe(false);
    expect(loadConfig({ ADMIN_2FA: "required" }).adminSecondFactor.required).toBe(true);
    // Live mode with everything it needs, and no ADMIN_2FA: required; an explicit optional still wins.
    expect(loadConfig(LIVE).adminSecondFactor.required).toBe(true);
    expect(loadConfig({ ...LIVE, ADMIN_2FA: "" }).adminSecondFactor.required).toBe(true);
    expect(loadConfig({ ...LIVE, ADMIN_2FA: "optional" }).adminSecondFactor.required).toBe(false);
  });
});
