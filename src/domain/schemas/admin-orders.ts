import { z } from "zod";
import {
  ADMIN_ORDER_CURSOR_MAX,
  ADMIN_ORDER_PAGE_MAX,
  ADMIN_ORDER_PAGE_SIZE,
  DATE_FILTER_TEXT_MAX,
  ORDER_SEARCH_MAX,
  ORDER_SEARCH_MIN,
} from "../limits.js";
import { ORDER_STATUSES } from "../order-status.js";
import { VAT_CLASSES } from "../vat.js";
import { auditEntry } from "./audit.js";
import { EMAIL_KIND_NAMES, EMAIL_STATUS_NAMES } from "./emails.js";
import { adminOrder } from "./orders.js";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar date is a day in South Africa (UTC+2 all year: no daylight saving). */
const SA_OFFSET = "+02:00";

/**
 * A moment as the query string carries it: an ISO 8601 date-time with its offset
 * ("2025-11-01T00:00:00.000Z"), or a calendar date ("2025-11-01"), which means that day in
 * South Africa: its start for `from`, its end for `to` (so from=to=a date is that whole day).
 */
const moment = (field: string, end: boolean) =>
  z
    .string()
    .trim()
    .max(DATE_FILTER_TEXT_MAX, `${field} must be a date`)
    .transform((value, context) => {
      const iso = DATE_ONLY.test(value) ? `${value}T00:00:00${SA_OFFSET}` : value;
      const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(iso)
        ? Date.parse(iso)
        : Number.NaN;
      const date = new Date(time + (DATE_ONLY.test(value) && end ? 86_400_000 : 0));
      if (Number.isNaN(time) || Number.isNaN(date.getTime()) || !sameCalendarDate(value)) {
        context.addIssue({
          code: "custom",
          message: `${field} must be a date (2025-11-01) or an ISO date-time with its offset`,
        });
        return z.NEVER;
      }
      return date;
    });

/** Refuses 2025-02-30, which Date.parse would roll over into March. */
function sameCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const dateRange = {
  /** Orders placed at or after this moment. */
  from: moment("from", false).optional(),
  /** Orders placed before this moment (a calendar date: up to the end of that day). */
  to: moment("to", true).optional(),
};

const fromBeforeTo = (range: { from?: Date | undefined; to?: Date | undefined }) =>
  !range.from || !range.to || range.from.getTime() < range.to.getTime();
const FROM_AFTER_TO = { message: "from must be before to", path: ["from"] };

/** GET /api/admin/orders and /api/admin/orders/preparing: one page, newest first. */
export const adminOrderListQuery = z
  .object({
    limit: z.coerce
      .number({ message: "limit must be a number" })
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(ADMIN_ORDER_PAGE_MAX, `limit must be at most ${ADMIN_ORDER_PAGE_MAX}`)
      .default(ADMIN_ORDER_PAGE_SIZE),
    /** The previous page's `nextCursor`, as it was given: opaque to clients. */
    cursor: z.string().max(ADMIN_ORDER_CURSOR_MAX, "cursor is not valid").optional(),
    status: z.enum(ORDER_STATUSES, { message: "status must be pending, completed, processed or cancelled" }).optional(),
    /** The order number (with or without #), or part of the customer's e-mail, name or phone. */
    q: z
      .string()
      .trim()
      .max(ORDER_SEARCH_MAX, `q must be at most ${ORDER_SEARCH_MAX} characters`)
      .optional()
      .transform((value) => value || undefined)
      .refine((value) => value === undefined || value.replace(/^#/, "").length >= ORDER_SEARCH_MIN, {
        message: `q must be at least ${ORDER_SEARCH_MIN} characters`,
      }),
    ...dateRange,
  })
  .refine(fromBeforeTo, FROM_AFTER_TO);
export type AdminOrderListQuery = z.input<typeof adminOrderListQuery>;

