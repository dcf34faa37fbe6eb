import { and, eq, isNull, sql } from "drizzle-orm";
import { greetsByName } from "../mail/greeting.js";
import type { AccountChangedData } from "../mail/messages.js";
import { enqueueEmail } from "../mail/outbox.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { passwordResets } from "../platform/db/schema.js";

/**
 * Writes the "your account was changed" notice in the change's own transaction, so it exists
 * exactly when the change does. `eventKey` names this one change (the outbox keeps one message per
 * kind and event).
 */
export async function enqueueAccountChanged(
  tx: Database | Transaction,
  notice: { to: string; eventKey: string; userId: string } & Omit<AccountChangedData, "greetByName">,
): Promise<void> {
  const { to, eventKey, userId, ...data } = notice;
  const greetByName = await greetsByName(tx, userId, to);
  await enqueueEmail(tx, { kind: "account_changed", eventKey, to, data: { ...data, greetByName } });
}

/**
 * Ends every reset link of a user not used yet: after a new password or a new address, a link
 * mailed earlier (perhaps to an old mailbox) must not set the password any more.
 */
export async function closeOpenResets(tx: Database | Transaction, userId: string): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}
