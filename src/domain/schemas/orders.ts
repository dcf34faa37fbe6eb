import { z } from "zod";
import {
  COMPANY_NAME_MAX,
  COURIER_NAME_MAX,
  EMAIL_MAX,
  FULL_NAME_MAX,
  LINE_NAME_MAX,
  MAX_LINE_QUANTITY,
  ORDER_FIGURE_MAX_RAND,
  ORDER_LINES_MAX,
  ORDER_USER_ID_MAX,
  PAYFAST_REFERENCE_MAX,
  PLAN_LINK_TOKEN_MAX,
  PROMO_CODE_INPUT_MAX,
  REASON_MAX,
  REASON_MIN,
  REFUND_LINE_UNITS_MAX,
  REFUND_LINES_MAX,
  REFUND_MAX_CENTS,
  SIZE_NAME_MAX,
  TRACKING_NUMBER_MAX,
} from "../limits.js";
import { CANCEL_REASONS, ORDER_STATUSES } from "../order-status.js";
import { POLICY_KINDS } from "../policies.js";
import { REFUND_BASES } from "../refund-lines.js";
import { addressFields } from "./address.js";
import { requiredText, text } from "./common.js";
import { deliveryChoice, orderDelivery } from "./delivery.js";
import { planChoiceInput } from "./plans.js";

export { PROVINCES } from "./address.js";

/** A South African VAT registration number: 10 digits, the first a 4. */
export const SA_VAT_NUMBER = /^4\d{9}$/;

export const deliveryInfo = z.object({
  name: requiredText("name", FULL_NAME_MAX),
  email: requiredText("email", EMAIL_MAX).pipe(z.email({ message: "email must be a valid email address" })),
  ...addressFields,
  /** A business buyer's name and VAT number, both optional, printed on the tax invoice. */
  companyName: text(COMPANY_NAME_MAX)
    .optional()
    .transform((value) => value || null),
  vatNumber: z
    .string()
    .trim()
    .refine((value) => value === "" || SA_VAT_NUMBER.test(value), {
      message: "vatNumber must be a South African VAT number: 10 digits starting with 4",
    })
    .optional()
    .transform((value) => value || null),
});
export type DeliveryInfo = z.infer<typeof deliveryInfo>;

const money = (field: string) =>
  z
    .number({ message: `${field} must be a number` })
    .finite()
    .min(0, `${field} must not be negative`)
    .max(ORDER_FIGURE_MAX_RAND);

/** A cart line as the browser sends it: product fields plus size and quantity. */
export const orderLineInput = z.object({
  id: z.uuid({ message: "items[].id must be a valid product id" }),
  name: z.string().max(LINE_NAME_MAX).optional(),
  size: requiredText("items[].size", SIZE_NAME_MAX),
  quantity: z
    .number({ message: "items[].quantity must be a number" })
    .int("items[].quantity must be a whole number")
    .min(1, "items[].quantity must be at least 1")
    .max(MAX_LINE_QUANTITY, `items[].quantity must be at most ${MAX_LINE_QUANTITY}`),
  price: z.union([z.number(), z.string()]).optional(),
});

/** POST /api/create-order (docs/product.md §7). */
export const createOrderInput = z.object({
  subtotal: money("subtotal"),
  deliveryFee: money("deliveryFee"),
  total: money("total"),
  items: z
    .array(orderLineInput)
    .min(1, "items must hold at least one line")
    .max(ORDER_LINES_MAX, `items must hold at most ${ORDER_LINES_MAX} lines`),
  customerEmail: requiredText("customerEmail", EMAIL_MAX).pipe(
    z.email({ message: "customerEmail must be a valid email address" }),
  ),
  userId: z.string().max(ORDER_USER_ID_MAX).nullish(),
  deliveryInfo,
  /**
   * A promo code (docs/decisions/023): subtotal, deliveryFee and total are then the discounted figures.
   * The total is always net of the multi-buy saving the server works out (docs/decisions/047).
   */
  promoCode: z
    .string()
    .max(PROMO_CODE_INPUT_MAX, `promoCode must be at most ${PROMO_CODE_INPUT_MAX} characters`)
    .optional(),
  /**
   * How it travels (docs/decisions/051); absent: to the door by economy courier. The server prices
   * it itself; deliveryFee must be what the shopper saw for it.
   */
  delivery: deliveryChoice.optional(),
  /**
   * A nappy plan (docs/decisions/050): the cart is the plan's first box, every line at its plan
   * price (less the plan saving, no multi-buy tiers, no promo code), and these are the figures.
   */
  plan: planChoiceInput.optional(),
  /**
   * A reminder plan's pay link (the "your next box" e-mail): the cart is that plan's box, at plan
   * prices, and the order pays for it (src/server/plans/pay-link.ts). Not with `plan` or a promo code.
   */
  planPayLink: z
    .string()
    .trim()
    .min(1, "planPayLink must not be empty")
    .max(PLAN_LINK_TOKEN_MAX, "planPayLink is too long")
    .optional(),
});
export type CreateOrderInput = z.input<typeof createOrderInput>;

