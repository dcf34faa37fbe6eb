import type { TestApp } from "./app.js";

export interface AuditRow {
  id: number;
  at: Date;
  actor_id: string | null;
  actor_username: string | null;
  address: string | null;
  action: string;
  subject_type: string | null;
  subject_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The audit records of one action (optionally about one subject), oldest first, straight from the table. */
export async function auditRecords(t: TestApp, action: string, subjectId?: string): Promise<AuditRow[]> {
  const { rows } = await t.pool.query<AuditRow>(
    `select id, at, actor_id, actor_username, address, action, subject_type, subject_id, before, after
     from audit_log where action = $1 and ($2::text is null or subject_id = $2) order by id`,
    [action, subjectId ?? null],
  );
  return rows;
}

/** The only record of `action` (about `subjectId`), failing when there is none or more than one. */
export async function onlyAuditRecord(t: TestApp, action: string, subjectId?: string): Promise<AuditRow> {
  const rows = await auditRecords(t, action, subjectId);
  if (rows.length !== 1) throw new Error(`expected one ${action} record, found ${rows.length}`);
  return rows[0] as AuditRow;
}

/** A moment ago and now: an audit record's time must fall between them. */
export function within(record: AuditRow, since: number) {
  const at = record.at.getTime();
  return at >= since - 1000 && at <= Date.now() + 1000;
}
