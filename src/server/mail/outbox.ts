import { sql } from "drizzle-orm";
import type { Database, Transaction } from "../platform/db/client.js";
import { type EmailKind, emails } from "../platform/db/schema.js";
import type { EmailDataByKind } from "./messages.js";

export interface NewEmail<K extends EmailKind> {
  kind: K;
  /** The event the message is about: one message per kind and event, however often it is written. */
  eventKey: string;
  to: string;
  data: EmailDataByKind[K];
}

/**
 * Writes a message to the outbox, in the caller's transaction: it exists exactly when the event
 * does. Writing the same kind and event again changes nothing (an ITN repeated five times gives
 * one confirmation). The mail job (sender.ts) sends it, or captures it when there is no SMTP; it
 * writes the subject then, from the shop's name in the config (subjects.ts).
 * Answers whether a new message was written.
 */
export async function enqueueEmail<K extends EmailKind>(
  tx: Database | Transaction,
  email: NewEmail<K>,
): Promise<boolean> {
  const inserted = await tx
    .insert(emails)
    .values({
      kind: email.kind,
      eventKey: email.eventKey,
      toAddress: email.to,
      data: email.data as unknown as Record<string, unknown>,
      status: "queued",
      nextAttemptAt: sql`now()`,
    })
    .onConflictDoNothing({ target: [emails.kind, emails.eventKey] })
    .returning({ id: emails.id });
  return inserted.length > 0;
}