export const createOrderAnswer = z.object({
  orderId: z.string(),
  payfastData: z.record(z.string(), z.string()),
  payfastUrl: z.string(),
  /** The nappy plan the order starts, when it was placed with one. */
  planId: z.string().optional(),
});
export type CreateOrderAnswer = z.infer<typeof createOrderAnswer>;

export const orderItem = z.object({
  /** The product the line was bought from; null when the product has since been deleted. */
  productId: z.string().nullable(),
  name: z.string(),
  size: z.string(),
  quantity: z.number(),
  price: z.string(),
  /** Its share of a promo code's discount ("0.00" without one): the line was sold for price x quantity less this. */
  discount: z.string().optional(),
  /** Its share of its product's multi-buy saving ("0.00" without one), off price x quantity as the promo's is. */
  multibuyDiscount: z.string().optional(),
  /** The line's id: what a refund of chosen lines names (docs/decisions/036). */
  lineId: z.number().int().optional(),
});
export type OrderItem = z.infer<typeof orderItem>;

/** A refund is requested, then PayFast completed it or it failed (docs/decisions/009). */
export const REFUND_STATUS_NAMES = ["requested", "completed", "failed"] as const;

/** A refund of an order as the API answers it; a completed one has its credit note (CN-000001). */
export const refund = z.object({
  id: z.string(),
  amount: z.string(),
  reason: z.string(),
  restock: z.boolean(),
  status: z.enum(REFUND_STATUS_NAMES),
  /** PayFast's reason when it refused the refund. */
  payfastMessage: z.string().nullable(),
  /** "shop": through PayFast's Refunds API; "payfast_dashboard": made in PayFast's dashboard and recorded. */
  madeIn: z.enum(["shop", "payfast_dashboard"]),
  /** For a refund made in PayFast's dashboard: PayFast's reference and the day it was made. */
  payfastReference: z.string().nullable(),
  refundedOn: z.string().nullable(),
  creditNoteNumber: z.string().nullable(),
  createdAt: z.string(),
  /**
   * What its credit note credits (docs/decisions/036): "lines" chosen, "proportional" (spread over
   * the order), "legacy" (made before refunds recorded lines). With `lines` and the delivery fee's part.
   */
  vatBasis: z.enum(REFUND_BASES).optional(),
  lines: z.array(z.object({ lineId: z.number().int(), quantity: z.number().int(), amount: z.string() })).optional(),
  delivery: z.string().optional(),
});
export type Refund = z.infer<typeof refund>;

/** A policy version an order was placed under: the terms, return policy or privacy policy of that day. */
export const orderPolicy = z.object({
  kind: z.enum(POLICY_KINDS),
  title: z.string(),
  version: z.number(),
  effectiveDate: z.string(),
  /** The version's own address: /terms/v/2. */
  path: z.string(),
});
export type OrderPolicy = z.infer<typeof orderPolicy>;

