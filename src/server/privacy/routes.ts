import { and, eq, gt, sql } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { DATA_EXPORTS_PER_DAY } from "#domain/limits.js";
import {
  accountClosedAnswer,
  consentChoiceInput,
  consentsAnswer,
  passwordConfirmInput,
} from "#domain/schemas/privacy.js";
import { currentConsents, recordConsentChange } from "../auth/consents.js";
import { confirmCurrentPassword } from "../auth/current-password.js";
import { requireUser } from "../auth/guards.js";
import { endSession, hashSessionToken, sessionCookieName } from "../auth/session.js";
import { recordAudit } from "../platform/audit.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { auditLog } from "../platform/db/schema.js";
import { HttpError } from "../platform/errors.js";
import { closeAccount } from "./close-account.js";
import { buildDataExport } from "./data-export.js";

export const DATA_EXPORT_PASSWORD_MESSAGE = "Enter your password to download your data.";
export const CLOSE_ACCOUNT_PASSWORD_MESSAGE = "Enter your password to close your account.";
export const ACCOUNT_CLOSED_MESSAGE =
  "Your account is closed and your personal details were removed. Orders and invoices are kept for five years, as tax law requires.";

const DAY_MS = 86_400_000;

/**
 * /api/account: the signed-in customer's own privacy rights (POPIA s23-24, s69): download my data,
 * close my account, and marketing consent. Each acts on the session's user only.
 */
export const privacyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.post("/data-export", { schema: { body: passwordConfirmInput } }, async (request, reply) => {
    const user = requireUser(request);
    await confirmCurrentPassword(request, reply, user.id, request.body.password, DATA_EXPORT_PASSWORD_MESSAGE);
    const exportedAt = new Date().toISOString().slice(0, 10);
    // Asked before the work and again, under the account's row lock, before it is handed over: two
    // requests at once cannot both take the last one of the day.
    await refuseOverDailyExports(app.db, reply, user.id);
    const token = request.cookies[sessionCookieName(app)] ?? "";
    const document = await buildDataExport(app.db, user.id, {
      shopName: app.config.shop.name,
      currentSessionHash: hashSessionToken(token),
    });
    await app.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from users where id = ${user.id} for update`);
      await refuseOverDailyExports(tx, reply, user.id);
      await recordAudit(tx, request, { action: "user.data_exported", subject: { type: "user", id: user.id } });
    });
    const filename = `${app.config.shop.name.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}-my-data-${exportedAt}.json`;
    return reply
      .header("content-type", "application/json; charset=utf-8")
      .header("content-disposition", `attachment; filename="${filename}"`)
      .send(JSON.stringify(document, null, 2));
  });

  app.post(
    "/close",
    { schema: { body: passwordConfirmInput, response: { 200: accountClosedAnswer } } },
    async (request, reply) => {
      const user = requireUser(request);
      await confirmCurrentPassword(request, reply, user.id, request.body.password, CLOSE_ACCOUNT_PASSWORD_MESSAGE);
      // The shop must never be left without an admin by a slip: rights go first, by another admin.
      if (user.isAdmin) {
        throw new HttpError(
          409,
          "An admin's account cannot be closed. Ask another admin to remove your admin rights first.",
          "ADMIN_ACCOUNT_CLOSE_REFUSED",
        );
      }
      await app.db.transaction((tx) => closeAccount(tx, request, user.id, app.config.shop.name));
      await endSession(request, reply);
      return { message: ACCOUNT_CLOSED_MESSAGE };
    },
  );

  app.get("/consents", { schema: { response: { 200: consentsAnswer } } }, async (request) => {
    const user = requireUser(request);
    return { consents: await currentConsents(app.db, user.id, app.config.shop.name) };
  });

  app.put("/consents", { schema: { body: consentChoiceInput, response: { 200: consentsAnswer } } }, async (request) => {
    const user = requireUser(request);
    const { channel, granted } = request.body;
    await app.db.transaction((tx) =>
      recordConsentChange(tx, request, {
        userId: user.id,
        channel,
        granted,
        source: "profile",
        shopName: app.config.shop.name,
      }),
    );
    return { consents: await currentConsents(app.db, user.id, app.config.shop.name) };
  });
};

/** 429 when the account already downloaded its data DATA_EXPORTS_PER_DAY times in the last 24 hours. */
async function refuseOverDailyExports(db: Database | Transaction, reply: FastifyReply, userId: string) {
  const recent = await db
    .select({ at: auditLog.at })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.subjectType, "user"),
        eq(auditLog.subjectId, userId),
        eq(auditLog.action, "user.data_exported"),
        gt(auditLog.at, sql`now() - interval '24 hours'`),
      ),
    )
    .orderBy(auditLog.at);
  if (recent.length < DATA_EXPORTS_PER_DAY) return;
  const oldest = recent[0]?.at ?? new Date();
  const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + DAY_MS - Date.now()) / 1000));
  reply.header("retry-after", String(retryAfter));
  throw new HttpError(
    429,
    `You can download your data ${DATA_EXPORTS_PER_DAY} times a day. Please try again in ${hoursText(retryAfter)}.`,
    "RATE_LIMITED",
  );
}

function hoursText(seconds: number): string {
  const hours = Math.ceil(seconds / 3600);
  return hours <= 1 ? "an hour" : `${hours} hours`;
}