/**
 * The Orders tab's filters (a range, a status, a search), once: as the browser sends them
 * (moments as ISO text) and as the server reads them (moments as dates).
 */
type FilterName = "from" | "to" | "status" | "q";
export type OrderFilters = Pick<AdminOrderListQuery, FilterName>;
export type ParsedOrderFilters = Partial<Pick<z.infer<typeof adminOrderListQuery>, FilterName>>;

export const adminOrderPage = z.object({
  orders: z.array(adminOrder),
  /** Give it back as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AdminOrderPage = z.infer<typeof adminOrderPage>;

/** GET /api/admin/orders/summary and /api/admin/orders.csv: a date range. */
export const orderRangeQuery = z.object(dateRange).refine(fromBeforeTo, FROM_AFTER_TO);

/** The Orders tab's figures for a date range, counted by the database. */
export const orderSummary = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  paid: z.number().int(),
  shipped: z.number().int(),
  cancelled: z.number().int(),
  /** Paid and shipped orders' totals, "1299.00". */
  revenue: z.string(),
});
export type OrderSummary = z.infer<typeof orderSummary>;

/** A PayFast notification (or a reconciliation finding) about the order, with what the shop made of it. */
export const orderPaymentEvent = z.object({
  id: z.number().int(),
  receivedAt: z.string(),
  via: z.enum(["itn", "reconcile"]),
  paymentStatus: z.string().nullable(),
  amountGross: z.string().nullable(),
  pfPaymentId: z.string().nullable(),
  outcome: z.string(),
  reason: z.string().nullable(),
});
export type OrderPaymentEvent = z.infer<typeof orderPaymentEvent>;

export const orderEmail = z.object({
  id: z.number().int(),
  kind: z.enum(EMAIL_KIND_NAMES),
  to: z.string(),
  subject: z.string(),
  status: z.enum(EMAIL_STATUS_NAMES),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OrderEmail = z.infer<typeof orderEmail>;

/** GET /api/admin/orders/{id}: the order with everything an admin needs to answer a customer. */
export const adminOrderDetail = z.object({
  order: adminOrder,
  /** The account that placed it; null for a guest or a deleted account. */
  customer: z
    .object({
      id: z.string(),
      username: z.string(),
      fullName: z.string(),
      email: z.string(),
      phone: z.string(),
      /** When the customer closed the account: its details are gone, the order is kept. */
      closedAt: z.string().nullable(),
    })
    .nullable(),
  /** When the retention job replaced the order's delivery details (RETENTION_YEARS after its tax year). */
  anonymisedAt: z.string().nullable(),
  /** "itn", "reconcile" or "admin": how it became paid; null while unpaid. */
  paidBy: z.enum(["itn", "reconcile", "admin"]).nullable(),
  shippedAt: z.string().nullable(),
  payments: z.array(orderPaymentEvent),
  emails: z.array(orderEmail),
  /** What admins (and the shopper, cancelling) did to the order, from the audit trail, newest first. */
  activity: z.array(auditEntry),
  /** Each line's VAT class and rate as stored when it was sold, in the order of `order.items`, as the invoice shows them. */
  lineVat: z.array(z.object({ vatClass: z.enum(VAT_CLASSES), vatRateBp: z.number().int() })),
  /** The delivery fee's rate (standard). */
  deliveryVatRateBp: z.number().int(),
  /** The tax documents as issued (docs/decisions/035): invoices newest first (a correction names the one it replaces), then credit notes. */
  documents: z.array(
    z.object({
      kind: z.enum(["invoice", "credit_note"]),
      /** "INV-000002", "CN-000001". */
      number: z.string(),
      replaces: z.string().nullable(),
      issuedAt: z.string(),
      /** "issue", or "first_use": issued before documents were stored, frozen the first time it was needed. */
      frozen: z.enum(["issue", "first_use"]),
      downloads: z.number().int(),
      /** Where to download it (a download counts, and any after the first is marked "Copy"). */
      url: z.string(),
    }),
  ),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetail>;
