import { z } from "zod";
import { ADMIN_SEARCH_MAX, PLAN_ADMIN_REASON_MAX, PLAN_ADMIN_REASON_MIN } from "../limits.js";
import { PLAN_CHARGE_STATUSES, PLAN_MODES, PLAN_STATUSES } from "../plans.js";
import { pageCursor } from "./customers.js";
import { planPauseInput } from "./plans.js";

/** The admin's Plans filters: all, charges due today (or overdue), charges in doubt (a charge "unknown"). */
export const ADMIN_PLAN_FILTERS = ["all", "due_today", "in_doubt"] as const;
export type AdminPlanFilter = (typeof ADMIN_PLAN_FILTERS)[number];

/** GET /api/admin/plans: newest first, keyset pages; `q` matches the customer's e-mail or name. */
export const adminPlanListQuery = z.object({
  filter: z.enum(ADMIN_PLAN_FILTERS, { message: 'filter must be "all", "due_today" or "in_doubt"' }).default("all"),
  status: z.enum(PLAN_STATUSES, { message: `status must be one of ${PLAN_STATUSES.join(", ")}` }).optional(),
  q: z.string().trim().max(ADMIN_SEARCH_MAX, `q must be at most ${ADMIN_SEARCH_MAX} characters`).optional(),
  cursor: pageCursor,
});

/** A plan as the owner's Plans list shows it: its customer, its next box and what became of its last charge. */
export const adminPlan = z.object({
  id: z.string(),
  status: z.enum(PLAN_STATUSES),
  mode: z.enum(PLAN_MODES),
  cadenceWeeks: z.number().int(),
  nextDate: z.string(),
  pausedUntil: z.string().nullable(),
  createdAt: z.string(),
  cancelReason: z.string().nullable(),
  customer: z.object({ userId: z.string(), email: z.string(), name: z.string(), city: z.string() }),
  lines: z.array(z.object({ name: z.string(), size: z.string(), quantity: z.number().int() })),
  /** The next box at today's plan prices (delivery by the rule of every order), in cents. */
  nextTotalCents: z.number().int(),
  /** The latest delivery date with a charge row (paid, declined, in doubt, skipped...); null before any. */
  lastCharge: z
    .object({
      deliveryDate: z.string(),
      status: z.enum(PLAN_CHARGE_STATUSES),
      amountCents: z.number().int().nullable(),
      orderId: z.string().nullable(),
      attempts: z.number().int(),
      payfastResponse: z.string().nullable(),
    })
    .nullable(),
});
export type AdminPlan = z.infer<typeof adminPlan>;

export const adminPlanPage = z.object({ plans: z.array(adminPlan), nextCursor: z.string().nullable() });
export type AdminPlanPage = z.infer<typeof adminPlanPage>;

const reason = z
  .string({ message: "reason is required" })
  .trim()
  .min(PLAN_ADMIN_REASON_MIN, `reason must be at least ${PLAN_ADMIN_REASON_MIN} characters: the customer reads it`)
  .max(PLAN_ADMIN_REASON_MAX, `reason must be at most ${PLAN_ADMIN_REASON_MAX} characters`);

/** POST /api/admin/plans/:planId/cancel: the reason the customer is told. */
export const adminPlanCancelInput = z.object({ reason });

/** POST /api/admin/plans/:planId/pause: until a day (tomorrow to 26 weeks ahead) and the reason. */
export const adminPlanPauseInput = planPauseInput.extend({ reason });

export const adminPlanParams = z.object({ planId: z.uuid({ message: "planId must be a valid id" }) });

/** The dashboard's plans: what runs, what ships in the next 7 days and the stock it needs, and MRR. */
export const dashboardPlans = z.object({
  active: z.number().int(),
  /** Boxes of active plans due from today to 6 days ahead (and overdue ones), not skipped or paid. */
  boxesDue: z.number().int(),
  boxesDueDays: z.number().int(),
  /** Per product and size: packs those boxes need, packs left to sell (on hand less held), and the shortfall. */
  stockNeeded: z.array(
    z.object({
      productId: z.string(),
      productName: z.string(),
      size: z.string(),
      needed: z.number().int(),
      onHand: z.number().int(),
      short: z.number().int(),
    }),
  ),
  /** Monthly recurring revenue in rand ("1249.50"), and how it is computed. */
  mrr: z.string(),
  mrrMethod: z.string(),
});
export type DashboardPlans = z.infer<typeof dashboardPlans>;
