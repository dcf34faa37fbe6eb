import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ADDRESS_PROOFS_PER_DAY, SIGNUP_ATTEMPT_NOTES_PER_DAY } from "#domain/limits.js";
import { accountMessage, addressProof } from "#domain/schemas/account.js";
import { enqueueEmail } from "../mail/outbox.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { emailChanges, emails, users } from "../platform/db/schema.js";
import { conflict, HttpError } from "../platform/errors.js";
import { requireUser } from "./guards.js";
import { countAttempt } from "./rate-limit.js";

/**
 * Proving that an account's address is its own (docs/decisions/041): at sign-up, and by Resend on
 * the profile, a link is mailed to the address the account has. It is an `email_changes` row to that
 * same address, so the link is made, kept and followed exactly like a change of address's
 * (mail/sender.ts, POST /api/auth/confirm-email); following it sets `users.email_verified_at`.
 */

/** Links of this kind sent to `email` in the last 24 hours. */
async function sentToday(db: Database | Transaction, kind: "email_confirm" | "signup_attempt", email: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(emails)
    .where(
      and(
        eq(emails.kind, kind),
        sql`lower(${emails.toAddress}) = lower(${email})`,
        sql`${emails.createdAt} > now() - interval '1 day'`,
      ),
    );
  return row?.count ?? 0;
}

/**
 * Writes the link's row and its `email_confirm` message, in the caller's transaction. A Resend
 * reuses the account's open row for the address (the new message makes a new link and the old one
 * stops), so a pending change to another address is left as it is. Answers false, sending nothing,
 * once the address had ADDRESS_PROOFS_PER_DAY links in 24 hours.
 */
export async function sendAddressProof(tx: Transaction, userId: string, email: string): Promise<boolean> {
  if ((await sentToday(tx, "email_confirm", email)) >= ADDRESS_PROOFS_PER_DAY) return false;
  const [open] = await tx
    .select({ id: emailChanges.id })
    .from(emailChanges)
    .where(
      and(
        eq(emailChanges.userId, userId),
        isNull(emailChanges.usedAt),
        sql`lower(${emailChanges.newEmail}) = lower(${email})`,
      ),
    )
    .orderBy(sql`${emailChanges.createdAt} desc`)
    .limit(1);
  const changeId =
    open?.id ??
    (await tx.insert(emailChanges).values({ userId, newEmail: email }).returning({ id: emailChanges.id }))[0]?.id;
  if (!changeId) throw new Error("insert returned no row");
  await enqueueEmail(tx, {
    kind: "email_confirm",
    eventKey: `${changeId}:${randomUUID()}`,
    to: email,
    data: { changeId },
  });
  return true;
}

/**
 * Someone tried to register an address that has an account: its owner is told, at most
 * SIGNUP_ATTEMPT_NOTES_PER_DAY times in 24 hours, so a script cannot flood them through the form.
 */
export async function noteSignupAttempt(db: Database, typed: string): Promise<void> {
  await db.transaction(async (tx) => {
    // To the address as its owner keeps it, not as the stranger typed it.
    const [owner] = await tx
      .select({ email: users.email })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${typed})`);
    if (!owner) return;
    const { email } = owner;
    // One address at a time, so the cap holds when attempts race.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`signup-attempt:${email.toLowerCase()}`}))`);
    if ((await sentToday(tx, "signup_attempt", email)) >= SIGNUP_ATTEMPT_NOTES_PER_DAY) return;
    await enqueueEmail(tx, {
      kind: "signup_attempt",
      eventKey: randomUUID(),
      to: email,
      data: { attemptedAt: new Date().toISOString() },
    });
  });
}

/** GET /api/auth/address (is the account's address proven?) and POST /api/auth/address/resend. */
export const addressProofRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/address", { schema: { response: { 200: addressProof } } }, async (request) => {
    const user = requireUser(request);
    const [row] = await app.db
      .select({ email: users.email, verifiedAt: users.emailVerifiedAt })
      .from(users)
      .where(eq(users.id, user.id));
    return { email: row?.email ?? user.email, confirmed: Boolean(row?.verifiedAt) };
  });

  app.post("/address/resend", { schema: { response: { 200: accountMessage } } }, async (request, reply) => {
    const user = requireUser(request);
    // One a minute per account; the address's daily cap is counted from the outbox (sendAddressProof).
    await countAttempt(
      app.db,
      reply,
      [`address-proof:user:${user.id}`],
      1,
      "A link was sent a moment ago. Please wait a minute before asking for another.",
    );
    const sent = await app.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ email: users.email, verifiedAt: users.emailVerifiedAt })
        .from(users)
        .where(eq(users.id, user.id))
        .for("update");
      if (!row) return "gone" as const;
      if (row.verifiedAt) return "proven" as const;
      return (await sendAddressProof(tx, user.id, row.email)) ? row.email : ("capped" as const);
    });
    if (sent === "proven" || sent === "gone") {
      throw conflict("Your e-mail address is already confirmed.", "EMAIL_ALREADY_CONFIRMED");
    }
    if (sent === "capped") {
      throw new HttpError(
        429,
        `We have sent ${ADDRESS_PROOFS_PER_DAY} links to this address in the last 24 hours. Use the newest one, or ask again tomorrow.`,
        "RATE_LIMITED",
      );
    }
    app.mail.wake();
    return { message: `We sent a new link to ${sent}. It works for 24 hours; earlier links stop working.` };
  });
};
