import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  secondFactorCodeInput,
  twoFactorEnabled,
  twoFactorSetup,
  twoFactorStatus,
} from "#domain/schemas/two-factor.js";
import { recordAudit } from "../audit/record.js";
import type { Database, Transaction } from "../db/client.js";
import { recoveryCodes, sessions, users } from "../db/schema.js";
import { badRequest, forbidden, HttpError } from "../errors.js";
import { requireUser } from "./guards.js";
import { accountKey, countAttempt } from "./rate-limit.js";

/** otplib and qrcode (about 18 MB resident together) load with the first code an admin types or the first enrolment. */
let otpModule: Promise<typeof import("otplib")> | null = null;
const otp = () => (otpModule ??= import("otplib"));

/** Ten one-time recovery codes, each 10 characters from an alphabet with no look-alikes. */
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
/** One 30-second step either side of now: a phone's clock a little off still works. */
const EPOCH_TOLERANCE = 30;

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

/**
 * Checks a code for `userId`: a TOTP code (RFC 6238, 30 s, 6 digits, one step of drift) never
 * accepted before (each step once: users.totp_last_step), or an unused recovery code, which is then
 * used up. In the caller's transaction; answers how the code was given, or null when it is wrong.
 */
export async function checkSecondFactor(
  tx: Database | Transaction,
  userId: string,
  code: string,
): Promise<"totp" | "recovery" | null> {
  const [account] = await tx
    .select({ secret: users.totpSecret, lastStep: users.totpLastStep })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  if (!account?.secret) return null;
  const digits = code.replace(/\s/g, "");
  if (/^\d{6}$/.test(digits)) {
    const result = await (await otp()).verify({
      secret: account.secret,
      token: digits,
      epochTolerance: EPOCH_TOLERANCE,
      ...(account.lastStep === null ? {} : { afterTimeStep: account.lastStep }),
    });
    if (!result.valid) return null;
    await tx
      .update(users)
      .set({ totpLastStep: stepOf(result) })
      .where(eq(users.id, userId));
    return "totp";
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
  return used ? "recovery" : null;
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
 * Step-up: a refund, the customer export, making an admin and turning 2FA off want a code given by
 * this session within ADMIN_STEP_UP_MINUTES. 403 STEP_UP_REQUIRED otherwise; the admin's browser
 * asks for a code (POST /api/auth/2fa/verify) and tries again. An admin with no second factor
 * enrolled (allowed when ADMIN_2FA=optional) has none to give.
 */
export function requireFreshSecondFactor(request: FastifyRequest): void {
  const factor = request.secondFactor;
  if (!factor?.enrolled) return;
  const fresh = factor.at && Date.now() - factor.at.getTime() < request.server.config.adminSecondFactor.stepUpMs;
  if (!fresh) {
    throw new HttpError(
      403,
      "Enter a code from your authenticator app to confirm this: it moves money or customers' data.",
      "STEP_UP_REQUIRED",
    );
  }
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

  // Whether this session's last code is fresh enough for a step-up action (the export link asks first).
  app.get("/2fa/fresh", async (request) => {
    requireAdminUser(request);
    try {
      requireFreshSecondFactor(request);
      return { fresh: true };
    } catch {
      return { fresh: false };
    }
  });

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
    await app.db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, user.id));
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
        secret: row.pending,
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
        if (request.secondFactor) {
          await tx
            .update(sessions)
            .set({ secondFactorAt: sql`now()` })
            .where(eq(sessions.tokenHash, request.secondFactor.tokenHash));
        }
        await recordAudit(tx, request, {
          action: "auth.second_factor_enabled",
          subject: { type: "user", id: user.id },
          after: { recoveryCodes: RECOVERY_CODES },
        });
        return made;
      });
      return { recoveryCodes: codes };
    },
  );

  app.post("/2fa/verify", { schema: { body: secondFactorCodeInput } }, async (request, reply) => {
    const user = requireAdminUser(request);
    if (!request.secondFactor?.enrolled) throw badRequest("Two-step sign-in is not on for this account.");
    await countCodeAttempt(request, reply, user.id);
    const tokenHash = request.secondFactor.tokenHash;
    const how = await app.db.transaction(async (tx) => {
      const checked = await checkSecondFactor(tx, user.id, request.body.code);
      if (checked)
        await tx.update(sessions).set({ secondFactorAt: sql`now()` }).where(eq(sessions.tokenHash, tokenHash));
      return checked;
    });
    if (!how) {
      await recordAudit(app.db, request, { action: "auth.second_factor_failed", after: { step: "step-up" } });
      throw codeWrong();
    }
    return reply.status(204).send();
  });

  app.post("/2fa/disable", { schema: { body: secondFactorCodeInput } }, async (request, reply) => {
    const user = requireAdminUser(request);
    if (!request.secondFactor?.enrolled) throw badRequest("Two-step sign-in is not on for this account.");
    await countCodeAttempt(request, reply, user.id);
    const done = await app.db.transaction(async (tx) => {
      if (!(await checkSecondFactor(tx, user.id, request.body.code))) return false;
      await clearSecondFactor(tx, user.id);
      await recordAudit(tx, request, {
        action: "auth.second_factor_disabled",
        subject: { type: "user", id: user.id },
        after: { by: "self" },
      });
      return true;
    });
    if (!done) throw codeWrong();
    return reply.status(204).send();
  });
};
