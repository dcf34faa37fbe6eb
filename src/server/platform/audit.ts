import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { clientNetwork } from "./client-network.js";
import type { Database, Transaction } from "./db/client.js";
import { auditLog } from "./db/schema.js";
import { clientRequestId } from "./request-logging.js";

/**
 * Security events a script can repeat at will (each costs it one request): the same action by the
 * same actor (or, for nobody known, from the same network) within one FOLD_MINUTES window is one
 * row with a count, so a flood writes a bounded number of rows (docs/decisions/020-abuse-limits.md).
 */
export const FOLDED_ACTIONS: ReadonlySet<AuditAction> = new Set([
  "auth.admin_refused",
  "auth.login_failed",
  "auth.rate_limited",
  "auth.second_factor_failed",
]);
export const FOLD_MINUTES = 10;

/** Every kind of audit record (README.md beside this file says when each is written). */
export const AUDIT_ACTIONS = [
  "order.status_changed",
  "order.payment_confirmed",
  "order.cancelled",
  "order.refunded",
  "order.refund_refused",
  "order.invoice_corrected",
  "order.refund_recorded",
  "order.payfast_checked",
  "order.delivered",
  "order.waybill_created",
  "order.delivery_problem_resolved",
  "return.requested",
  "return.opened_by_shop",
  "return.accepted",
  "return.declined",
  "return.received",
  "return.refunded",
  "return.exchanged",
  "return.resolved",
  "payment.attention_resolved",
  "product.created",
  "product.updated",
  "product.deleted",
  "category.created",
  "category.updated",
  "category.deleted",
  "delivery_box.created",
  "delivery_box.updated",
  "delivery_box.deleted",
  "user.admin_granted",
  "user.admin_revoked",
  "user.profile_updated",
  "user.email_changed",
  "user.email_change_requested",
  "user.email_confirmed",
  "user.disabled",
  "user.enabled",
  "email.resent",
  "auth.login_succeeded",
  "auth.login_failed",
  "auth.rate_limited",
  "auth.admin_refused",
  "auth.password_changed",
  "auth.password_reset",
  "user.data_exported",
  "user.account_closed",
  "user.marketing_consent_changed",
  "retention.orders_anonymised",
  "auth.second_factor_enabled",
  "auth.second_factor_disabled",
  "auth.second_factor_reset",
  "auth.second_factor_failed",
  "auth.second_factor_locked",
  "auth.sessions_ended",
  "promo_code.created",
  "promo_code.updated",
  "launch_checklist.ticked",
  "launch_checklist.unticked",
  "plan.paused",
  "plan.cancelled",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditSubjectType =
  | "order"
  | "payment"
  | "product"
  | "category"
  | "delivery_box"
  | "user"
  | "email"
  | "retention"
  | "promo_code"
  | "launch_checklist"
  | "plan";

export interface AuditEntry {
  action: AuditAction;
  subject?: { type: AuditSubjectType; id: string };
  /** What the change replaced and what it made: only the fields that matter, never a secret. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /**
   * Who acted, when it is not the request's signed-in user: the account a login names, or null for
   * nobody known (a failed login naming no account). Default: request.user.
   */
  actor?: { id: string; username: string } | null;
}

/**
 * Writes one audit record. Call it with the transaction of the change it records, so the record
 * exists exactly when the change does (a rolled-back change leaves none, a committed one cannot
 * lack it). Security events that change nothing (a refused login, a 403) pass `db`.
 */
export async function recordAudit(
  tx: Database | Transaction,
  request: FastifyRequest,
  { action, subject, before = null, after = null, actor }: AuditEntry,
): Promise<void> {
  const who = actor === undefined ? request.user : actor;
  const row = {
    actorId: who?.id ?? null,
    actorUsername: who?.username ?? null,
    address: request.ip,
    requestId: request.id,
    clientRequestId: clientRequestId(request),
    action,
    subjectType: subject?.type ?? null,
    subjectId: subject?.id ?? null,
    before,
    after,
  };
  if (!FOLDED_ACTIONS.has(action)) {
    await tx.insert(auditLog).values(row);
    return;
  }
  const windowStart = Math.floor(Date.now() / (FOLD_MINUTES * 60_000));
  const whose = who ? `user:${who.id}` : `net:${clientNetwork(request.ip)}`;
  const foldKey = createHash("sha256")
    .update([action, whose, subject?.type ?? "", subject?.id ?? "", windowStart].join("\u0000"))
    .digest("base64url");
  await tx
    .insert(auditLog)
    .values({ ...row, foldKey, lastAt: sql`now()` })
    .onConflictDoUpdate({
      target: auditLog.foldKey,
      targetWhere: sql`${auditLog.foldKey} is not null`,
      set: { repeatCount: sql`${auditLog.repeatCount} + 1`, lastAt: sql`now()` },
    });
}

/**
 * Writes one audit record of work the shop did on its own (a job, a command run by hand): no
 * request, so no actor, address or request id; `source` says what did it.
 */
export async function recordSystemAudit(
  tx: Database | Transaction,
  { action, subject, before = null, after = null }: Omit<AuditEntry, "actor">,
  source: string,
): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: null,
    actorUsername: source,
    address: null,
    requestId: null,
    action,
    subjectType: subject?.type ?? null,
    subjectId: subject?.id ?? null,
    before,
    after,
  });
}

/** The fields of `after` that differ from `before`, each side with only those: what an update changed. */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: T,
): { before: Partial<T>; after: Partial<T> } | null {
  const was: Partial<T> = {};
  const now: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      was[key] = before[key];
      now[key] = after[key];
    }
  }
  return Object.keys(now).length === 0 ? null : { before: was, after: now };
}
