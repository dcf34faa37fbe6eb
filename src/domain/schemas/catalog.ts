import { z } from "zod";
import { ABSORBENCY_LEVELS } from "../absorbency.js";
import {
  ABSORBENCY_TEXT_MAX,
  CATEGORY_DESCRIPTION_MAX,
  CATEGORY_NAME_MAX,
  IMAGE_URL_MAX,
  MAX_LINE_QUANTITY,
  MAX_PACK_COUNT,
  MULTIBUY_TIERS_INPUT_MAX,
  PACK_UNIT_MAX,
  PLAN_SAVING_MAX_BP,
  PLAN_SAVING_TEXT_MAX,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_NAME_MAX,
  PROMO_TEXT_MAX,
  SIZE_LIST_TEXT_MAX,
  SIZE_NAME_MAX,
  SIZES_PER_PRODUCT_MAX,
  STOCK_PER_SIZE_MAX,
} from "../limits.js";
import { parseRandToCents } from "../money.js";
import { type MultibuyTier, tiersProblem } from "../multibuy.js";
import { FIT_MEASURES, sizeFitProblems } from "../size-fit.js";
import { VAT_CLASSES } from "../vat.js";
import { requiredText, text } from "./common.js";
import { packedSizeInput } from "./delivery-admin.js";

/** A size's range as stored and sent: whole grams or centimetres, both ends included. */
function fitRange() {
  const end = z.number({ message: "a size's range must be numbers" });
  return z.object({ min: end, max: end }, { message: "a size's range needs min and max" });
}

export const product = z.object({
  id: z.string(),
  name: z.string(),
  /** The product's address is /products/{slug}; made from the name by the server. */
  slug: z.string(),
  category: z.string(),
  price: z.string(),
  image: z.string(),
  description: z.string(),
  sizes: z.array(z.string()),
  sizeImages: z.record(z.string(), z.string()),
  /**
   * Every size's price ("249.99"; docs/decisions/022-prices-per-size.md); `price` is the lowest of
   * them, the "from" price. Optional for carts an older shop stored in the browser.
   */
  sizePrices: z.record(z.string(), z.string()).optional(),
  /** Units in each size's pack (nappies, pads, wipes); sizes without a count are left out. */
  sizePackCounts: z.record(z.string(), z.number().int()).optional(),
  /** The unit's word, singular: "nappy", "pad", "wipe"; null: "unit". */
  packUnit: z.string().nullable().optional(),
  /** Sizes nothing can be sold of now (stock minus what unpaid orders hold): only `true` entries. */
  sizeOutOfStock: z.record(z.string(), z.boolean()),
  /** True when no size can be sold. */
  outOfStock: z.boolean(),
  /**
   * Sizes with LOW_STOCK_LIMIT or fewer units left to sell, and how many ("Only 2 left"). No
   * exact count above the limit is ever shown to the public.
   */
  sizeLowStock: z.record(z.string(), z.number().int()),
  promoText: z.string().nullable(),
  /** The most of one size an order may take (DEFAULT_MAX_PER_ORDER unless the product is a bulk item). */
  maxPerOrder: z.number().int(),
  /** Multi-buy tiers, ascending ("2+ packs: 3% off": src/domain/multibuy.ts); optional for older carts. */
  multibuyTiers: z.array(z.object({ minPacks: z.number().int(), offBp: z.number().int() })).optional(),
  /**
   * The tiers in words, as the card and product page show them ("2+ packs: 3% off", and "from R1.80
   * per nappy at 4+ packs" or ""): worked out by the server (src/domain/multibuy-tiers.ts), so the
   * storefront's first load carries no tier arithmetic; `line` is both in one, as the card shows
   * them. Null without tiers; optional for older carts.
   */
  multibuyNote: z.object({ tiers: z.string(), perUnit: z.string(), line: z.string() }).nullable().optional(),
  /** Off each unit in a nappy plan, basis points: the product's own or the owner's default (src/domain/plans.ts); optional for older carts. */
  planSavingBp: z.number().int().optional(),
  /** Absorbency 1-6 (src/domain/absorbency.ts); null: not said. Optional for carts an older shop stored. */
  absorbency: z.number().int().nullable().optional(),
  /** What the sizes' ranges measure (src/domain/size-fit.ts); null or left out: no size guide. */
  fitMeasure: z.enum(FIT_MEASURES).nullable().optional(),
  /** Each size's range, both ends included: grams for "weight", centimetres for "waist". */
  sizeFits: z.record(z.string(), fitRange()).optional(),
});
export type Product = z.infer<typeof product>;

