import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, TEST_TOTP_KEY, type TestApp } from "../helpers/app.js";
import { auditRecords } from "../helpers/audit.js";
import { LIVE_COURIER, LIVE_SELLER, LIVE_TOTP_KEY } from "../helpers/live-seller.js";
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
      // A corrected invoice is a tax document, as a refund's credit note is.
      correctInvoice: () =>
        t.app.inject({
          method: "POST",
          url: `/api/admin/orders/${unknownOrder}/invoice/corrections`,
          headers,
          payload: { reason: "Buyer's company name", companyName: "Mokoena Care Homes" },
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
    expect((await asks.correctInvoice()).statusCode).toBe(404);
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

describe("wrong codes lock the authenticator codes", () => {
  const wrongCode = async (secret: string) => {
    const valid = new Set(await Promise.all([-1, 0, 1].map((steps) => codeAt(secret, steps))));
    for (let n = 0; ; n++) {
      const candidate = String(n).padStart(6, "0");
      if (!valid.has(candidate)) return candidate;
    }
  };

  it("counts wrong codes in a row: the 10th locks codes for 15 minutes and e-mails the owner, the 11th is refused even when right, recovery codes still work", async () => {
    const admin = await registerAndLogin(t, { admin: true });
    const { secret, recoveryCodes } = await enrol(admin);
    const wrong = await wrongCode(secret);
    const { username } = admin.user;

    // Nine wrong codes, then a right one (a recovery code): the count starts again.
    for (let n = 1; n <= 9; n++)
      expect((await login(username, admin.password, wrong)).json().code).toBe("SECOND_FACTOR_WRONG");
    expect((await login(username, admin.password, recoveryCodes[0])).statusCode).toBe(200);

    for (let n = 1; n <= 9; n++)
      expect((await login(username, admin.password, wrong)).json().code).toBe("SECOND_FACTOR_WRONG");
    const lockNotices = () =>
      t.pool.query(
        "select to_address from emails where kind = 'account_changed' and data->>'change' = 'second_factor_locked' and to_address = $1",
        [admin.user.email],
      );
    expect((await lockNotices()).rows).toHaveLength(0);
    // The 10th wrong code is still answered as wrong, and locks.
    const tenth = await login(username, admin.password, wrong);
    expect(tenth.statusCode).toBe(401);
    expect(tenth.json().code).toBe("SECOND_FACTOR_WRONG");
    expect((await lockNotices()).rows).toEqual([{ to_address: admin.user.email }]);
    const [row] = (
      await t.pool.query<{ minutes: number }>(
        "select extract(epoch from totp_locked_until - now()) / 60 as minutes from users where id = $1",
        [admin.user.id],
      )
    ).rows;
    expect(Number(row?.minutes)).toBeGreaterThan(14.5);
    expect(Number(row?.minutes)).toBeLessThanOrEqual(15);
    expect(await auditRecords(t, "auth.second_factor_locked", admin.user.id)).toHaveLength(1);

    // The 11th: the right code of the next step (never used), refused while locked.
    const eleventh = await login(username, admin.password, await codeAt(secret, 1));
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json().code).toBe("SECOND_FACTOR_LOCKED");
    expect(Number(eleventh.headers["retry-after"])).toBeGreaterThan(14 * 60);
    expect(cookieOf(eleventh)).toBeNull();
    // A wrong password is still just a wrong password: the lock tells nothing to who lacks it.
    expect((await login(username, "not-the-password", wrong)).json().code).toBe("INVALID_CREDENTIALS");

    // Recovery codes still work during the lock (and a right one lifts it).
    const recovered = await login(username, admin.password, recoveryCodes[1]);
    expect(recovered.statusCode).toBe(200);
    expect((await login(username, admin.password, await codeAt(secret, 1))).statusCode).toBe(200);
  });

  it("counts the step-up's wrong codes too, and answers a locked step-up 429", async () => {
    const admin = await registerAndLogin(t, { admin: true });
    const { secret } = await enrol(admin);
    const wrong = await wrongCode(secret);
    const verify = (code: string) =>
      t.app.inject({ method: "POST", url: "/api/auth/2fa/verify", headers: admin.headers, payload: { code } });
    for (let n = 1; n <= 10; n++) expect((await verify(wrong)).json().code).toBe("SECOND_FACTOR_WRONG");
    const locked = await verify(await codeAt(secret, 1));
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe("SECOND_FACTOR_LOCKED");
  });
});

describe("enrolling a second factor", () => {
  it("ends the admin's other sessions and keeps this one", async () => {
    const admin = await registerAndLogin(t, { admin: true });
    const elsewhere = cookieOf(await login(admin.user.username, admin.password)) as string;
    const me = (cookie: string) => t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } });
    expect((await me(elsewhere)).statusCode).toBe(200);
    await enrol(admin);
    expect((await me(elsewhere)).statusCode).toBe(401);
    expect((await me(admin.cookie)).statusCode).toBe(200);
    const [record] = await auditRecords(t, "auth.second_factor_enabled", admin.user.id);
    expect(record?.after).toMatchObject({ otherSessionsEnded: 1 });
  });
});

