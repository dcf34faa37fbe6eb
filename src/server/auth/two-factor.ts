import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  secondFactorCodeInput,
  stepUpFreshness,
  stepUpPasswordInput,
  twoFactorEnabled,
  twoFactorSetup,
  twoFactorStatus,
} from "#domain/schemas/two-factor.js";
import { recordAudit } from "../platform/audit.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { recoveryCodes, sessions, users } from "../platform/db/schema.js";
import { badRequest, forbidden, HttpError } from "../platform/errors.js";
import type { ShopApp } from "../platform/feature.js";
import { enqueueAccountChanged } from "./account-notices.js";
import { confirmCurrentPassword } from "./current-password.js";
import { requireUser } from "./guards.js";
import { accountKey, countAttempt } from "./rate-limit.js";
import { openTotpSecret, sealTotpSecret, type TotpKeys } from "./totp-secrets.js";

/** otplib and qrcode (about 18 MB resident together) load with the first code an admin types or the first enrolment. */
let otpModule: Promise<typeof import("otplib")> | null = null;
const otp = () => (otpModule ??= import("otplib"));

/** Ten one-time recovery codes, each 10 characters from an alphabet with no look-alikes. */
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
/** One 30-second step either side of now: a phone's clock a little off still works. */
const EPOCH_TOLERANCE = 30;
/** The 10th wrong code in a row locks the authenticator codes of the account for 15 minutes. */
export const SECOND_FACTOR_LOCK_AFTER = 10;
export const SECOND_FACTOR_LOCK_MINUTES = 15;

