import { z } from "zod";
import {
  MAX_LINE_QUANTITY,
  ORDER_LINES_MAX,
  REFUND_MAX_CENTS,
  RETURN_DETAILS_MAX,
  RETURN_NOTE_MAX,
} from "../limits.js";
import { CUSTOMER_REASONS, RECEIPT_BASES, RETURN_REASONS, RETURN_STATUSES, type ReasonWindow } from "../returns.js";
import { requiredText, text } from "./common.js";

/** A line of an order as returns name it: the order line's id and how many units. */
const returnLineInput = z.object({
  lineId: z
    .number({ message: "lines[].lineId must be a number" })
    .int("lines[].lineId must be a whole number")
    .min(1, "lines[].lineId must be a line of the order"),
  quantity: z
    .number({ message: "lines[].quantity must be a number" })
    .int("lines[].quantity must be a whole number")
    .min(1, "lines[].quantity must be at least 1")
    .max(MAX_LINE_QUANTITY, `lines[].quantity must be at most ${MAX_LINE_QUANTITY}`),
});

/** A South African calendar day as a date field gives it. */
const calendarDay = (name: string) =>
  z
    .string({ message: `${name} must be a day (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be YYYY-MM-DD`)
    .refine((value) => {
      const instant = Date.parse(`${value}T00:00:00Z`);
      return !Number.isNaN(instant) && new Date(instant).toISOString().startsWith(value);
    }, `${name} must be a real day`);

/** POST /api/orders/{id}/returns: lines for the reasons that send goods back; words for a complaint. */
export const createReturnInput = z.object({
  reason: z.enum(CUSTOMER_REASONS, { message: `reason must be one of ${CUSTOMER_REASONS.join(", ")}` }),
  lines: z.array(returnLineInput).max(ORDER_LINES_MAX, `lines must hold at most ${ORDER_LINES_MAX} lines`).default([]),
  details: text(RETURN_DETAILS_MAX).default(""),
  /**
   * The day the customer received the goods (South African): asked for a return or a defect when
   * no delivery was recorded, the day the windows count from (ECTA s44(1)); ignored otherwise.
   */
  receivedOn: calendarDay("receivedOn").optional(),
});
export type CreateReturnInput = z.input<typeof createReturnInput>;

const day = z.string();

export const returnRequestLine = z.object({
  lineId: z.number().int(),
  name: z.string(),
  size: z.string(),
  quantity: z.number().int(),
  unitPrice: z.string(),
  restocked: z.number().int(),
});

export const returnRequestEvent = z.object({
  status: z.enum(RETURN_STATUSES),
  note: z.string().nullable(),
  at: z.string(),
  /** The admin's username for the shop's steps; null for the customer's own and the shop's automatic ones. */
  by: z.string().nullable(),
});

/** A request as its customer sees it. */
export const returnRequest = z.object({
  id: z.string(),
  reference: z.string(),
  orderId: z.string(),
  orderNumber: z.string(),
  reason: z.enum(RETURN_REASONS),
  details: z.string(),
  status: z.enum(RETURN_STATUSES),
  openedBy: z.enum(["customer", "shop"]),
  createdAt: z.string(),
  deadlineKind: z.enum(["refund_30_days", "resolve_15_business_days"]),
  /** The last South African day the shop has; the deadline is that day's end (deadlineAt). */
  deadlineDay: day,
  deadlineAt: z.string(),
  /** What the shop will refund, decided by the server ("0.00" for a complaint: the admin decides). */
  offeredRefund: z.string(),
  instructions: z.string().nullable(),
  decision: z.string().nullable(),
  /** When the shop first decided (accepted, declined, or settled it outright) and when it closed. */
  decidedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  lines: z.array(returnRequestLine),
  history: z.array(returnRequestEvent),
  /** The day the goods were received that the windows counted from, and whose word it is; null when no goods were named. */
  receivedOn: day.nullable(),
  receivedBasis: z.enum(RECEIPT_BASES).nullable(),
});
export type ReturnRequest = z.infer<typeof returnRequest>;

/** A request in the admin's list: with its customer. */
export const adminReturnRequest = returnRequest.extend({
  customerName: z.string(),
  customerEmail: z.string(),
  orderStatus: z.string(),
});
export type AdminReturnRequest = z.infer<typeof adminReturnRequest>;

const reasonWindow = z.object({
  reason: z.enum(CUSTOMER_REASONS),
  open: z.boolean(),
  lastDay: day.nullable(),
  closedBecause: z.string().nullable(),
}) satisfies z.ZodType<ReasonWindow>;

/** GET /api/orders/{id}/returns: what the customer may ask today, per reason and per line, and the requests so far. */
export const orderReturns = z.object({
  orderId: z.string(),
  orderStatus: z.string(),
  /** The recorded delivery day the windows count from; null when none was recorded (then the form asks the customer). */
  deliveryDay: day.nullable(),
  deliveryRecorded: z.boolean(),
  /** The earliest day the goods can have been received (the day they were sent); null before shipping. */
  sentOn: day.nullable(),
  windows: z.array(reasonWindow),
  lines: z.array(
    z.object({
      lineId: z.number().int(),
      name: z.string(),
      size: z.string(),
      bought: z.number().int(),
      /** Units not yet in a request (declined ones give theirs back). */
      available: z.number().int(),
    }),
  ),
  requests: z.array(returnRequest),
});
export type OrderReturns = z.infer<typeof orderReturns>;

/** GET /api/admin/returns. */
export const adminReturnListQuery = z.object({
  status: z.enum(["open", "closed", "all"], { message: "status must be open, closed or all" }).default("open"),
  /** One order's requests (the order's page). */
  orderId: z.uuid({ message: "orderId must be a valid id" }).optional(),
});

export const acceptReturnInput = z.object({ note: text(RETURN_NOTE_MAX).optional() });
export const declineReturnInput = z.object({ reason: requiredText("reason", RETURN_NOTE_MAX) });
export const receiveReturnInput = z.object({
  /** Units to put back on the shelf, per line (none: nothing restocked). */
  restock: z
    .array(returnLineInput.extend({ quantity: returnLineInput.shape.quantity.min(0) }))
    .max(ORDER_LINES_MAX)
    .default([]),
});
export const refundReturnInput = z.object({
  /** Only for defects and complaints; a cancellation's amount is fixed by the server. */
  amountCents: z
    .number({ message: "amountCents must be a number of cents" })
    .int("amountCents must be a whole number of cents")
    .min(1, "amountCents must be at least 1")
    .max(REFUND_MAX_CENTS, "amountCents is larger than any order")
    .optional(),
});
export const exchangeReturnInput = z.object({ note: requiredText("note", RETURN_NOTE_MAX) });
export const resolveReturnInput = z.object({ outcome: requiredText("outcome", RETURN_NOTE_MAX) });

/** POST /api/admin/orders/{id}/delivered: the day it was delivered (South African), today when left out. */
export const markDeliveredInput = z.object({
  deliveredOn: calendarDay("deliveredOn").optional(),
});
