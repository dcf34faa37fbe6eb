import { z } from "zod";
import {
  CATEGORY_NAME_MAX,
  CHILD_MAX_AGE_YEARS,
  CHILD_NAME_MAX,
  FIT_LIMITS,
  MAX_FINDER_PRODUCTS,
  WEIGHT_KG_MAX,
  WEIGHT_KG_MIN,
} from "../limits.js";
import { saDay } from "../sa-calendar.js";
import { FIT_MEASURES } from "../size-fit.js";
import { requiredText } from "./common.js";

const weightKg = z.coerce
  .number({ message: "weightKg must be a number of kilograms" })
  .min(WEIGHT_KG_MIN, `weightKg must be from ${WEIGHT_KG_MIN} to ${WEIGHT_KG_MAX}`)
  .max(WEIGHT_KG_MAX, `weightKg must be from ${WEIGHT_KG_MIN} to ${WEIGHT_KG_MAX}`);

/**
 * GET /api/size-finder: a weight (kg), a waist (cm) or one of the parent's children, and which
 * products: named ones (productIds, comma-separated), a category's, or every product with a guide.
 */
export const sizeFinderQuery = z
  .object({
    weightKg: weightKg.optional(),
    waistCm: z.coerce
      .number({ message: "waistCm must be a number of centimetres" })
      .min(FIT_LIMITS.waist.min, `waistCm must be from ${FIT_LIMITS.waist.min} to ${FIT_LIMITS.waist.max}`)
      .max(FIT_LIMITS.waist.max, `waistCm must be from ${FIT_LIMITS.waist.min} to ${FIT_LIMITS.waist.max}`)
      .optional(),
    childId: z.uuid({ message: "childId must be a valid id" }).optional(),
    productIds: z
      .string()
      .max(MAX_FINDER_PRODUCTS * 80, `productIds may name at most ${MAX_FINDER_PRODUCTS} products`)
      .transform((value) => [
        ...new Set(
          value
            .split(",")
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(
        z
          .array(z.uuid({ message: "productIds must be product ids" }))
          .max(MAX_FINDER_PRODUCTS, `productIds may name at most ${MAX_FINDER_PRODUCTS} products`),
      )
      .optional(),
    category: z.string().trim().max(CATEGORY_NAME_MAX).optional(),
  })
  .refine(
    (query) => [query.weightKg, query.waistCm, query.childId].filter((given) => given !== undefined).length === 1,
    { message: "Give one of weightKg, waistCm or childId", path: ["weightKg"] },
  );
export type SizeFinderQuery = z.output<typeof sizeFinderQuery>;

export const sizeRecommendation = z.object({
  productId: z.string(),
  /** The size to take; null when none fits (reason says whether too small or too big). */
  size: z.string().nullable(),
  reason: z.enum(["fits", "between-sizes", "too-small", "too-big"]),
  measure: z.enum(FIT_MEASURES),
  /** "Time to move up a size?": the size a child's weight is near the top of (once per weight; see childId). */
  nearTopOf: z.string().nullable(),
});
export type SizeRecommendationAnswer = z.infer<typeof sizeRecommendation>;

export const sizeFinderAnswer = z.object({
  /** Grams for a weight, centimetres for a waist. */
  measure: z.enum(FIT_MEASURES),
  value: z.number(),
  recommendations: z.array(sizeRecommendation),
  /** With childId: whether the storefront should say "Time to move up a size?" (not said before for this weight). */
  sizeUpPrompt: z.boolean(),
});
export type SizeFinderAnswer = z.infer<typeof sizeFinderAnswer>;

/** A parent's child as the API answers it (docs/product.md, "The right size"). */
export const childProfile = z.object({
  id: z.string(),
  name: z.string(),
  /** "2025-03", or null. */
  birthMonth: z.string().nullable(),
  weightGrams: z.number().int().nullable(),
  /** "2026-01-31", or null. */
  weighedOn: z.string().nullable(),
  sizeUpPromptedAt: z.string().nullable(),
});
export type ChildProfile = z.infer<typeof childProfile>;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * A child as the profile's form sends it: a name (1-40), and optionally the birth month, the last
 * weight in kg and the day it was weighed (today when left out with a weight). Blank fields clear.
 */
export const childProfileInput = z
  .object({
    name: requiredText("name", CHILD_NAME_MAX),
    birthMonth: z
      .string()
      .trim()
      .nullish()
      .transform((value) => value || null)
      .refine((value) => value === null || MONTH.test(value), "birthMonth must be a month, YYYY-MM"),
    weightKg: z
      .union([z.literal(""), z.null(), weightKg])
      .optional()
      .transform((value) => (typeof value === "number" ? Math.round(value * 1000) : null)),
    weighedOn: z
      .string()
      .trim()
      .nullish()
      .transform((value) => value || null)
      .refine((value) => value === null || DAY.test(value), "weighedOn must be a day, YYYY-MM-DD"),
  })
  .superRefine((child, context) => {
    const today = saDay();
    if (child.birthMonth !== null) {
      const earliest = `${Number(today.slice(0, 4)) - CHILD_MAX_AGE_YEARS}${today.slice(4, 7)}`;
      if (child.birthMonth > today.slice(0, 7) || child.birthMonth < earliest) {
        context.addIssue({
          code: "custom",
          path: ["birthMonth"],
          message: `birthMonth must be within the last ${CHILD_MAX_AGE_YEARS} years, not in the future`,
        });
      }
    }
    if (child.weighedOn !== null && child.weighedOn > today) {
      context.addIssue({ code: "custom", path: ["weighedOn"], message: "weighedOn must not be in the future" });
    }
    if (child.weighedOn !== null && child.weightKg === null) {
      context.addIssue({ code: "custom", path: ["weighedOn"], message: "weighedOn needs a weight" });
    }
  })
  .transform(({ weightKg: weightGrams, ...child }) => ({
    ...child,
    weightGrams,
    weighedOn: weightGrams === null ? null : (child.weighedOn ?? saDay()),
  }));
export type ChildProfileInput = z.input<typeof childProfileInput>;
