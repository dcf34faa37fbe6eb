import { z } from "zod";
import { BOX_CODE_MAX, BOX_NAME_MAX, DELIVERY_COST_MONTHS_MAX, MAX_SIDE_MM, MAX_WEIGHT_GRAMS } from "../limits.js";
import { requiredText } from "./common.js";

/** A whole number above 0 and at most `max`, named in its messages ("length must be ..."). */
const measure = (field: string, max: number, unit: string) =>
  z
    .number({ message: `${field} must be a number of ${unit}` })
    .int(`${field} must be a whole number of ${unit}`)
    .min(1, `${field} must be more than 0 ${unit}`)
    .max(max, `${field} must be at most ${max} ${unit}`);

/** A product size's packed weight and sides (src/domain/parcels.ts: PackedSize), as the product form sends it. */
export const packedSizeInput = z.object(
  {
    weightGrams: measure("a pack's weight", MAX_WEIGHT_GRAMS, "g"),
    lengthMm: measure("a pack's length", MAX_SIDE_MM, "mm"),
    widthMm: measure("a pack's width", MAX_SIDE_MM, "mm"),
    heightMm: measure("a pack's height", MAX_SIDE_MM, "mm"),
  },
  { message: "a size's parcel needs weightGrams, lengthMm, widthMm and heightMm" },
);

/** One of the owner's boxes (delivery_boxes): its code (a short name, "M"), inside measures and most weight. */
export const deliveryBoxInput = z.object({
  code: requiredText("code", BOX_CODE_MAX)
    .transform((code) => code.toUpperCase())
    .refine((code) => /^[A-Z0-9-]+$/.test(code), "code must be letters, digits or -"),
  name: requiredText("name", BOX_NAME_MAX),
  lengthMm: measure("length", MAX_SIDE_MM, "mm"),
  widthMm: measure("width", MAX_SIDE_MM, "mm"),
  heightMm: measure("height", MAX_SIDE_MM, "mm"),
  maxWeightGrams: measure("the most weight", MAX_WEIGHT_GRAMS, "g"),
});
export type DeliveryBoxInput = z.input<typeof deliveryBoxInput>;

export const deliveryBox = z.object({
  code: z.string(),
  name: z.string(),
  lengthMm: z.number().int(),
  widthMm: z.number().int(),
  heightMm: z.number().int(),
  maxWeightGrams: z.number().int(),
});
export type DeliveryBox = z.infer<typeof deliveryBox>;

/** GET /api/admin/delivery/boxes: the owner's boxes, or the default ones while they have set none. */
export const deliveryBoxesAnswer = z.object({ boxes: z.array(deliveryBox), usingDefaults: z.boolean() });
export type DeliveryBoxesAnswer = z.infer<typeof deliveryBoxesAnswer>;

export const boxCodeParam = z.object({ code: z.string().max(BOX_CODE_MAX, "no box has that code") });

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** The first month the report answers: no order of this shop is older. */
export const DELIVERY_COST_FIRST_MONTH = "2020-01";
const month = (field: string) =>
  z
    .string({ message: `${field} must be a month, YYYY-MM` })
    .regex(MONTH, `${field} must be a month, YYYY-MM`)
    .refine((value) => value >= DELIVERY_COST_FIRST_MONTH && value <= "2999-12", {
      message: `${field} must be ${DELIVERY_COST_FIRST_MONTH} or later`,
    });

/** Months between two YYYY-MM, both counted ("2026-01" to "2026-03": 3). */
export const monthsBetween = (from: string, to: string) => {
  const [fy = 0, fm = 0] = from.split("-").map(Number);
  const [ty = 0, tm = 0] = to.split("-").map(Number);
  return (ty - fy) * 12 + (tm - fm) + 1;
};

/** GET /api/admin/delivery-costs(.csv)?from=YYYY-MM&to=YYYY-MM: months shipped in, both included. */
export const deliveryCostQuery = z
  .object({ from: month("from"), to: month("to") })
  .refine((query) => query.from <= query.to, { message: "to must not be before from", path: ["to"] })
  .refine((query) => monthsBetween(query.from, query.to) <= DELIVERY_COST_MONTHS_MAX, {
    message: `a report covers at most ${DELIVERY_COST_MONTHS_MAX} months`,
    path: ["to"],
  });
export type DeliveryCostQuery = z.infer<typeof deliveryCostQuery>;

const costRow = z.object({
  /** YYYY-MM, or "total". */
  month: z.string(),
  /** Orders shipped in the month (South African days), by waybill or by hand. */
  ordersShipped: z.number().int(),
  /** Of them, booked through the courier here: only these have a courier's charge. */
  withWaybill: z.number().int(),
  /** The delivery fees customers paid on the orders with a waybill (what the courier's charge is set against). */
  customersPaidCents: z.number().int(),
  /** What the courier quoted at booking, for the orders with a waybill. */
  quotedCents: z.number().int(),
  /** What re-weighing added (or took off) since booking. */
  adjustmentsCents: z.number().int(),
  /** Quoted plus adjustments: what the courier charged. */
  courierChargedCents: z.number().int(),
  /** Customers paid less what the courier charged (below 0: the shop paid more than it charged). */
  differenceCents: z.number().int(),
});
export type DeliveryCostRow = z.infer<typeof costRow>;

export const deliveryCostReport = z.object({
  first: z.string(),
  last: z.string(),
  months: z.array(costRow),
  total: costRow,
});
export type DeliveryCostReport = z.infer<typeof deliveryCostReport>;
