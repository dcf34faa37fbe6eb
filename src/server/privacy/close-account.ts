import { and, eq, ne, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { closeOpenResets } from "../auth/account-notices.js";
import { provenEmail } from "../auth/accounts.js";
import { withdrawAllConsents } from "../auth/consents.js";
import { recordAudit } from "../platform/audit.js";
import type { Transaction } from "../platform/db/client.js";
import { auditLog, childProfiles, orders, plans, sessions, users } from "../platform/db/schema.js";
import { anonymisePayfastNotifications } from "./retention.js";

/** What stands in the audit trail for a closed account's old details. */
const REMOVED = "[removed: account closed]";

/** What a closed account's name shows in the admin, on its orders and in the Users tab. */
export const CLOSED_ACCOUNT_NAME = "Closed account";

/**
 * No argon2 hash has this shape, so verifying any password against it fails: the account can
 * never log in again, whatever is typed.
 */
export const CLOSED_PASSWORD_HASH = "!closed: no password";

/**
 * Closes an account (POPIA s24), in the caller's transaction: every personal field of the profile
 * is replaced at once (the name, e-mail, username, phone and address), the password made unusable,
 * every session, the children kept for the size finder, open reset link and pending link to confirm an address ended, every marketing
 * consent withdrawn, and the old details (the addresses it asked to change to included) taken out
 * of the audit trail (which keeps what was done and when), out of the account's own messages in the
 * outbox and out of the PayFast notifications of its orders (the payer's name, e-mail and phone
 * PayFast echoed back; the amounts stay). The row itself
 * stays, so that the orders and invoices the law keeps for five years keep their owner, and the
 * admin sees that the account was closed. The username and e-mail become free to register again:
 * the replacements are made of the account's id with a colon, which sign-up refuses in a username
 * and is no e-mail address, so no one can take them first or be sent mail there. Answers how many
 * orders were kept.
 */
export async function closeAccount(
  tx: Transaction,
  request: FastifyRequest,
  userId: string,
  shopName: string,
): Promise<{ ordersKept: number }> {
  await withdrawAllConsents(tx, request, userId, "account_closed", shopName);
  // Records joined only by the address are the account's only when the address is proven its own
  // (docs/decisions/041): closing an account on an unproven address ends nothing of its real owner's.
  const proven = (await provenEmail(tx, userId)) ?? null;
  // Back-in-stock alerts the account asked for, or to its proven address, end: nothing more goes there.
  await tx.execute(sql`
    delete from stock_alerts
    where user_id = ${userId} or lower(email) = lower(${proven})`);
  const compactId = userId.replaceAll("-", "");
  // Links to confirm an address (a change asked for, the sign-up's proof) stop, and the addresses
  // asked for go from their rows and their messages.
  await tx.execute(sql`
    update emails set
      to_address = ${`closed:${compactId}`}, html = null, text_body = null,
      status = case when status in ('queued', 'retrying') then 'failed' else status end,
      last_error = case when status in ('queued', 'retrying') then 'Not sent: the account was closed' else last_error end,
      next_attempt_at = null
    where kind in ('email_change', 'email_confirm')
      and data->>'changeId' in (select id::text from email_changes where user_id = ${userId})`);
  await tx.execute(sql`
    update email_changes set
      used_at = coalesce(used_at, now()), token_hash = null, new_email = ${`closed:${compactId}`}
    where user_id = ${userId}`);
  // The account's own messages (reset links, change notices) lose the person too; order and
  // refund messages stay with their orders, which are tax records. One still waiting is not sent.
  await tx.execute(sql`
    update emails set
      to_address = ${`closed:${compactId}`},
      data = data || jsonb_build_object('name', ${CLOSED_ACCOUNT_NAME}::text)
        || case when data ? 'newEmail' then jsonb_build_object('newEmail', null) else '{}'::jsonb end,
      html = null, text_body = null,
      status = case when status in ('queued', 'retrying') then 'failed' else status end,
      last_error = case when status in ('queued', 'retrying') then 'Not sent: the account was closed' else last_error end,
      next_attempt_at = null
    where (kind in ('account_changed', 'signup_attempt', 'login_failures') and lower(to_address) = lower(${proven}))
      or (kind = 'password_reset' and event_key in (select id::text from password_resets where user_id = ${userId}))`);
  await tx
    .update(users)
    .set({
      username: `closed:${compactId}`,
      email: `closed:${compactId}`,
      fullName: CLOSED_ACCOUNT_NAME,
      phone: "",
      address: "",
      city: "",
      zipCode: "",
      altPhone: "",
      complex: "",
      suburb: "",
      province: "",
      deliveryInstructions: "",
      passwordHash: CLOSED_PASSWORD_HASH,
      isAdmin: false,
      closedAt: sql`now()`,
    })
    .where(eq(users.id, userId));
  await tx.delete(sessions).where(eq(sessions.userId, userId));
  // The children kept for the size finder go with the profile (the row stays, so no cascade does it).
  await tx.delete(childProfiles).where(eq(childProfiles.userId, userId));
  // Nappy plans end with the account; the plans' sweep ends their card tokens at PayFast.
  await tx
    .update(plans)
    .set({ status: "cancelled", pausedUntil: null, cancelledAt: sql`now()`, cancelReason: "account_closed" })
    .where(and(eq(plans.userId, userId), ne(plans.status, "cancelled")));
  // The audit trail keeps what was done and when, but not who the person was: their old username
  // as actor, and the values of their profile changes (name, e-mail, phone, address), go too.
  await tx
    .update(auditLog)
    .set({ actorUsername: `closed:${compactId}` })
    .where(eq(auditLog.actorId, userId));
  await tx.execute(sql`
    update audit_log set
      before = (select jsonb_object_agg(key, ${REMOVED}::text) from jsonb_each(before)),
      after = (select jsonb_object_agg(key, ${REMOVED}::text) from jsonb_each(after))
    where subject_type = 'user' and subject_id = ${userId}
      and action in ('user.profile_updated', 'user.email_changed', 'user.email_change_requested')`);
  await closeOpenResets(tx, userId);
  await anonymisePayfastNotifications(tx, sql`order_id in (select id from orders where user_id = ${userId})`);
  const [kept] = await tx.select({ count: sql<number>`count(*)::int` }).from(orders).where(eq(orders.userId, userId));
  const ordersKept = kept?.count ?? 0;
  // Nothing personal in the record: it outlives the anonymised profile.
  await recordAudit(tx, request, {
    action: "user.account_closed",
    actor: { id: userId, username: `closed:${compactId}` },
    subject: { type: "user", id: userId },
    after: { sessionsEnded: true, ordersKept },
  });
  return { ordersKept };
}
