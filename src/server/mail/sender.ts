import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../platform/db/client.js";
import type { emails } from "../platform/db/schema.js";
import type { MailTransport } from "../platform/mail-transport.js";
import { EMAIL_CHANGE_HOURS } from "./email-change-hours.js";
import { hashLinkToken } from "./link-token.js";
import { type EmailDataByKind, RESET_MINUTES, type SendTimeData, type ShopIdentity } from "./messages.js";
import { renderEmail } from "./render.js";
import { subjectFor } from "./subjects.js";

type EmailRow = typeof emails.$inferSelect;

/** Messages sent at once by one sender (nodemailer's pool keeps 3 connections). */
const PARALLEL = 3;
/** Messages a sender takes at a time: two rounds of PARALLEL, well inside the lease. */
const BATCH = PARALLEL * 2;
/**
 * How long a sender holds the messages it took (two rounds at the transport's longest timeouts);
 * after a crash they are due again then, in this instance or another.
 */
const LEASE_SECONDS = 60;
/** A message is retried for a little over a day before it is marked failed. */
const GIVE_UP_MS = 25 * 60 * 60_000;

/** The wait before attempt n + 1 after n failed ones: 1, 2, 4, ... minutes, at most an hour. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(60, 2 ** Math.max(0, failedAttempts - 1)) * 60_000;
}

export interface SenderContext {
  db: Database;
  /** null: no SMTP_URL, so messages are captured in the outbox (readable in the admin). */
  transport: MailTransport | null;
  shop: ShopIdentity;
  log: FastifyBaseLogger;
  /**
   * MAIL_CAPTURE_DIR: without SMTP, each captured message is also written here in full, reset
   * links included (development and tests). The outbox, which admins read, never keeps a link.
   */
  captureDir?: string | undefined;
}

/** What the outbox keeps of a reset message in place of its link: it grants nothing. */
export const RESET_LINK_REDACTED = "[reset link, not kept: use Resend to send a new one]";

export interface DeliveryRun {
  sent: number;
  captured: number;
  retrying: number;
  failed: number;
}

/** A failure no retry can mend (a reset already used): the message is marked failed at once. */
class PermanentFailure extends Error {}

/**
 * Sends (or captures) every message that is due, a batch at a time. Each batch is leased with
 * locked_until, so several instances never take the same message, and a sender that dies holding
 * one leaves it due again when the lease ends. A crash between the SMTP server's answer and the
 * row's update sends that message twice (with the same Message-ID); nothing is ever dropped.
 */
export async function deliverDueEmails(context: SenderContext): Promise<DeliveryRun> {
  const run: DeliveryRun = { sent: 0, captured: 0, retrying: 0, failed: 0 };
  for (;;) {
    const batch = await claimDue(context.db);
    for (let start = 0; start < batch.length; start += PARALLEL) {
      const outcomes = await Promise.all(batch.slice(start, start + PARALLEL).map((row) => deliver(context, row)));
      for (const outcome of outcomes) run[outcome] += 1;
    }
    if (batch.length < BATCH) return run;
  }
}