const hashRecoveryCode = (code: string) =>
  createHash("sha256")
    .update(code.toLowerCase().replace(/[^a-z0-9]/g, ""))
    .digest("hex");

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** The 30-second step a valid TOTP code belongs to (otplib's result type also covers HOTP). */
const stepOf = (result: object): number =>
  "timeStep" in result && typeof result.timeStep === "number" ? result.timeStep : Math.floor(Date.now() / 30_000);

const codeWrong = () =>
  new HttpError(
    401,
    "That code is not right. Enter the current 6-digit code from your authenticator app.",
    "SECOND_FACTOR_WRONG",
  );

/** What a code was: right (and how it was given), wrong (perhaps the one that locked the codes now), or not tried. */
export type SecondFactorCheck =
  | { ok: true; how: "totp" | "recovery" }
  | { ok: false; lockedNow: boolean }
  | { ok: false; locked: Date };

/** What checkSecondFactor needs from the app: the keys that open secrets. */
export interface SecondFactorContext {
  keys: TotpKeys;
}

/**
 * Checks a code for `userId`: a TOTP code (RFC 6238, 30 s, 6 digits, one step of drift) never
 * accepted before (each step once: users.totp_last_step), or an unused recovery code, which is then
 * used up. In the caller's transaction (which must commit a wrong answer too: it counts). The 10th
 * wrong code in a row locks TOTP codes for SECOND_FACTOR_LOCK_MINUTES and tells the account holder
 * by e-mail; while locked, TOTP codes are not even checked, recovery codes still are.
 */
export async function checkSecondFactor(
  tx: Database | Transaction,
  { keys }: SecondFactorContext,
  userId: string,
  code: string,
): Promise<SecondFactorCheck> {
  const [account] = await tx
    .select({
      secret: users.totpSecret,
      lastStep: users.totpLastStep,
      failures: users.totpFailures,
      lockedUntil:
        sql<Date | null>`case when ${users.totpLockedUntil} > now() then ${users.totpLockedUntil} end`.mapWith(
          users.totpLockedUntil,
        ),
      email: users.email,
      fullName: users.fullName,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  if (!account?.secret) return { ok: false, lockedNow: false };
  const right = async (how: "totp" | "recovery", lastStep?: number) => {
    await tx
      .update(users)
      .set({ totpFailures: 0, totpLockedUntil: null, ...(lastStep === undefined ? {} : { totpLastStep: lastStep }) })
      .where(eq(users.id, userId));
    return { ok: true as const, how };
  };
  const wrong = async () => {
    const failures = account.failures + 1;
    if (failures < SECOND_FACTOR_LOCK_AFTER) {
      await tx.update(users).set({ totpFailures: failures }).where(eq(users.id, userId));
      return { ok: false as const, lockedNow: false };
    }
    const [locked] = await tx
      .update(users)
      .set({
        totpFailures: 0,
        totpLockedUntil: sql`now() + interval '${sql.raw(String(SECOND_FACTOR_LOCK_MINUTES))} minutes'`,
      })
      .where(eq(users.id, userId))
      .returning({ until: users.totpLockedUntil });
    await enqueueAccountChanged(tx, {
      to: account.email,
      eventKey: `second-factor-locked:${userId}:${locked?.until?.toISOString() ?? Date.now()}`,
      userId,
      name: account.fullName,
      change: "second_factor_locked",
      newEmail: null,
      changedAt: new Date().toISOString(),
    });
    return { ok: false as const, lockedNow: true };
  };

  const digits = code.replace(/\s/g, "");
  if (/^\d{6}$/.test(digits)) {
    if (account.lockedUntil) return { ok: false, locked: account.lockedUntil };
    const result = await (await otp()).verify({
      secret: openTotpSecret(keys, userId, account.secret),
      token: digits,
      epochTolerance: EPOCH_TOLERANCE,
      ...(account.lastStep === null ? {} : { afterTimeStep: account.lastStep }),
    });
    return result.valid ? right("totp", stepOf(result)) : wrong();
  }
  const [used] = await tx
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, hashRecoveryCode(code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used ? right("recovery") : wrong();
}

/** The answer to a code while codes are locked: 429 with Retry-After, pointing at the recovery codes. */
export function codesLocked(reply: FastifyReply, until: Date): HttpError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  reply.header("retry-after", String(seconds));
  return new HttpError(
    429,
    `Too many wrong codes: codes from your authenticator app are locked for ${Math.ceil(seconds / 60)} more minute(s). Use one of your recovery codes, or wait.`,
    "SECOND_FACTOR_LOCKED",
  );
}

/** Throws the answer to a code that was not right: locked (429) or wrong (401). */
export function refuseCode(reply: FastifyReply, check: Exclude<SecondFactorCheck, { ok: true }>): never {
  if ("locked" in check) throw codesLocked(reply, check.locked);
  throw codeWrong();
}

/**
 * Code attempts have the account's own per-minute budget, as login attempts once did: a stolen
 * password or session cannot guess codes faster, and strangers' wrong passwords (counted
 * elsewhere, login-failures.ts) never spend it, so they cannot keep an admin from the step-up.
 */
async function countCodeAttempt(request: FastifyRequest, reply: FastifyReply, userId: string) {
  await countAttempt(
    request.server.db,
    reply,
    [accountKey("second-factor", { userId })],
    request.server.config.authRateLimitPerMinute,
  );
}

/**
 * Step-up: every admin route that moves money or writes a tax document (route config `moneyMove`,
 * admin/routes.ts), the customer exports, making an admin, disabling another admin and turning 2FA
 * off want this session to have confirmed it is its admin within ADMIN_STEP_UP_MINUTES: with a code
 * when the admin has a second factor (403 STEP_UP_REQUIRED; POST /api/auth/2fa/verify), with their
 * password when they have none, as ADMIN_2FA=optional allows (403 STEP_UP_PASSWORD_REQUIRED;
 * POST /api/auth/step-up/password). The admin's browser asks, then tries again.
 */
export function requireFreshSecondFactor(request: FastifyRequest): void {
  const factor = request.secondFactor;
  const fresh = (at: Date | null | undefined) =>
    Boolean(at) && Date.now() - (at as Date).getTime() < request.server.config.adminSecondFactor.stepUpMs;
  if (factor?.enrolled) {
    if (fresh(factor.at)) return;
    throw new HttpError(
      403,
      "Enter a code from your authenticator app to confirm this: it moves money or customers' data.",
      "STEP_UP_REQUIRED",
    );
  }
  if (fresh(factor?.passwordAt)) return;
  throw new HttpError(
    403,
    "Enter your password to confirm this: it moves money or customers' data.",
    "STEP_UP_PASSWORD_REQUIRED",
  );
}

/** Stores ten fresh recovery codes (their hashes) in place of any old ones; answers the codes, shown once. */
async function replaceRecoveryCodes(tx: Transaction, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })));
  return codes;
}

