import { and, eq, inArray, or, sql } from "drizzle-orm";
import { findUserById, provenEmail, toUser } from "../auth/accounts.js";
import { consentHistory } from "../auth/consents.js";
import { RETURN_UPDATE_STEPS } from "../mail/messages.js";
import { subjectFor } from "../mail/subjects.js";
import { listOrdersForUser } from "../orders/queries.js";
import type { Database } from "../platform/db/client.js";
import {
  emails,
  passwordResets,
  products,
  refunds,
  returnRequests,
  sessions,
  stockAlerts,
} from "../platform/db/schema.js";
import { forCustomer, listReturnRequests } from "../returns/queries.js";
import { listChildren } from "../size-fit/children.js";

/** Messages found by the account's address, once proven its own: they carry no key of the account. */
const TO_THE_ADDRESS = [
  "account_changed",
  "signup_attempt",
  "login_failures",
  "stock_alert_confirm",
  "back_in_stock",
] as const;
/** Messages whose text holds a signed link (a reset, an alert's confirmation or its unsubscribe link). */
const WITH_SIGNED_LINKS = new Set(["password_reset", "stock_alert_confirm", "back_in_stock"]);

/**
 * Everything the shop holds about one customer (POPIA s23), as one JSON document: the account,
 * its orders with their lines, statuses and refunds, its returns, cancellations and complaints
 * (with their words and history), the children kept for the size finder, their back-in-stock alerts, the e-mails the shop wrote to them,
 * their marketing consents and their sessions. No secret goes in: no password hash, no token or
 * its hash, no link that carries one. Only rows that belong to this account are read: its own id,
 * its orders', refunds' and requests' ids, its reset requests' ids, and its address only once it is
 * proven the account's (docs/decisions/041): anyone can sign up with an address nobody uses yet, and
 * must not download what the shop sent a guest there.
 */
export async function buildDataExport(
  db: Database,
  userId: string,
  { shopName, currentSessionHash }: { shopName: string; currentSessionHash: string },
) {
  const account = await findUserById(db, userId);
  if (!account) throw new Error(`no user ${userId}`);
  const proven = await provenEmail(db, userId);
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

  const messages = await messagesFor(db, { orderIds, refundIds, requestKeys, resetIds, proven }, shopName);
  const accountSessions = await sessionsOf(db, userId, currentSessionHash);
  const consents = await consentHistory(db, userId);
  // The size finder's children (issue 42): their names, birth months and weights are personal too.
  const children = await listChildren(db, userId);
  const alerts = await alertsFor(db, userId, proven);

  return {
    about: `Everything ${shopName} holds about your account, as of the moment it was exported.`,
    exportedAt: new Date().toISOString(),
    account: { ...toUser(account), emailConfirmed: proven !== null },
    orders,
    returnRequests: requests,
    emails: messages,
    children,
    backInStockAlerts: alerts,
    marketingConsents: consents.map((row) => ({
      channel: row.channel,
      granted: row.granted,
      words: row.words,
      source: row.source,
      at: row.createdAt.toISOString(),
    })),
    sessions: accountSessions,
  };
}

/** The messages the shop wrote to this account, found only by keys that are its own (see buildDataExport). */
async function messagesFor(
  db: Database,
  {
    orderIds,
    refundIds,
    requestKeys,
    resetIds,
    proven,
  }: { orderIds: string[]; refundIds: string[]; requestKeys: string[]; resetIds: string[]; proven: string | null },
  shopName: string,
) {
  // Order and refund messages are keyed by their order or refund, reset links by their request;
  // return updates by their request and step;
  // account notices and back-in-stock messages carry no key of the account (an alert's row ends
  // when its message is written), so they are the ones sent to its address.
  const eventKeys = [...orderIds, ...refundIds];
  const rows = await db
    .select({
      kind: emails.kind,
      eventKey: emails.eventKey,
      to: emails.toAddress,
      subject: emails.subject,
      status: emails.status,
      createdAt: emails.createdAt,
      sentAt: emails.sentAt,
      text: emails.textBody,
      data: emails.data,
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
        proven
          ? and(inArray(emails.kind, TO_THE_ADDRESS), sql`lower(${emails.toAddress}) = lower(${proven})`)
          : sql`false`,
      ),
    )
    .orderBy(emails.id);
  return rows.map(({ eventKey: _key, text, data, ...message }) => ({
    ...message,
    // A queued message has no subject yet: the one it will be sent with.
    subject: subjectFor({ ...message, data }, shopName),
    createdAt: message.createdAt.toISOString(),
    sentAt: message.sentAt?.toISOString() ?? null,
    // These messages' texts hold signed links: whoever has this file must not be able to use them.
    text: WITH_SIGNED_LINKS.has(message.kind) ? null : text,
  }));
}

/** The account's sessions, without their token hashes; `thisDevice` marks the one exporting. */
async function sessionsOf(db: Database, userId: string, currentSessionHash: string) {
  const rows = await db
    .select({
      tokenHash: sessions.tokenHash,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(sessions.createdAt);
  return rows.map((row) => ({
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    thisDevice: row.tokenHash === currentSessionHash,
  }));
}

/** The account's back-in-stock alerts. */
async function alertsFor(db: Database, userId: string, proven: string | null) {
  // Alerts asked for while logged in, or for the account's proven address by anyone (it is theirs).
  const rows = await db
    .select({
      product: products.name,
      size: stockAlerts.size,
      email: stockAlerts.email,
      confirmedAt: stockAlerts.confirmedAt,
      createdAt: stockAlerts.createdAt,
    })
    .from(stockAlerts)
    .innerJoin(products, eq(products.id, stockAlerts.productId))
    .where(
      proven
        ? or(eq(stockAlerts.userId, userId), sql`lower(${stockAlerts.email}) = lower(${proven})`)
        : eq(stockAlerts.userId, userId),
    )
    .orderBy(stockAlerts.createdAt);
  return rows.map((row) => ({
    product: row.product,
    size: row.size,
    email: row.email,
    confirmed: row.confirmedAt !== null,
    askedAt: row.createdAt.toISOString(),
  }));
}