/** An order as the API answers it (docs/product.md §3). */
export const order = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  status: z.enum(ORDER_STATUSES),
  subtotal: z.string(),
  deliveryFee: z.string(),
  total: z.string(),
  /** The promo code it was placed with, what it took off the goods and the delivery fee it waived (docs/decisions/023). */
  promoCode: z.string().nullable(),
  discount: z.string(),
  deliveryDiscount: z.string(),
  /** Off the goods by multi-buy tiers (docs/decisions/047): subtotal - multibuyDiscount - discount + deliveryFee = total. */
  multibuyDiscount: z.string().optional(),
  customerEmail: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  /**
   * PayFast's last word on a payment for this order while it waits: "FAILED" (the shopper may
   * try again) or "PENDING" (PayFast is still processing it); null otherwise.
   */
  payfastStatus: z.enum(["PENDING", "FAILED"]).nullable(),
  /** While PayFast reports the payment PENDING: until when the order keeps its items (ISO time); null otherwise. */
  holdUntil: z.string().nullable(),
  /** Why a cancelled order was cancelled; null for any other status. */
  cancelReason: z.enum(CANCEL_REASONS).nullable(),
  cancelledAt: z.string().nullable(),
  /** What the admin wrote when cancelling the order by hand. */
  cancelNote: z.string().nullable(),
  /** "INV-000001" once the order is paid (GET /api/orders/{id}/invoice.pdf); null before. */
  invoiceNumber: z.string().nullable(),
  companyName: z.string().nullable(),
  vatNumber: z.string().nullable(),
  /** Every refund of the order, oldest first, and how much completed ones gave back. */
  refunds: z.array(refund),
  refunded: z.string(),
  /** Given at Mark as Shipped (both optional), and the courier's tracking page when it is a known one. */
  courier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  /** "Mark as delivered" (optional): return windows count from it (docs/returns.md). */
  deliveredAt: z.string().nullable(),
  items: z.array(orderItem),
  deliveryName: z.string(),
  deliveryPhone: z.string(),
  deliveryAddress: z.string(),
  deliveryCity: z.string(),
  deliveryProvince: z.string(),
  deliveryZipCode: z.string(),
  /** "" for orders placed before the address had them. */
  deliverySuburb: z.string(),
  deliveryComplex: z.string(),
  deliveryInstructions: z.string(),
  deliveryAltPhone: z.string(),
  /** The delivery option chosen at checkout (docs/decisions/051). */
  delivery: orderDelivery,
  /** The terms, return policy and privacy policy in force when it was placed; empty for orders placed before policies were versioned. */
  policies: z.array(orderPolicy),
});
export type Order = z.infer<typeof order>;

/**
 * An order as the admin sees it: also how it became paid ("itn", "reconcile" or "admin", as
 * stored) and, when an admin marked it paid, that admin's username (null if the account is gone).
 */
export const adminOrder = order.extend({
  paidBy: z.enum(["itn", "reconcile", "admin"]).nullable(),
  paidByAdmin: z.string().nullable(),
});
export type AdminOrder = z.infer<typeof adminOrder>;

export const orderStatusInput = z.object({
  status: z.enum(ORDER_STATUSES, { message: "status must be pending, completed or processed" }),
  /** Mark as Shipped only, both optional: who carries the parcel and its tracking number. */
  courier: text(COURIER_NAME_MAX)
    .nullish()
    .transform((value) => value || null),
  trackingNumber: text(TRACKING_NUMBER_MAX)
    .nullish()
    .transform((value) => value || null),
});

/** POST /api/admin/orders/{id}/cancel. */
export const cancelOrderInput = z.object({ reason: requiredText("reason", REASON_MAX) });

const refundAmountCents = z
  .number({ message: "amountCents must be a number of cents" })
  .int("amountCents must be a whole number of cents")
  .min(1, "amountCents must be at least 1")
  .max(REFUND_MAX_CENTS, "amountCents is larger than any order");
const refundBase = z.object({
  amountCents: refundAmountCents,
  reason: requiredText("reason", REASON_MAX).refine(
    (value) => value.length >= REASON_MIN,
    `reason must be at least ${REASON_MIN} characters`,
  ),
  restock: z.boolean({ message: "restock must be true or false" }).default(false),
});

/** One order line a refund credits: how many units came back, and what is refunded of them when less than their price. */
export const refundLineInput = z.object({
  orderItemId: z
    .number({ message: "orderItemId must be a line's id" })
    .int()
    .positive("orderItemId must be a line's id"),
  quantity: z
    .number({ message: "quantity must be a number of units" })
    .int("quantity must be a whole number of units")
    .min(1, "quantity must be at least 1")
    .max(REFUND_LINE_UNITS_MAX, "quantity is more than any order has"),
  amountCents: z
    .number({ message: "amountCents of a line must be a number of cents" })
    .int("amountCents of a line must be a whole number of cents")
    .min(0, "amountCents of a line must not be negative")
    .max(REFUND_MAX_CENTS, "amountCents of a line is larger than any order")
    .optional(),
});
export type RefundLineInput = z.infer<typeof refundLineInput>;

