import { z } from "zod";
import { CANCEL_REASONS, ORDER_STATUSES } from "../order-status.js";
import { dashboardPlans } from "./admin-plans.js";

/** GET /api/admin/dashboard: figures computed by the database, amounts in rand ("1249.50"). */
export const dashboard = z.object({
  /** SPEC.md's four cards, plus the orders waiting for payment and the cancelled ones. */
  figures: z.object({
    totalOrders: z.number().int(),
    paidOrders: z.number().int(),
    shippedOrders: z.number().int(),
    pendingOrders: z.number().int(),
    cancelledOrders: z.number().int(),
    /** Totals of the paid and shipped orders. */
    revenue: z.string(),
  }),
  /** The last 30 South African days, oldest first, each day present (0.00 when nothing was sold). */
  revenueByDay: z.array(z.object({ day: z.string(), revenue: z.string(), orders: z.number().int() })),
  /** Every status, with how many orders are in it now. */
  ordersByStatus: z.array(z.object({ status: z.enum(ORDER_STATUSES), orders: z.number().int() })),
  /** Sizes with 5 or fewer units left to sell, sold out first. */
  lowStock: z.array(
    z.object({
      productId: z.string(),
      productName: z.string(),
      size: z.string(),
      left: z.number().int(),
      held: z.number().int(),
    }),
  ),
  /** How many items Payment Verification's "Needs attention" holds (each kind counted up to 1,000), delivery problems included. */
  needsAttention: z.number().int(),
  /** Of them, parcels in trouble (ATTENTION_STATES) not marked resolved (up to 1,000). */
  deliveryProblems: z.number().int(),
  /**
   * Paid orders not shipped 25 days after payment, oldest first (up to 50): ECTA s46(1) gives the
   * shop 30 days; `shipBy` is the last day (South African).
   */
  lateShipments: z.array(
    z.object({
      orderId: z.string(),
      paidAt: z.string(),
      shipBy: z.string(),
      customerEmail: z.string(),
    }),
  ),
  /** The latest backup (docs/backups.md): when, its file and size, or why it failed; and the last good one. */
  backup: z.object({
    /** BACKUP_EVERY_HOURS: 0 when the shop makes none itself. */
    everyHours: z.number(),
    last: z
      .object({
        finishedAt: z.string(),
        file: z.string().nullable(),
        bytes: z.number().nullable(),
        error: z.string().nullable(),
      })
      .nullable(),
    lastGoodAt: z.string().nullable(),
    /** BACKUP_MINUTE: the minute past the hour the backups are made at (UTC). */
    minute: z.number(),
    /** The off-site copies (BACKUP_S3_URL): whether there is a bucket, the latest copy tried, the last good one. */
    copy: z.object({
      configured: z.boolean(),
      last: z.object({ key: z.string(), finishedAt: z.string(), error: z.string().nullable() }).nullable(),
      lastGoodAt: z.string().nullable(),
    }),
  }),
  /** The five newest orders. */
  recentOrders: z.array(
    z.object({
      id: z.string(),
      status: z.enum(ORDER_STATUSES),
      total: z.string(),
      customerEmail: z.string(),
      createdAt: z.string(),
      cancelReason: z.enum(CANCEL_REASONS).nullable(),
    }),
  ),
  /** Nappy plans: active ones, the boxes of the next 7 days with the stock they need, and MRR. */
  plans: dashboardPlans,
  /** Which release runs (dist/build-info.json): package.json's version and the build's commit, or "unknown". */
  release: z.object({ version: z.string(), revision: z.string() }),
});
export type Dashboard = z.infer<typeof dashboard>;
