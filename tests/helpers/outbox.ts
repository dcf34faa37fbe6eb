import { type SubjectSource, subjectFor } from "#server/mail/subjects.js";
import type { TestApp } from "./app.js";

/**
 * Outbox rows read straight from the table, each with the subject the shop shows for it
 * (mail/subjects.ts `subjectFor`): the one it went out with, or, still queued, the one the sender
 * will give it. The jobs engine may be sending a row while a test reads it, so a test never relies
 * on which of the two it finds.
 */
export function withSubjects<R extends SubjectSource>(t: Pick<TestApp, "app">, rows: R[]): (R & { subject: string })[] {
  return rows.map((row) => ({ ...row, subject: subjectFor(row, t.app.config.shop.name) }));
}
