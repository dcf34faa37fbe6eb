import { desc, eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import {
  type ConsentChannel,
  type ConsentSource,
  marketingConsentWords,
  OFFERED_CONSENT_CHANNELS,
} from "#domain/consent.js";
import type { ChannelConsent } from "#domain/schemas/privacy.js";
import { recordAudit } from "../platform/audit.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { marketingConsents } from "../platform/db/schema.js";

type ConsentRow = typeof marketingConsents.$inferSelect;

/** Every consent record of a customer, oldest first: the history a data export hands over. */
export function consentHistory(db: Database | Transaction, userId: string): Promise<ConsentRow[]> {
  return db.select().from(marketingConsents).where(eq(marketingConsents.userId, userId)).orderBy(marketingConsents.id);
}

/** The newest record of each channel a customer ever answered. */
async function latestByChannel(db: Database | Transaction, userId: string): Promise<Map<ConsentChannel, ConsentRow>> {
  const rows = await db
    .selectDistinctOn([marketingConsents.channel])
    .from(marketingConsents)
    .where(eq(marketingConsents.userId, userId))
    .orderBy(marketingConsents.channel, desc(marketingConsents.id));
  return new Map(rows.map((row) => [row.channel, row]));
}

/** The customer's consent on each channel the shop offers: no record means no consent (opt-in). */
export async function currentConsents(db: Database, userId: string, shopName: string): Promise<ChannelConsent[]> {
  const latest = await latestByChannel(db, userId);
  return OFFERED_CONSENT_CHANNELS.map((channel) => {
    const row = latest.get(channel);
    return row
      ? {
          channel,
          granted: row.granted,
          words: row.words,
          changedAt: row.createdAt.toISOString(),
          source: row.source,
        }
      : { channel, granted: false, words: marketingConsentWords(channel, shopName), changedAt: null, source: null };
  });
}

export interface ConsentChange {
  userId: string;
  channel: ConsentChannel;
  granted: boolean;
  source: ConsentSource;
  shopName: string;
  /** Who made it, when not the request's signed-in user (a new account at sign-up). */
  actor?: { id: string; username: string };
}

/**
 * Records a change of consent with the exact words shown, who made it and from where, and audits
 * it, in the caller's transaction. Answering the same again is no change: nothing is written, and
 * false comes back. The customer's row is locked first, so two changes at once are ordered.
 */
export async function recordConsentChange(
  tx: Transaction,
  request: FastifyRequest,
  change: ConsentChange,
): Promise<boolean> {
  await tx.execute(sql`select 1 from users where id = ${change.userId} for update`);
  const current = (await latestByChannel(tx, change.userId)).get(change.channel);
  if ((current?.granted ?? false) === change.granted) return false;
  const words = marketingConsentWords(change.channel, change.shopName);
  await tx.insert(marketingConsents).values({
    userId: change.userId,
    channel: change.channel,
    granted: change.granted,
    words,
    source: change.source,
    actorId: change.actor?.id ?? request.user?.id ?? null,
    address: request.ip,
  });
  await recordAudit(tx, request, {
    action: "user.marketing_consent_changed",
    ...(change.actor ? { actor: change.actor } : {}),
    subject: { type: "user", id: change.userId },
    before: { channel: change.channel, granted: current?.granted ?? false },
    after: { channel: change.channel, granted: change.granted, source: change.source },
  });
  return true;
}

/** Withdraws every consent a customer has given (closing the account), recorded as each change is. */
export async function withdrawAllConsents(
  tx: Transaction,
  request: FastifyRequest,
  userId: string,
  source: ConsentSource,
  shopName: string,
): Promise<void> {
  const latest = await latestByChannel(tx, userId);
  for (const [channel, row] of latest) {
    if (row.granted) await recordConsentChange(tx, request, { userId, channel, granted: false, source, shopName });
  }
}