async function claimDue(db: Database): Promise<EmailRow[]> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    update emails set locked_until = now() + ${`${LEASE_SECONDS} seconds`}::interval
    where id in (
      select id from emails
      where status in ('queued', 'retrying') and next_attempt_at <= now()
        and (locked_until is null or locked_until < now())
      order by next_attempt_at, id
      limit ${BATCH}
      for update skip locked
    )
    returning id`);
  if (rows.length === 0) return [];
  const ids = rows.map((row) => Number(row.id));
  return db.query.emails.findMany({
    where: (email, { inArray }) => inArray(email.id, ids),
    orderBy: (e, { asc }) => asc(e.id),
  });
}

async function deliver(context: SenderContext, row: EmailRow): Promise<keyof DeliveryRun> {
  const { db, transport, shop, log } = context;
  try {
    const sendTime =
      row.kind === "password_reset"
        ? await issueResetLink(db, row, shop)
        : row.kind === "email_change" || row.kind === "email_confirm"
          ? await issueEmailChangeLink(db, row, shop)
          : {};
    const rendered = await renderEmail(row.kind, row.data as never, shop, sendTime);
    // Made now from the config's shop name (a row queued before migration 0035 keeps the one it was
    // written with), and kept on the row with its status, so the outbox shows what went out.
    const subject = subjectFor(row, shop.name);
    // What the outbox keeps stays readable in the admin, but never a live reset link: an admin who
    // could read one could become that customer, or another admin.
    const secret = sendTime.resetUrl ?? sendTime.confirmUrl;
    const keep = (text: string) => (secret ? text.replaceAll(secret, RESET_LINK_REDACTED) : text);
    if (!transport) {
      if (context.captureDir) await writeCaptured(context.captureDir, row, { subject, ...rendered });
      await db.execute(sql`
        update emails set status = 'captured', subject = ${subject}, html = ${keep(rendered.html)}, text_body = ${keep(rendered.text)},
          attempts = attempts + 1, last_error = null, locked_until = null, next_attempt_at = null
        where id = ${row.id}`);
      return "captured";
    }
    await transport({
      to: row.toAddress,
      subject,
      html: rendered.html,
      text: rendered.text,
      messageId: `<email-${row.id}-${row.createdAt.getTime()}@${new URL(shop.publicUrl).hostname}>`,
    });
    await db.execute(sql`
      update emails set status = 'sent', subject = ${subject}, sent_at = now(), html = ${keep(rendered.html)}, text_body = ${keep(rendered.text)},
        attempts = attempts + 1, last_error = null, locked_until = null, next_attempt_at = null
      where id = ${row.id}`);
    return "sent";
  } catch (error) {
    const attempts = row.attempts + 1;
    // An SMTP server's answer can quote addresses and message text: kept and logged without them.
    const reason = withoutAddresses(error instanceof Error ? error.message : String(error));
    const giveUp = error instanceof PermanentFailure || Date.now() - row.createdAt.getTime() > GIVE_UP_MS;
    log.warn({ emailId: row.id, kind: row.kind, attempts, reason, giveUp }, "e-mail not sent");
    await db.execute(sql`
      update emails set status = ${giveUp ? "failed" : "retrying"}, attempts = ${attempts},
        last_error = ${reason.slice(0, 500)}, locked_until = null,
        next_attempt_at = ${giveUp ? null : new Date(Date.now() + retryDelayMs(attempts))}
      where id = ${row.id}`);
    return giveUp ? "failed" : "retrying";
  }
}

/**
 * Like a reset link: made at send time, only its hash kept, valid EMAIL_CHANGE_HOURS; a resend makes a new one.
 * The sign-up's proof of address (email_confirm) is the same kind of row, to the address the account has.
 */
async function issueEmailChangeLink(db: Database, row: EmailRow, shop: ShopIdentity): Promise<SendTimeData> {
  const { changeId } = row.data as unknown as EmailDataByKind["email_change"];
  const token = randomBytes(32).toString("base64url");
  const { rows } = await db.execute(sql`
    update email_changes set token_hash = ${hashLinkToken(token)}, expires_at = now() + ${`${EMAIL_CHANGE_HOURS} hours`}::interval
    where id = ${changeId} and used_at is null
    returning id`);
  if (rows.length === 0) throw new PermanentFailure("This change of address was already confirmed or replaced.");
  return { confirmUrl: `${shop.publicUrl}/confirm-email?token=${token}` };
}

/** Error text without e-mail addresses, cut: what the log and the admin's Emails tab may show. */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+/g, "[address]").slice(0, 300);
}

/**
 * A captured message in full, as `<id>.txt` and `<id>.html`, readable by the server's own user
 * only. Each file is written aside and renamed into place, so a reader never sees half of one.
 */
async function writeCaptured(dir: string, row: EmailRow, rendered: { subject: string; html: string; text: string }) {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const header = `To: ${row.toAddress}\nSubject: ${rendered.subject}\nKind: ${row.kind}\n\n`;
  const place = async (name: string, content: string) => {
    const aside = path.join(dir, `.${name}.${randomBytes(4).toString("hex")}`);
    await writeFile(aside, content, { mode: 0o600 });
    await rename(aside, path.join(dir, name));
  };
  await place(`${row.id}.html`, rendered.html);
  await place(`${row.id}.txt`, header + rendered.text);
}

/**
 * A password reset's link is made when its message is sent: 32 random bytes, of which only the
 * SHA-256 is stored, valid RESET_MINUTES from now. Sending again (a retry, or the admin's Resend)
 * makes a new link and the old one stops working.
 */
async function issueResetLink(db: Database, row: EmailRow, shop: ShopIdentity): Promise<SendTimeData> {
  const { resetId } = row.data as unknown as EmailDataByKind["password_reset"];
  const token = randomBytes(32).toString("base64url");
  const tokenHash = hashLinkToken(token);
  const { rows } = await db.execute(sql`
    update password_resets set token_hash = ${tokenHash}, expires_at = now() + ${`${RESET_MINUTES} minutes`}::interval
    where id = ${resetId} and used_at is null
    returning id`);
  if (rows.length === 0) throw new PermanentFailure("This reset request was already used or no longer exists.");
  return { resetUrl: `${shop.publicUrl}/reset-password?token=${token}` };
}
