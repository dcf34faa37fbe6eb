import { z } from "zod";
import {
  MAX_LINE_QUANTITY,
  PLAN_CADENCE_MAX_WEEKS,
  PLAN_CADENCE_MIN_WEEKS,
  PLAN_LINES_MAX,
  PLAN_LINK_TOKEN_MAX,
  SIZE_NAME_MAX,
} from "../limits.js";
import { PLAN_MODES, PLAN_STATUSES } from "../plans.js";

const cadenceWeeks = z
  .number({ message: "cadenceWeeks must be a number" })
  .int("cadenceWeeks must be a whole number")
  .min(PLAN_CADENCE_MIN_WEEKS, `cadenceWeeks must be at least ${PLAN_CADENCE_MIN_WEEKS}`)
  .max(PLAN_CADENCE_MAX_WEEKS, `cadenceWeeks must be at most ${PLAN_CADENCE_MAX_WEEKS}`);

const day = (field: string) =>
  z
    .string({ message: `${field} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date (YYYY-MM-DD)`)
    .refine(
      (value) =>
        !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
        new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      {
        message: `${field} must be a real date`,
      },
    );

/** Create-order's `plan`: the cart becomes a plan's first box, paid by card (tokenized) or EFT (reminders). */
export const planChoiceInput = z.object({
  cadenceWeeks,
  payBy: z.enum(["card", "eft"], { message: 'plan.payBy must be "card" or "eft"' }),
});
export type PlanChoiceInput = z.infer<typeof planChoiceInput>;

const planLineInput = z.object({
  productId: z.uuid({ message: "lines[].productId must be a valid product id" }),
  size: z
    .string()
    .trim()
    .min(1, "lines[].size is required")
    .max(SIZE_NAME_MAX, `lines[].size must be at most ${SIZE_NAME_MAX} characters`),
  quantity: z
    .number({ message: "lines[].quantity must be a number" })
    .int("lines[].quantity must be a whole number")
    .min(1, "lines[].quantity must be at least 1")
    .max(MAX_LINE_QUANTITY, `lines[].quantity must be at most ${MAX_LINE_QUANTITY}`),
});

/** PATCH /api/users/:id/plans/:planId: any of the date, the cadence and the box's lines (the whole list). */
export const planChangeInput = z
  .object({
    nextDate: day("nextDate").optional(),
    cadenceWeeks: cadenceWeeks.optional(),
    lines: z
      .array(planLineInput)
      .min(1, "lines must hold at least one line: cancel the plan to stop it")
      .max(PLAN_LINES_MAX, `lines must hold at most ${PLAN_LINES_MAX} lines`)
      .optional(),
  })
  .refine((change) => Object.keys(change).length > 0, {
    message: "Say what to change: nextDate, cadenceWeeks or lines",
  });
export type PlanChangeInput = z.infer<typeof planChangeInput>;

export const planPauseInput = z.object({ until: day("until") });

export const planParams = z.object({
  id: z.uuid({ message: "id must be a valid id" }),
  planId: z.uuid({ message: "planId must be a valid id" }),
});

export const planLinkInput = z.object({
  token: z.string().trim().min(1, "token is required").max(PLAN_LINK_TOKEN_MAX),
});

/** A plan as its customer sees it, with what its next box costs at today's prices. */
export const plan = z.object({
  id: z.string(),
  status: z.enum(PLAN_STATUSES),
  mode: z.enum(PLAN_MODES),
  cadenceWeeks: z.number(),
  nextDate: z.string(),
  pausedUntil: z.string().nullable(),
  createdAt: z.string(),
  deliveryName: z.string(),
  deliveryCity: z.string(),
  lines: z.array(
    z.object({
      productId: z.string(),
      name: z.string(),
      slug: z.string(),
      size: z.string(),
      quantity: z.number(),
      /** Today's price of the size, and the plan's price after its saving. */
      priceCents: z.number(),
      planPriceCents: z.number(),
      savingBp: z.number(),
      /** The sizes the product is sold in now, and the most of one an order may take. */
      sizes: z.array(z.string()),
      maxPerOrder: z.number(),
    }),
  ),
  /** The next box at today's prices. */
  next: z.object({ subtotalCents: z.number(), deliveryFeeCents: z.number(), totalCents: z.number() }),
  /** After a change: what it did to the next charge, in a sentence. */
  effect: z.string().optional(),
});
export type Plan = z.infer<typeof plan>;

/** GET /api/plan-links/pay: the box a reminder plan's pay link pays for, for the checkout's cart. */
export const planPayBox = z.object({
  planId: z.string(),
  date: z.string(),
  cadenceWeeks: z.number().int(),
  lines: z.array(z.object({ productId: z.string(), size: z.string(), quantity: z.number().int() })),
  message: z.string(),
});
export type PlanPayBox = z.infer<typeof planPayBox>;

/** The signed skip link's page: which box the link skips, before the shopper presses the button. */
export const planLinkAnswer = z.object({ message: z.string(), nextDate: z.string() });