describe("TOTP secrets at rest", () => {
  const storedSecret = async (db: TestApp, userId: string) =>
    (await db.pool.query<{ totp_secret: string }>("select totp_secret from users where id = $1", [userId])).rows[0]
      ?.totp_secret ?? "";

  it("stores the secret sealed with TOTP_ENCRYPTION_KEY: the column is not the secret, and a backup alone holds no working factor", async () => {
    const admin = await registerAndLogin(t, { admin: true });
    const { secret } = await enrol(admin);
    const stored = await storedSecret(t, admin.user.id);
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(secret);
    // Another shop on the same database with another key cannot use it either.
    const other = await buildTestApp(
      { TOTP_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64") },
      {},
      t.databaseUrl,
    );
    try {
      const answer = await other.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { username: admin.user.username, password: admin.password, code: await codeAt(secret, 1) },
      });
      // Refused: the server cannot open it (an error in its log), never a session.
      expect(answer.statusCode).toBe(500);
      expect(answer.cookies).toHaveLength(0);
    } finally {
      await other.close();
    }
    expect(await storedSecret(t, admin.user.id)).toBe(stored);
  });

  it("seals secrets stored plain before this change at start, and a rotation re-seals them with the new key", async () => {
    const own = await buildTestApp();
    const apps: TestApp[] = [own];
    try {
      const admin = await registerAndLogin(own, { admin: true });
      const setup = await own.app.inject({ method: "POST", url: "/api/auth/2fa/setup", headers: admin.headers });
      const { secret } = setup.json() as { secret: string };
      // As an older shop stored it: plain.
      await own.pool.query(
        "update users set totp_secret = $2, totp_pending_secret = null, totp_enabled_at = now() where id = $1",
        [admin.user.id, secret],
      );
      const restarted = await buildTestApp({}, {}, own.databaseUrl);
      apps.push(restarted);
      const sealed = await storedSecret(own, admin.user.id);
      expect(sealed).toMatch(/^v1\./);
      expect(sealed).not.toContain(secret);
      const codeLogin = async (app: TestApp, steps: number) =>
        app.app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { username: admin.user.username, password: admin.password, code: await codeAt(secret, steps) },
        });
      expect((await codeLogin(restarted, 0)).statusCode).toBe(200);

      // Rotation: the new key, the old one as TOTP_ENCRYPTION_KEY_PREVIOUS; sealed again at start.
      const newKey = Buffer.alloc(32, 2).toString("base64");
      const rotated = await buildTestApp(
        { TOTP_ENCRYPTION_KEY: newKey, TOTP_ENCRYPTION_KEY_PREVIOUS: TEST_TOTP_KEY },
        {},
        own.databaseUrl,
      );
      apps.push(rotated);
      const resealed = await storedSecret(own, admin.user.id);
      expect(resealed).toMatch(/^v1\./);
      expect(resealed.split(".")[1]).not.toBe(sealed.split(".")[1]);
      expect((await codeLogin(rotated, 1)).statusCode).toBe(200);
    } finally {
      for (const app of apps.reverse()) await app.close();
    }
  });

  it("makes a key file in DATA_DIR, readable by the shop alone, when no key is set outside live mode", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "shop-totp-key-"));
    try {
      const first = await buildTestApp({ TOTP_ENCRYPTION_KEY: "", DATA_DIR: dataDir }, {}, t.databaseUrl);
      await first.close();
      const file = path.join(dataDir, "totp-encryption.key");
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const key = (await readFile(file, "utf8")).trim();
      expect(Buffer.from(key, "base64")).toHaveLength(32);
      const second = await buildTestApp({ TOTP_ENCRYPTION_KEY: "", DATA_DIR: dataDir }, {}, t.databaseUrl);
      await second.close();
      expect((await readFile(file, "utf8")).trim()).toBe(key);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
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
  ...LIVE_COURIER,
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
    const { loadConfig } = await import("#server/platform/config.js");
    expect(loadConfig({}).adminSecondFactor.required).toBe(false);
    expect(loadConfig({ PAYFAST_MODE: "sandbox" }).adminSecondFactor.required).toBe(false);
    expect(loadConfig({ ADMIN_2FA: "required" }).adminSecondFactor.required).toBe(true);
    // Live mode with everything it needs, and no ADMIN_2FA: required; an explicit optional still wins.
    expect(loadConfig(LIVE).adminSecondFactor.required).toBe(true);
    expect(loadConfig({ ...LIVE, ADMIN_2FA: "" }).adminSecondFactor.required).toBe(true);
    expect(loadConfig({ ...LIVE, ADMIN_2FA: "optional" }).adminSecondFactor.required).toBe(false);
  });

  it("refuses live mode without TOTP_ENCRYPTION_KEY, and a key that is not 32 bytes, saying what to set", async () => {
    const { loadConfig } = await import("#server/platform/config.js");
    const { TOTP_ENCRYPTION_KEY: _key, ...withoutKey } = LIVE;
    expect(() => loadConfig(withoutKey)).toThrow(
      /TOTP_ENCRYPTION_KEY: required when PAYFAST_MODE=live.*openssl rand -base64 32/,
    );
    expect(() => loadConfig({ ...LIVE, TOTP_ENCRYPTION_KEY: "too-short" })).toThrow(
      /TOTP_ENCRYPTION_KEY: must be 32 random bytes/,
    );
    expect(loadConfig({ ...LIVE, TOTP_ENCRYPTION_KEY: "ab".repeat(32) }).adminSecondFactor.keys.current).toEqual(
      Buffer.alloc(32, 0xab),
    );
    // Outside live mode a missing key is fine: the key file in DATA_DIR stands in.
    expect(loadConfig({}).adminSecondFactor.keys.current).toBeNull();
  });
});