/** A product as the admin sees it: units in stock per size (held ones included) and units held by unpaid orders. */
export const adminProduct = product.extend({
  /** "zero" for sanitary pads and pantyliners, "standard" for the rest (src/domain/vat.ts). */
  vatClass: z.enum(VAT_CLASSES),
  stock: z.record(z.string(), z.number().int()),
  held: z.record(z.string(), z.number().int()),
  /** The product's own plan saving; null: the owner's default for all (DEFAULT_PLAN_SAVING_BP). */
  planSavingOwnBp: z.number().int().nullable().optional(),
  /** Each size's packed weight and sides (src/domain/parcels.ts); a size left out packs as DEFAULT_PACKED_SIZE. */
  sizeParcels: z
    .record(
      z.string(),
      z.object({ weightGrams: z.number(), lengthMm: z.number(), widthMm: z.number(), heightMm: z.number() }),
    )
    .optional(),
});
export type AdminProduct = z.infer<typeof adminProduct>;

export const category = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
});
export type Category = z.infer<typeof category>;

/** A category as the admin list shows it: the public fields plus how many products use it. */
export const adminCategory = category.extend({ productCount: z.number().int() });
export type AdminCategory = z.infer<typeof adminCategory>;

const IMAGE_URL = /^(https?:\/\/|\/)[^\s<>"']*$/;

const imageUrl = z
  .string({ message: "image is required" })
  .trim()
  .min(1, "image is required")
  .max(IMAGE_URL_MAX, `image must be at most ${IMAGE_URL_MAX} characters`)
  .refine((value) => IMAGE_URL.test(value), "image must be a URL (http(s):// or /path)");

/** Sizes arrive as a list, or as the form's comma-separated text; either way trimmed, empties dropped. */
export const sizeList = z
  .union(
    [
      z.array(z.string().max(SIZE_NAME_MAX, `each size must be at most ${SIZE_NAME_MAX} characters`)),
      z.string().max(SIZE_LIST_TEXT_MAX),
    ],
    {
      message: "sizes must be a list of sizes",
    },
  )
  .transform((value) => {
    const list = Array.isArray(value) ? value : value.split(",");
    return [...new Set(list.map((size) => size.trim()).filter(Boolean))];
  })
  .refine((sizes) => sizes.length > 0, "sizes must name at least one size")
  .refine((sizes) => sizes.length <= SIZES_PER_PRODUCT_MAX, `sizes must name at most ${SIZES_PER_PRODUCT_MAX} sizes`);

/** Multi-buy tiers as the admin form sends them, checked by the one rule (tiersProblem: limits, ascending). */
const multibuyTiersInput = z
  .array(
    z.object({
      minPacks: z.number({ message: "a multi-buy tier's packs from must be a number" }),
      offBp: z.number({ message: "a multi-buy tier's saving must be a number" }),
    }),
    { message: "multibuyTiers must be a list of tiers" },
  )
  .max(MULTIBUY_TIERS_INPUT_MAX, "multibuyTiers must be a short list")
  .superRefine((tiers, context) => {
    const problem = tiersProblem(tiers);
    if (problem) context.addIssue({ code: "custom", message: problem });
  })
  .transform((tiers): MultibuyTier[] => tiers.map(({ minPacks, offBp }) => ({ minPacks, offBp })));

/** A positive amount of rand ("249.99" or 249.99) as cents; `field` names it in the message. */
const positiveRand = (field: string) =>
  z
    .union([z.string(), z.number()], { message: `${field} is required` })
    .transform((value) => (typeof value === "number" ? value.toFixed(2) : value.trim()))
    .refine((value) => {
      const cents = parseRandToCents(value);
      return cents !== null && cents > 0;
    }, `${field} must be a positive amount with at most 2 decimals`)
    .transform((value) => parseRandToCents(value) as number);

const ABSORBENCY_MESSAGE = `absorbency must be a level from ${ABSORBENCY_LEVELS[0]} to ${ABSORBENCY_LEVELS.at(-1)}, or empty`;

/**
 * Absorbency (issue 42): a level 1-6 as a number or the form's text; "" or null clears it. On
 * create left out is none; on update left out keeps what the product has.
 */
const PLAN_SAVING_MESSAGE = `planSavingPercent must be a percentage from 0 to ${PLAN_SAVING_MAX_BP / 100}, at most 2 decimals, or empty for the shop's default`;

/** The admin's "Plan saving (%)": basis points out, null for the owner's default (src/domain/plans.ts). */
const planSavingPercentInput = z
  .union([z.number(), z.string().max(PLAN_SAVING_TEXT_MAX), z.null()], { message: PLAN_SAVING_MESSAGE })
  .transform((value, context) => {
    if (value === null || (typeof value === "string" && value.trim() === "")) return null;
    const text = typeof value === "number" ? String(value) : value.trim();
    const bp = Math.round(Number(text) * 100);
    if (!/^\d{1,2}(\.\d{1,2})?$/.test(text) || bp > PLAN_SAVING_MAX_BP) {
      context.addIssue({ code: "custom", message: PLAN_SAVING_MESSAGE });
      return z.NEVER;
    }
    return bp;
  })
  .optional();

const absorbencyInput = z
  .union([z.number(), z.string().max(ABSORBENCY_TEXT_MAX), z.null()], { message: ABSORBENCY_MESSAGE })
  .transform((value, context) => {
    if (value === null || (typeof value === "string" && value.trim() === "")) return null;
    const level = typeof value === "number" ? value : Number(value.trim());
    if (!(ABSORBENCY_LEVELS as readonly number[]).includes(level)) {
      context.addIssue({ code: "custom", message: ABSORBENCY_MESSAGE });
      return z.NEVER;
    }
    return level;
  })
  .optional();

export const productInput = z
  .object({
    name: requiredText("name", PRODUCT_NAME_MAX),
    category: requiredText("category", CATEGORY_NAME_MAX).transform((value) => value.toLowerCase()),
    /** The price of the sizes without their own in `sizePrices`; the product's stored price is the lowest size price. */
    price: positiveRand("price"),
    image: imageUrl,
    description: text(PRODUCT_DESCRIPTION_MAX).default(""),
    sizes: sizeList,
    sizeImages: z
      .record(
        z.string().max(SIZE_NAME_MAX),
        z
          .string()
          .trim()
          .max(IMAGE_URL_MAX)
          .refine(
            (value) => value === "" || IMAGE_URL.test(value),
            "sizeImages must hold image URLs (http(s):// or /path)",
          ),
      )
      .default({}),
    /**
     * Units in stock per size, held ones included (docs/product.md §10). On create a size left out
     * starts at 0; on update it keeps what it has.
     */
    stock: z
      .record(
        z.string().max(SIZE_NAME_MAX),
        z
          .number({ message: "stock must be a whole number of units per size" })
          .int("stock must be a whole number of units per size")
          .min(0, "stock must not be negative")
          .max(STOCK_PER_SIZE_MAX, `stock must be at most ${STOCK_PER_SIZE_MAX} per size`),
      )
      .default({}),
    /** A size's own price; sizes left out cost `price`. Keys must be entries of `sizes`. */
    sizePrices: z.record(z.string().max(SIZE_NAME_MAX), positiveRand("a size's price")).default({}),
    /** Units in a size's pack, 1 to MAX_PACK_COUNT; sizes left out have no per-unit price. Keys must be entries of `sizes`. */
    sizePackCounts: z
      .record(
        z.string().max(SIZE_NAME_MAX),
        z
          .number({ message: "units in a pack must be a whole number" })
          .int("units in a pack must be a whole number")
          .min(1, "units in a pack must be at least 1")
          .max(MAX_PACK_COUNT, `units in a pack must be at most ${MAX_PACK_COUNT}`),
      )
      .default({}),
    /** The unit's word, singular ("nappy", "pad", "wipe"); blank: "unit". */
    packUnit: text(PACK_UNIT_MAX)
      .nullish()
      .transform((value) => (value ? value.toLowerCase() : null)),
    promoText: text(PROMO_TEXT_MAX)
      .nullish()
      .transform((value) => (value ? value : null)),
    /** On create "standard" when left out; on update left out keeps what the product has. */
    vatClass: z.enum(VAT_CLASSES, { message: "vatClass must be standard or zero" }).optional(),
    /** On create a product left without one gets DEFAULT_MAX_PER_ORDER; on update it keeps its own. */
    maxPerOrder: z.coerce.number().int().min(1).max(MAX_LINE_QUANTITY).optional(),
    /** Multi-buy tiers (src/domain/multibuy.ts): on create none when left out; on update left out keeps the product's. */
    multibuyTiers: multibuyTiersInput.optional(),
    /** Its nappy plan saving in per cent (0-50, "7.5"); "" or null: the owner's default. On update left out keeps its own. */
    planSavingPercent: planSavingPercentInput,
    absorbency: absorbencyInput,
    /** What the size guide measures; null: no guide. On update left out keeps the product's own. */
    fitMeasure: z.enum(FIT_MEASURES, { message: "fitMeasure must be weight, waist or null" }).nullable().optional(),
    /** Each size's range (grams or cm); sizes left out have none. Checked by sizeFitProblems. */
    sizeFits: z.record(z.string().max(SIZE_NAME_MAX), fitRange()).optional(),
    /**
     * Each size's packed weight (g) and sides (mm) for the courier (decision 053); sizes not listed are
     * dropped, a size left out packs as DEFAULT_PACKED_SIZE. On update left out keeps the product's own.
     */
    sizeParcels: z
      .record(z.string().max(SIZE_NAME_MAX), packedSizeInput, { message: "sizeParcels must list sizes" })
      .optional(),
  })
  .superRefine((values, context) => {
    if (values.fitMeasure !== undefined || values.sizeFits !== undefined) {
      const fit = { sizes: values.sizes, fitMeasure: values.fitMeasure ?? null, sizeFits: values.sizeFits ?? {} };
      for (const message of sizeFitProblems(fit)) context.addIssue({ code: "custom", path: ["sizeFits"], message });
    }
    for (const field of ["sizePrices", "sizePackCounts"] as const) {
      const unknown = Object.keys(values[field]).find((size) => !values.sizes.includes(size));
      if (unknown !== undefined) {
        context.addIssue({
          code: "custom",
          path: [field],
          message: `${field} names "${unknown}", which is not one of the sizes`,
        });
      }
    }
  });
/** What the form sends (price text, sizes text or list). */
export type ProductInput = z.input<typeof productInput>;
/** What the server stores (price in cents, sizes a clean list). */
export type ProductValues = z.output<typeof productInput>;

export const categoryInput = z.object({
  name: requiredText("name", CATEGORY_NAME_MAX),
  description: text(CATEGORY_DESCRIPTION_MAX)
    .nullish()
    .transform((value) => value ?? ""),
});
export type CategoryInput = z.input<typeof categoryInput>;