/** Ends an admin's second factor (turned off, or reset by another admin after a lost phone). */
export async function clearSecondFactor(tx: Transaction, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null })
    .where(eq(users.id, userId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

export const secondFactorContext = (app: FastifyInstance): SecondFactorContext => ({
  keys: app.totpKeys,
});

/**
 * Audits a refused code: a wrong one (folded per admin and window), and the one that locked the
 * codes (its own record; the account holder's notice is already in the outbox).
 */
export async function recordCodeRefused(
  request: FastifyRequest,
  check: Exclude<SecondFactorCheck, { ok: true }>,
  step: string,
  actor?: { id: string; username: string },
): Promise<void> {
  const { db } = request.server;
  if ("locked" in check) return;
  await recordAudit(db, request, { action: "auth.second_factor_failed", ...(actor ? { actor } : {}), after: { step } });
  const whose = actor ?? request.user;
  if (check.lockedNow) {
    await recordAudit(db, request, {
      action: "auth.second_factor_locked",
      ...(actor ? { actor } : {}),
      ...(whose ? { subject: { type: "user" as const, id: whose.id } } : {}),
      after: { step, wrongCodes: SECOND_FACTOR_LOCK_AFTER, minutes: SECOND_FACTOR_LOCK_MINUTES },
    });
    request.server.mail.wake();
  }
}

function requireAdminUser(request: FastifyRequest) {
  const user = requireUser(request);
  if (!user.isAdmin) throw forbidden("Two-step sign-in is for admins.");
  return user;
}

/**
 * /api/auth/2fa: an admin's second factor. GET (status), POST /setup (a new secret and its QR
 * code), POST /enable (the first code confirms it; answers the recovery codes once), POST /verify
 * (step-up), POST /disable (with a fresh code). Audited.
 */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  registerStatus(app);
  registerPasswordStepUp(app);
  registerSetUp(app);
  registerCodeChecks(app);
};

/** GET /2fa and /2fa/fresh: whether two-step sign-in is on, and whether this session is freshly confirmed. */
function registerStatus(app: ShopApp): void {
  app.get("/2fa", { schema: { response: { 200: twoFactorStatus } } }, async (request) => {
    const user = requireAdminUser(request);
    const [row] = await app.db.select({ enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, user.id));
    const [left] = await app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)));
    return {
      enabled: Boolean(row?.enabledAt),
      enabledAt: row?.enabledAt?.toISOString() ?? null,
      recoveryCodesLeft: left?.n ?? 0,
      required: app.config.adminSecondFactor.required,
    };
  });

  // Whether this session may take a step-up action now, and how it confirms if not (the export link asks first).
  app.get("/2fa/fresh", { schema: { response: { 200: stepUpFreshness } } }, async (request) => {
    requireAdminUser(request);
    const confirmWith = request.secondFactor?.enrolled ? ("code" as const) : ("password" as const);
    try {
      requireFreshSecondFactor(request);
      return { fresh: true, confirmWith };
    } catch {
      return { fresh: false, confirmWith };
    }
  });
}

/** POST /step-up/password: the step-up of an admin without a second factor. */
function registerPasswordStepUp(app: ShopApp): void {
  // An admin with no second factor (ADMIN_2FA=optional) confirms a step-up action with their password.
  app.post("/step-up/password", { schema: { body: stepUpPasswordInput } }, async (request, reply) => {
    const user = requireAdminUser(request);
    const session = request.secondFactor;
    if (!session) throw badRequest("Sign in again.");
    if (session.enrolled) {
      throw badRequest("Two-step sign-in is on for this account: confirm with a code from your authenticator app.");
    }
    // Spends the account's login budget, as every password check does.
    await confirmCurrentPassword(request, reply, user.id, request.body.password);
    await app.db
      .update(sessions)
      .set({ passwordConfirmedAt: sql`now()` })
      .where(eq(sessions.tokenHash, session.tokenHash));
    return reply.status(204).send();
  });
}

