/**
 * Multi-buy prices (issue 42): the owner sets tiers per product, "2+ packs 3% off, 4+ packs 6%
 * off"; packs of different sizes of one product count together. A tier's saving is in basis
 * points (300 = 3%), so no percentage is a float.
 */
export interface MultibuyTier {
  /** The packs of the product, all sizes together, from which the tier applies (2 or more). */
  minPacks: number;
  /** Off the lines' amount, in basis points (1 to 5000: 0.01% to 50%). */
  offBp: number;
}

/** The most tiers a product may have, and the limits of each (the admin form and the API refuse others). */
export const MULTIBUY_LIMITS = { tiers: 5, minPacks: { min: 2, max: 999 }, offBp: { min: 1, max: 5_000 } } as const;

/** How a multi-buy saving meets a promo code's discount on the same order (MULTIBUY_WITH_PROMO). */
export const MULTIBUY_PROMO_RULES = ["best", "both"] as const;
export type MultibuyPromoRule = (typeof MULTIBUY_PROMO_RULES)[number];
