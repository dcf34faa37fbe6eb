import { z } from "zod";
import {
  MAX_LINE_QUANTITY,
  ORDER_LINES_MAX,
  PROMO_CATEGORIES_MAX,
  PROMO_CODE_INPUT_MAX,
  PROMO_MAX_AMOUNT_CENTS,
  PROMO_MAX_USES,
  PROMO_PERCENT_MAX,
  PROMO_PERCENT_MIN,
  PROMO_PRODUCTS_MAX,
  SIZE_NAME_MAX,
} from "../limits.js";
import { parseRandToCents } from "../money.js";
import { normalisePromoCode, PROMO_CODE_PATTERN, PROMO_KINDS } from "../promo.js";

const promoCodeText = z
  .string({ message: "code is required" })
  .transform(normalisePromoCode)
  .refine((code) => PROMO_CODE_PATTERN.test(code), {
    message: "code must be 3 to 32 letters, digits, - or _",
  });

const randAmount = (field: string) =>
  z
    .string()
    .trim()
    .nullish()
    .transform((value, context) => {
      if (!value) return null;
      const cents = parseRandToCents(value);
      if (cents === null || cents <= 0 || cents > PROMO_MAX_AMOUNT_CENTS) {
        context.addIssue({ code: "custom", message: `${field} must be an amount from R0.01 to R100,000.00` });
        return z.NEVER;
      }
      return cents;
    });

const limit = (field: string) =>
  z
    .number({ message: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(1, `${field} must be at least 1`)
    .max(PROMO_MAX_USES, `${field} must be at most ${PROMO_MAX_USES}`)
    .nullish()
    .transform((value) => value ?? null);

const moment = (field: string) =>
  z.iso
    .datetime({ offset: true, message: `${field} must be a date and time (ISO 8601)` })
    .nullish()
    .transform((value) => (value ? new Date(value) : null));

/** POST and PUT /api/admin/promo-codes: the form's amounts in rand ("50.00"). */
export const promoCodeInput = z
  .object({
    code: promoCodeText,
    kind: z.enum(PROMO_KINDS, { message: "kind must be percent, fixed or free_delivery" }),
    percent: z
      .number({ message: "percent must be a number" })
      .int("percent must be a whole number")
      .min(PROMO_PERCENT_MIN, `percent must be from ${PROMO_PERCENT_MIN} to ${PROMO_PERCENT_MAX}`)
      .max(PROMO_PERCENT_MAX, `percent must be from ${PROMO_PERCENT_MIN} to ${PROMO_PERCENT_MAX}`)
      .nullish()
      .transform((value) => value ?? null),
    amount: randAmount("amount"),
    minSpend: randAmount("minSpend"),
    startsAt: moment("startsAt"),
    endsAt: moment("endsAt"),
    maxUses: limit("maxUses"),
    maxUsesPerCustomer: limit("maxUsesPerCustomer"),
    productIds: z
      .array(z.uuid({ message: "productIds must be product ids" }))
      .max(PROMO_PRODUCTS_MAX)
      .default([]),
    categoryIds: z
      .array(z.uuid({ message: "categoryIds must be category ids" }))
      .max(PROMO_CATEGORIES_MAX)
      .default([]),
    active: z.boolean().default(true),
  })
  .superRefine((value, context) => {
    if (value.kind === "percent" && value.percent === null) {
      context.addIssue({ code: "custom", path: ["percent"], message: "percent is required for a percentage off" });
    }
    if (value.kind === "fixed" && value.amount === null) {
      context.addIssue({ code: "custom", path: ["amount"], message: "amount is required for a fixed amount off" });
    }
    if (value.startsAt && value.endsAt && value.startsAt >= value.endsAt) {
      context.addIssue({ code: "custom", path: ["endsAt"], message: "endsAt must be after startsAt" });
    }
  })
  .transform((value) => ({
    ...value,
    percent: value.kind === "percent" ? value.percent : null,
    amount: value.kind === "fixed" ? value.amount : null,
  }));
export type PromoCodeInput = z.input<typeof promoCodeInput>;

/** A code as the admin's list shows it, with how often it was used and what it gave away. */
export const adminPromoCode = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(PROMO_KINDS),
  percent: z.number().nullable(),
  amount: z.string().nullable(),
  minSpend: z.string().nullable(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  maxUses: z.number().nullable(),
  maxUsesPerCustomer: z.number().nullable(),
  productIds: z.array(z.string()),
  categoryIds: z.array(z.string()),
  active: z.boolean(),
  /** "10% off", "R50.00 off", "Free delivery". */
  description: z.string(),
  /** Paid orders. */
  uses: z.number(),
  /** Unpaid orders holding a use. */
  held: z.number(),
  /** Off the goods and waived delivery fees of the paid orders. */
  givenAway: z.string(),
  createdAt: z.string(),
});
export type AdminPromoCode = z.infer<typeof adminPromoCode>;

/** POST /api/promo-codes/check: a code against a cart (lines as the checkout holds them). */
export const promoCheckInput = z.object({
  code: z
    .string({ message: "code is required" })
    .max(PROMO_CODE_INPUT_MAX, `code must be at most ${PROMO_CODE_INPUT_MAX} characters`),
  items: z
    .array(
      z.object({
        id: z.uuid({ message: "items[].id must be a valid product id" }),
        size: z.string().max(SIZE_NAME_MAX),
        quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
      }),
    )
    .min(1, "items must hold at least one line")
    .max(ORDER_LINES_MAX, `items must hold at most ${ORDER_LINES_MAX} lines`),
});
export type PromoCheckInput = z.input<typeof promoCheckInput>;

/** What the code gives this cart, amounts as "579.00": the checkout's summary shows these. */
export const promoCheckAnswer = z.object({
  code: z.string(),
  description: z.string(),
  /**
   * False when MULTIBUY_WITH_PROMO=best and the cart's multi-buy saving is more than the code gives:
   * the order is then placed without the code, and these figures are the multi-buy ones.
   */
  applied: z.boolean(),
  subtotal: z.string(),
  /** Off the goods by multi-buy tiers (docs/decisions/047). */
  multibuyDiscount: z.string(),
  discount: z.string(),
  deliveryFee: z.string(),
  deliveryDiscount: z.string(),
  total: z.string(),
  /** Per cart line (merged per product and size), its share of the discount. */
  lines: z.array(z.object({ id: z.string(), size: z.string(), discount: z.string(), multibuyDiscount: z.string() })),
});
export type PromoCheckAnswer = z.infer<typeof promoCheckAnswer>;