/**
 * POST /api/admin/orders/{id}/refund (docs/decisions/036): the lines, units and delivery fee
 * refunded (the amount is their sum, and must equal it when given); or, with no lines, an amount
 * spread over the order in proportion, recorded as such. Why (PayFast wants 3-255 characters), and
 * whether the units go back on the shelf.
 */
export const refundOrderInput = refundBase
  .extend({
    amountCents: refundAmountCents.optional(),
    lines: z.array(refundLineInput).max(REFUND_LINES_MAX, `at most ${REFUND_LINES_MAX} lines`).optional(),
    deliveryCents: z
      .number({ message: "deliveryCents must be a number of cents" })
      .int("deliveryCents must be a whole number of cents")
      .min(0, "deliveryCents must not be negative")
      .max(REFUND_MAX_CENTS, "deliveryCents is larger than any delivery fee")
      .optional(),
  })
  .refine((body) => body.amountCents !== undefined || (body.lines?.length ?? 0) > 0 || (body.deliveryCents ?? 0) > 0, {
    message: "Give the lines refunded, the delivery fee, or an amount (amountCents) to spread over the order",
    path: ["amountCents"],
  });
export type RefundOrderInput = z.input<typeof refundOrderInput>;

/** A real day written YYYY-MM-DD. */
const isoDay = (name: string) =>
  z
    .string({ message: `${name} is required (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be YYYY-MM-DD`)
    .refine(
      (value) =>
        !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
        new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      `${name} must be a real day`,
    );

/**
 * POST /api/admin/orders/{id}/refunds/record: a refund the admin made in PayFast's dashboard, as
 * PayFast shows it (the amount, the day, PayFast's reference), booked like the shop's own refunds.
 * The day may not be in the future (South African time, checked by the server).
 */
export const recordRefundInput = refundBase.extend({
  refundedOn: isoDay("refundedOn"),
  payfastReference: requiredText("payfastReference", PAYFAST_REFERENCE_MAX),
});
export type RecordRefundInput = z.input<typeof recordRefundInput>;

/** GET /api/orders/{id}/invoice.pdf?number=INV-000001: one of the order's invoices (a replaced one stays readable). */
export const invoiceQuery = z.object({
  number: z
    .string()
    .trim()
    .regex(/^INV-\d{1,9}$/, "number must be an invoice number such as INV-000001")
    .transform((value) => Number(value.slice(4)))
    .optional(),
});

/**
 * POST /api/admin/orders/{id}/invoice/corrections: a corrected invoice on request (VAT Act
 * s20(1B)). The buyer's particulars (a value replaces, empty removes, absent keeps), and whether
 * the seller's details are taken as set today; the amounts never change (that is a credit note).
 */
export const correctInvoiceInput = z.object({
  reason: requiredText("reason", REASON_MAX).refine(
    (value) => value.length >= REASON_MIN,
    `reason must be at least ${REASON_MIN} characters`,
  ),
  name: requiredText("name", FULL_NAME_MAX).optional(),
  companyName: text(COMPANY_NAME_MAX)
    .nullish()
    .transform((value) => (value === undefined ? undefined : value || null)),
  vatNumber: z
    .string()
    .trim()
    .refine((value) => value === "" || SA_VAT_NUMBER.test(value), {
      message: "vatNumber must be a South African VAT number: 10 digits starting with 4",
    })
    .nullish()
    .transform((value) => (value === undefined ? undefined : value || null)),
  sellerDetails: z.enum(["keep", "current"], { message: "sellerDetails must be keep or current" }).default("keep"),
});
export type CorrectInvoiceInput = z.input<typeof correctInvoiceInput>;

/** GET /api/admin/packing-slips.pdf?date=YYYY-MM-DD: a day in South African time. */
export const packingSlipsQuery = z.object({
  date: z
    .string({ message: "date is required (YYYY-MM-DD)" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "date must be YYYY-MM-DD")
    .refine(
      (value) =>
        !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
        new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      "date must be a real day",
    ),
});
