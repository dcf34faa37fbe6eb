import { z } from "zod";
import { EMAIL_PAGE_MAX, EMAIL_PAGE_SIZE } from "../limits.js";

/** The kinds of message the shop sends: the outbox's list too (server/platform/db/schema.ts). */
export const EMAIL_KIND_NAMES = [
  "order_confirmation",
  "order_shipped",
  "order_refunded",
  "return_update",
  "password_reset",
  "account_changed",
  "owner_alert",
  "email_change",
  "stock_alert_confirm",
  "back_in_stock",
  "email_confirm",
  "signup_attempt",
  "login_failures",
  "plan_next_box",
  "delivery_update",
  "plan_charge_problem",
  "plan_changed_by_shop",
] as const;
export type EmailKindName = (typeof EMAIL_KIND_NAMES)[number];

/** Where a message is: the outbox's list too (server/platform/db/schema.ts says what each means). */
export const EMAIL_STATUS_NAMES = ["captured", "queued", "retrying", "sent", "failed"] as const;
export type EmailStatusName = (typeof EMAIL_STATUS_NAMES)[number];

export const EMAIL_KIND_LABELS: Record<EmailKindName, string> = {
  order_confirmation: "Order confirmation",
  order_shipped: "Order shipped",
  order_refunded: "Refund",
  return_update: "Return or complaint",
  password_reset: "Password reset",
  account_changed: "Account changed",
  owner_alert: "Alert to the owner",
  email_change: "Confirm new e-mail address",
  stock_alert_confirm: "Back-in-stock alert: confirm",
  back_in_stock: "Back in stock",
  email_confirm: "Confirm e-mail address (sign-up)",
  signup_attempt: "Sign-up with a customer's address",
  login_failures: "Wrong passwords tried",
  plan_next_box: "Nappy plan: your next box",
  delivery_update: "Delivery update",
  plan_charge_problem: "Nappy plan: box not charged",
  plan_changed_by_shop: "Nappy plan paused or cancelled by the shop",
};

export const EMAIL_STATUS_LABELS: Record<EmailStatusName, string> = {
  captured: "Captured",
  queued: "Queued",
  retrying: "Retrying",
  sent: "Sent",
  failed: "Failed",
};

/** An outbox id as the URL carries it: a positive whole number. */
const idText = (field: string) => z.string().regex(/^[1-9]\d{0,14}$/, `${field} must be a valid id`);

/** GET /api/admin/emails: newest first, a page at a time; `cursor` is the previous page's `nextCursor`. */
export const emailListQuery = z.object({
  limit: z.coerce
    .number({ message: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(EMAIL_PAGE_MAX, `limit must be at most ${EMAIL_PAGE_MAX}`)
    .default(EMAIL_PAGE_SIZE),
  cursor: idText("cursor").transform(Number).optional(),
});

export const emailIdParam = z.object({ id: idText("id").transform(Number) });

/** One message of the outbox, without its body. */
export const emailSummary = z.object({
  id: z.number().int(),
  kind: z.enum(EMAIL_KIND_NAMES),
  to: z.string(),
  subject: z.string(),
  status: z.enum(EMAIL_STATUS_NAMES),
  attempts: z.number().int(),
  /** Why the last attempt failed (retrying, failed); null otherwise. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /** When the sender tries next (queued, retrying); null once it is done. */
  nextAttemptAt: z.string().nullable(),
});
export type EmailSummary = z.infer<typeof emailSummary>;

export const emailPage = z.object({
  emails: z.array(emailSummary),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type EmailPage = z.infer<typeof emailPage>;

/** One message as the customer sees it: as delivered, or rendered now when it is not yet. */
export const emailMessage = emailSummary.extend({
  html: z.string(),
  text: z.string(),
});
export type EmailMessage = z.infer<typeof emailMessage>;
