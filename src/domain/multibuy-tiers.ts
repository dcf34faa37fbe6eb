import { type Cents, formatRand, parseRandToCents } from "./money.js";
import { perUnitCents, type SizedPrices, sizePrice } from "./packs.js";
import { percentText } from "./percent.js";

/**
 * Multi-buy tiers (issue 42, docs/decisions/047-multi-buy-tiers.md): the owner sets tiers per
 * product, "2+ packs 3% off, 4+ packs 6% off"; packs of different sizes of one product count
 * together. A tier's saving is in basis points (300 = 3%), so no percentage is a float. This module
 * holds what a product's tiers are and how the storefront words them (small: the first load uses it);
 * multibuy.ts works out an order's saving with them.
 */
export interface MultibuyTier {
  /** The packs of the product, all sizes together, from which the tier applies (2 or more). */
  minPacks: number;
  /** Off the lines' amount, in basis points (1 to 5000: 0.01% to 50%). */
  offBp: number;
}

const BP = 10_000;

/** "2+ packs: 3% off". */
export const describeTier = (tier: MultibuyTier): string => `${tier.minPacks}+ packs: ${percentText(tier.offBp)} off`;

/** The tier `packs` reach (the highest whose minPacks they meet), or null. */
export function tierReached(tiers: readonly MultibuyTier[], packs: number): MultibuyTier | null {
  let reached: MultibuyTier | null = null;
  for (const tier of tiers)
    if (packs >= tier.minPacks && (!reached || tier.minPacks > reached.minPacks)) reached = tier;
  return reached;
}

/** The tier that saves most: the card's "from … per nappy". */
export const bestTier = (tiers: readonly MultibuyTier[]): MultibuyTier | null => tierReached(tiers, Infinity);

/** A tier's saving on an amount, rounded half up to the cent. */
export const tierSavingCents = (amountCents: Cents, offBp: number): Cents =>
  Math.floor((amountCents * offBp + BP / 2) / BP);

/** A pack's price per unit after a tier (rounded as packs.ts rounds): R199.99 for 104 at 3% off is R1.87. */
export const perUnitAfterTierCents = (priceCents: Cents, count: number, offBp: number): Cents =>
  perUnitCents(priceCents - tierSavingCents(priceCents, offBp), count);

/** A product as the storefront shows its tiers: its tiers and what perUnitText reads. */
type TieredProduct = SizedPrices & { multibuyTiers?: readonly MultibuyTier[] | undefined };

/** "2+ packs: 3% off · 4+ packs: 6% off", or "" without tiers: the card, dialog and product page. */
export const tiersText = (product: TieredProduct): string =>
  (product.multibuyTiers ?? []).map(describeTier).join(" · ");

/**
 * "from R1.80 per nappy at 4+ packs": the lowest price per unit at the best tier, shown only beside
 * the tiers themselves (so the card never shows a per-unit price a single pack does not get); "" when
 * the product has no tiers or no pack counts.
 */
export function bestTierPerUnitText(product: TieredProduct): string {
  const best = bestTier(product.multibuyTiers ?? []);
  if (!best) return "";
  const all = product.sizes.flatMap((size) => {
    const count = product.sizePackCounts?.[size];
    const cents = parseRandToCents(sizePrice(product, size));
    return count && cents !== null ? [perUnitAfterTierCents(cents, count, best.offBp)] : [];
  });
  if (all.length === 0) return "";
  return `from ${formatRand(Math.min(...all))} per ${product.packUnit || "unit"} at ${best.minPacks}+ packs`;
}
