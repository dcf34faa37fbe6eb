import { z } from "zod";
import { ADMIN_SEARCH_MAX } from "../limits.js";
import { pageCursor } from "./customers.js";

/** GET /api/admin/audit: newest first; `q` matches the actor's username, the action, the subject's id or the address. */
export const auditListQuery = z.object({
  q: z.string().trim().max(ADMIN_SEARCH_MAX, `q must be at most ${ADMIN_SEARCH_MAX} characters`).optional(),
  cursor: pageCursor,
});

/** One record of the audit trail (docs/decisions/011-audit-trail.md). */
export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  /** Who acted: their id and username as they were then; null for nobody known (a login naming no account). */
  actorId: z.string().nullable(),
  actorUsername: z.string().nullable(),
  address: z.string().nullable(),
  action: z.string(),
  subjectType: z.string().nullable(),
  subjectId: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  /** A repeated security event folded into this record: how many times, and the last (null when once). */
  repeatCount: z.number().int(),
  lastAt: z.string().nullable(),
  /** The caller's own X-Request-Id: what the client claimed, not the shop's request id. */
  clientRequestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditPage = z.object({ entries: z.array(auditEntry), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPage>;

/** The actions as an admin reads them in the Activity tab. */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  "order.status_changed": "Order status changed",
  "order.payment_confirmed": "Payment confirmed",
  "order.cancelled": "Order cancelled",
  "order.refunded": "Order refunded",
  "order.refund_refused": "Refund refused",
  "order.invoice_corrected": "Corrected invoice issued",
  "order.refund_recorded": "Refund made in PayFast recorded",
  "order.payfast_checked": "Checked with PayFast",
  "order.delivered": "Marked as delivered",
  "order.waybill_created": "Waybill created",
  "order.delivery_problem_resolved": "Delivery problem marked resolved",
  "return.requested": "Return or complaint requested",
  "return.opened_by_shop": "Paid, but out of stock: refund due",
  "return.accepted": "Request accepted",
  "return.declined": "Request declined",
  "return.received": "Returned goods received",
  "return.refunded": "Request refunded",
  "return.exchanged": "Exchange sent",
  "return.resolved": "Request resolved",
  "payment.attention_resolved": "Payment marked resolved",
  "product.created": "Product created",
  "product.updated": "Product updated",
  "product.deleted": "Product deleted",
  "category.created": "Category created",
  "category.updated": "Category updated",
  "category.deleted": "Category deleted",
  "user.admin_granted": "Made an admin",
  "user.admin_revoked": "Admin rights removed",
  "user.profile_updated": "Profile updated",
  "user.email_changed": "E-mail address changed",
  "user.email_change_requested": "New e-mail address asked for",
  "user.email_confirmed": "E-mail address confirmed",
  "user.disabled": "Account disabled",
  "user.enabled": "Account enabled",
  "email.resent": "E-mail resent",
  "auth.login_succeeded": "Logged in",
  "auth.login_failed": "Login failed",
  "auth.rate_limited": "Locked out for a minute",
  "auth.admin_refused": "Refused the admin panel",
  "auth.password_changed": "Password changed",
  "auth.password_reset": "Password reset",
  "user.data_exported": "Downloaded their data",
  "user.account_closed": "Closed their account",
  "user.marketing_consent_changed": "Marketing consent changed",
  "retention.orders_anonymised": "Old orders' delivery details anonymised",
  "auth.second_factor_enabled": "Two-step sign-in turned on",
  "auth.second_factor_disabled": "Two-step sign-in turned off",
  "auth.second_factor_reset": "Two-step sign-in reset by an admin",
  "auth.second_factor_failed": "Wrong sign-in code",
  "auth.second_factor_locked": "Sign-in codes locked after 10 wrong codes",
  "auth.sessions_ended": "Signed out other devices",
  "delivery_box.created": "Delivery box added",
  "delivery_box.updated": "Delivery box changed",
  "delivery_box.deleted": "Delivery box removed",
  "promo_code.created": "Promo code created",
  "promo_code.updated": "Promo code changed",
  "launch_checklist.ticked": "Before you open: item ticked",
  "launch_checklist.unticked": "Before you open: item unticked",
  "plan.paused": "Nappy plan paused by the shop",
  "plan.cancelled": "Nappy plan cancelled by the shop",
};
