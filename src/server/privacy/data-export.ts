import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.js";
import { emails, passwordResets, refunds, returnRequests, sessions } from "../db/schema.js";
import { RETURN_UPDATE_STEPS } from "../mail/messages.js";
import { listOrdersForUser } from "../orders/queries.js";
import { forCustomer, listReturnRequests } from "../returns/queries.js";
import { findUserById, toUser } from "../users/queries.js";
import { consentHistory } from "./consents.js";

/**
 * Everything the shop holds about one customer (POPIA s23), as one JSON document: the account,
 * its orders with their lines, statuses and refunds, its returns, cancellations and complaints
 * (with their words and history), the e-mails the shop wrote to them, their marketing consents and
 * their sessions. No secret goes in: no password hash, no token or its hash, no reset link. Only
 * rows that belong to this account are read: its own id, its orders', refunds' and requests' ids,
 * its reset requests' ids.
 */
export async function buildDataExport(
  db: Database,
  userId: string,
  { shopName, currentSessionHash }: { shopName: string; currentSessionHash: string },
) {
  const account = await findUserById(db, userId);
  if (!account) throw new Error(`no user ${userId}`);
  const orders = await listOrdersForUser(db, userId);
  const orderIds = orders.map((order) => order.id);
  const refundIds = orderIds.length
    ? (await db.select({ id: refunds.id }).from(refunds).where(inArray(refunds.orderId, orderIds))).map((r) => r.id)
    : [];
  // Returns, cancellations and complaints (docs/returns.md), as the customer sees them on the order.
  const requests = orderIds.length
    ? (await listReturnRequests(db, inArray(returnRequests.orderId, orderIds), 100_000)).map(forCustomer)
    : [];
  // Their messages are keyed "{request}:{step}", one per step (returns/email.ts).
  const requestKeys = requests.flatMap((request) => RETURN_UPDATE_STEPS.map((step) => `${request.id}:${step}`));
  const resetIds = (
    await db.select({ id: passwordResets.id }).from(passwordResets).where(eq(passwordResets.userId, userId))
  ).map((row) => row.id);

  // Order and refund messages are keyed by their order or refund, reset links by their request;
  // return updates by their request and step;
  // account notices carry no key of the account, so they are the ones sent to its address.
  const eventKeys = [...orderIds, ...refundIds];
  const messages = await db
    .select({
      kind: emails.kind,
      eventKey: emails.eventKey,
      to: emails.toAddress,
      subject: emails.subject,
      status: emails.status,
      createdAt: emails.createdAt,
      sentAt: emails.sentAt,
      text: emails.textBody,
    })
    .from(emails)
    .where(
      or(
        and(
          inArray(emails.kind, ["order_confirmation", "order_shipped", "order_refunded"]),
          eventKeys.length ? inArray(emails.eventKey, eventKeys) : sql`false`,
        ),
        and(eq(emails.kind, "return_update"), requestKeys.length ? inArray(emails.eventKey, requestKeys) : sql`false`),
        and(eq(emails.kind, "password_reset"), resetIds.length ? inArray(emails.eventKey, resetIds) : sql`false`),
        and(eq(emails.kind, "account_changed"), sql`lower(${emails.toAddress}) = lower(${account.email})`),
      ),
    )
    .orderBy(emails.id);

  const sessionRows = await db
    .select({
      tokenHash: sessions.tokenHash,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(sessions.createdAt);

  const consents = await consentHistory(db, userId);

  return {
    about: `Everything ${shopName} holds about your account, as of the moment it was exported.`,
    exportedAt: new Date().toISOString(),
    account: toUser(account),
    orders,
    returnRequests: requests,
    emails: messages.map(({ eventKey: _key, text, ...message }) => ({
      ...message,
      createdAt: message.createdAt.toISOString(),
      sentAt: message.sentAt?.toISOString() ?? null,
      // A reset message's text holds its link: whoever has this file must not be able to use it.
      text: message.kind === "password_reset" ? null : text,
    })),
    marketingConsents: consents.map((row) => ({
      channel: row.channel,
      granted: row.granted,
      words: row.words,
      source: row.source,
      at: row.createdAt.toISOString(),
    })),
    sessions: sessionRows.map((row) => ({
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      thisDevice: row.tokenHash === currentSessionHash,
    })),
  };
}