/** POST /2fa/setup and /2fa/enable: a new secret, then the first code that turns it on. */
function registerSetUp(app: ShopApp): void {
  app.post("/2fa/setup", { schema: { response: { 200: twoFactorSetup } } }, async (request) => {
    const user = requireAdminUser(request);
    if (request.secondFactor?.enrolled) {
      throw new HttpError(
        409,
        "Two-step sign-in is already on. Turn it off first to set up a new phone.",
        "ALREADY_EXISTS",
      );
    }
    const { generateSecret, generateURI } = await otp();
    const secret = generateSecret();
    await app.db
      .update(users)
      .set({ totpPendingSecret: sealTotpSecret(app.totpKeys, user.id, secret) })
      .where(eq(users.id, user.id));
    const uri = generateURI({ issuer: app.config.shop.name, label: user.username, secret });
    const { default: QRCode } = await import("qrcode");
    const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
    return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(qrSvg).toString("base64")}` };
  });

  app.post(
    "/2fa/enable",
    { schema: { body: secondFactorCodeInput, response: { 200: twoFactorEnabled } } },
    async (request, reply) => {
      const user = requireAdminUser(request);
      await countCodeAttempt(request, reply, user.id);
      const [row] = await app.db
        .select({ pending: users.totpPendingSecret, enabledAt: users.totpEnabledAt })
        .from(users)
        .where(eq(users.id, user.id));
      if (row?.enabledAt) throw new HttpError(409, "Two-step sign-in is already on.", "ALREADY_EXISTS");
      if (!row?.pending) throw badRequest("Start the set-up first: no code is expected yet.");
      const result = await (await otp()).verify({
        secret: openTotpSecret(app.totpKeys, user.id, row.pending),
        token: request.body.code.replace(/\s/g, ""),
        epochTolerance: EPOCH_TOLERANCE,
      });
      if (!result.valid) throw codeWrong();
      const codes = await app.db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({
            totpSecret: row.pending,
            totpPendingSecret: null,
            totpEnabledAt: sql`now()`,
            totpLastStep: stepOf(result),
          })
          .where(eq(users.id, user.id));
        const made = await replaceRecoveryCodes(tx, user.id);
        const current = request.secondFactor?.tokenHash ?? "";
        await tx.update(sessions).set({ secondFactorAt: sql`now()` }).where(eq(sessions.tokenHash, current));
        // A session signed in with the password alone (perhaps a thief's) must not outlive the new factor.
        const ended = await tx
          .delete(sessions)
          .where(and(eq(sessions.userId, user.id), ne(sessions.tokenHash, current)))
          .returning({ hash: sessions.tokenHash });
        await recordAudit(tx, request, {
          action: "auth.second_factor_enabled",
          subject: { type: "user", id: user.id },
          after: { recoveryCodes: RECOVERY_CODES, otherSessionsEnded: ended.length },
        });
        return made;
      });
      return { recoveryCodes: codes };
    },
  );
}

/** POST /2fa/verify and /2fa/disable: what an enrolled admin confirms with a code (a step-up, turning it off). */
function registerCodeChecks(app: ShopApp): void {
  app.post("/2fa/verify", { schema: { body: secondFactorCodeInput } }, async (request, reply) => {
    const user = requireAdminUser(request);
    if (!request.secondFactor?.enrolled) throw badRequest("Two-step sign-in is not on for this account.");
    await countCodeAttempt(request, reply, user.id);
    const tokenHash = request.secondFactor.tokenHash;
    const checked = await app.db.transaction(async (tx) => {
      const check = await checkSecondFactor(tx, secondFactorContext(app), user.id, request.body.code);
      if (check.ok)
        await tx.update(sessions).set({ secondFactorAt: sql`now()` }).where(eq(sessions.tokenHash, tokenHash));
      return check;
    });
    if (!checked.ok) {
      await recordCodeRefused(request, checked, "step-up");
      refuseCode(reply, checked);
    }
    return reply.status(204).send();
  });

  app.post("/2fa/disable", { schema: { body: secondFactorCodeInput } }, async (request, reply) => {
    const user = requireAdminUser(request);
    if (!request.secondFactor?.enrolled) throw badRequest("Two-step sign-in is not on for this account.");
    await countCodeAttempt(request, reply, user.id);
    const checked = await app.db.transaction(async (tx) => {
      const check = await checkSecondFactor(tx, secondFactorContext(app), user.id, request.body.code);
      if (!check.ok) return check;
      await clearSecondFactor(tx, user.id);
      await recordAudit(tx, request, {
        action: "auth.second_factor_disabled",
        subject: { type: "user", id: user.id },
        after: { by: "self" },
      });
      return check;
    });
    if (!checked.ok) {
      await recordCodeRefused(request, checked, "turn off");
      refuseCode(reply, checked);
    }
    return reply.status(204).send();
  });
}
