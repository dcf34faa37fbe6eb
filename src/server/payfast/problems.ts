import { and, eq, isNull, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../platform/db/client.js";
import { type PayfastProblemKind, payfastProblems } from "../platform/db/schema.js";
import { storable } from "../platform/db/storable.js";

/**
 * Problems between the shop and PayFast that no single payment shows (PayFast's API not
 * answering, the live start's ping failing, none of PayFast's hosts resolving): one open row per
 * kind while it lasts, in the admin's "Needs attention", cleared by the check that finds it working.
 * The owner's alert checks (alerts/checks.ts) mail each open problem once, and its end.
 */

/** Opens the problem (or notes it again); `since` stays the moment it started. */
export async function reportPayfastProblem(db: Database, kind: PayfastProblemKind, detail: string): Promise<void> {
  await db
    .insert(payfastProblems)
    .values({ kind, detail: storable(detail, 500) })
    .onConflictDoUpdate({
      target: payfastProblems.kind,
      set: {
        detail: storable(detail, 500),
        lastSeenAt: sql`now()`,
        since: sql`case when ${payfastProblems.clearedAt} is null then ${payfastProblems.since} else now() end`,
        clearedAt: null,
      },
    });
}

/** Closes the problem, if open. */
export async function clearPayfastProblem(db: Database, kind: PayfastProblemKind): Promise<void> {
  await db
    .update(payfastProblems)
    .set({ clearedAt: sql`now()` })
    .where(and(eq(payfastProblems.kind, kind), isNull(payfastProblems.clearedAt)));
}

/** The problems open now, oldest first. */
export async function openPayfastProblems(db: Database) {
  return db.select().from(payfastProblems).where(isNull(payfastProblems.clearedAt)).orderBy(payfastProblems.since);
}

/** Runs a check that may fail, keeping the problem row in step with its outcome; never throws from the bookkeeping. */
export async function trackPayfastProblem(
  db: Database,
  log: FastifyBaseLogger,
  kind: PayfastProblemKind,
  outcome: { ok: true } | { ok: false; detail: string },
): Promise<void> {
  try {
    if (outcome.ok) await clearPayfastProblem(db, kind);
    else await reportPayfastProblem(db, kind, outcome.detail);
  } catch (error) {
    log.warn({ err: error, kind }, "PayFast problem could not be recorded");
  }
}
