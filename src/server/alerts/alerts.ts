import { sql } from "drizzle-orm";
import type pg from "pg";
import { enqueueEmail } from "../mail/outbox.js";
import type { Config } from "../platform/config.js";
import type { Database } from "../platform/db/client.js";

/** What raising or resolving an alert needs: the database, where alerts go, and the mail job to wake. */
export interface AlertContext {
  db: Database;
  pool: Pick<pg.Pool, "query">;
  config: Pick<Config, "alerts" | "shop">;
  /** Asks the mail job to send soon. */
  wake?: () => void;
}

export interface Problem {
  /** A short line for the subject: "Customer e-mails are failing". */
  title: string;
  /** What was seen and what to do about it. */
  detail: string;
}

/**
 * Raises the alert `key` (one problem: "email-failing", "payfast-unreachable", ...): the first
 * time, or again after it was resolved, one message goes to ALERT_EMAIL through the outbox; while
 * it stays raised, raising it again changes nothing. Answers whether a message was written.
 * Any part of the shop may call it (e.g. a start-up check of PayFast's API in live mode).
 */
export async function raiseAlert(context: AlertContext, key: string, problem: Problem): Promise<boolean> {
  const written = await context.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ raised_at: string }>(sql`
      insert into alerts (key, title, detail, raised_at) values (${key}, ${problem.title}, ${problem.detail}, now())
      on conflict (key) do update set title = excluded.title, detail = excluded.detail,
        raised_at = excluded.raised_at, resolved_at = null
      where alerts.resolved_at is not null
      returning raised_at`);
    if (!rows[0]) return false;
    const raisedAt = new Date(rows[0].raised_at);
    return enqueueEmail(tx, {
      kind: "owner_alert",
      eventKey: `${key}@${raisedAt.toISOString()}`,
      to: context.config.alerts.to,
      data: {
        key,
        state: "raised",
        title: problem.title,
        detail: problem.detail,
        raisedAt: raisedAt.toISOString(),
        resolvedAt: null,
      },
    });
  });
  if (written) context.wake?.();
  return written;
}

/** Resolves the alert `key` if it is raised: one "resolved" message, then nothing until it is raised again. */
export async function resolveAlert(context: AlertContext, key: string): Promise<boolean> {
  const written = await context.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ title: string; detail: string; raised_at: string; resolved_at: string }>(sql`
      update alerts set resolved_at = now() where key = ${key} and resolved_at is null
      returning title, detail, raised_at, resolved_at`);
    const found = rows[0];
    if (!found) return false;
    const row = { ...found, raised_at: new Date(found.raised_at), resolved_at: new Date(found.resolved_at) };
    return enqueueEmail(tx, {
      kind: "owner_alert",
      eventKey: `${key}@${row.raised_at.toISOString()}:resolved`,
      to: context.config.alerts.to,
      data: {
        key,
        state: "resolved",
        title: row.title,
        detail: row.detail,
        raisedAt: row.raised_at.toISOString(),
        resolvedAt: row.resolved_at.toISOString(),
      },
    });
  });
  if (written) context.wake?.();
  return written;
}

/** The alerts raised now, for the checks (which resolve those whose problem is gone). */
export async function raisedAlertKeys(context: Pick<AlertContext, "pool">): Promise<string[]> {
  const { rows } = await context.pool.query<{ key: string }>("select key from alerts where resolved_at is null");
  return rows.map((row) => row.key);
}
