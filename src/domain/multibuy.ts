import { type Cents, formatRand, parseRandToCents } from "./money.js";
import { perUnitCents, type SizedPrices, sizePrice } from "./packs.js";
import type { PromoCheck, PromoFigures } from "./promo.js";
import { spreadDiscount } from "./promo.js";

/**
 * Multi-buy prices (issue 42, docs/decisions/047-multi-buy-tiers.md): the owner sets tiers per
 * product, "2+ packs 3% off, 4+ packs 6% off"; packs of different sizes of one product count
 * together. A tier's saving is in basis points (300 = 3%), so no percentage is a float.
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

const BP = 10_000;

/** "3%", "2.5%", "0.25%": basis points as people read a percentage. */
export const percentText = (offBp: number): string => `${(offBp / 100).toFixed(2).replace(/\.?0+$/, "")}%`;

/** "2+ packs: 3% off". */
export const describeTier = (tier: MultibuyTier): string => `${tier.minPacks}+ packs: ${percentText(tier.offBp)} off`;

/**
 * Why a product's tiers cannot be kept, or null when they can: at most MULTIBUY_LIMITS.tiers,
 * each within its limits, minPacks strictly ascending and each tier saving more than the one before
 * (a bigger buy never saves less).
 */
export function tiersProblem(tiers: readonly MultibuyTier[]): string | null {
  const { minPacks, offBp } = MULTIBUY_LIMITS;
  if (tiers.length > MULTIBUY_LIMITS.tiers) return `A product has at most ${MULTIBUY_LIMITS.tiers} multi-buy tiers.`;
  for (const [index, tier] of tiers.entries()) {
    const name = `Multi-buy tier ${index + 1}`;
    if (!Number.isInteger(tier.minPacks) || tier.minPacks < minPacks.min || tier.minPacks > minPacks.max) {
      return `${name}: packs from must be a whole number from ${minPacks.min} to ${minPacks.max}.`;
    }
    if (!Number.isInteger(tier.offBp) || tier.offBp < offBp.min || tier.offBp > offBp.max) {
      return `${name}: the saving must be from ${percentText(offBp.min)} to ${percentText(offBp.max)}.`;
    }
    const before = tiers[index - 1];
    if (before && tier.minPacks <= before.minPacks) {
      return `${name}: packs from must be more than the tier before (${before.minPacks}).`;
    }
    if (before && tier.offBp <= before.offBp) {
      return `${name}: must save more than the tier before (${percentText(before.offBp)}).`;
    }
  }
  return null;
}

/** The tier `packs` reach (the highest whose minPacks they meet), or null. */
export function tierReached(tiers: readonly MultibuyTier[], packs: number): MultibuyTier | null {
  let reached: MultibuyTier | null = null;
  for (const tier of tiers)
    if (packs >= tier.minPacks && (!reached || tier.minPacks > reached.minPacks)) reached = tier;
  return reached;
}

/** The tier after the one `packs` reach, or null at the top. */
export function nextTier(tiers: readonly MultibuyTier[], packs: number): MultibuyTier | null {
  let next: MultibuyTier | null = null;
  for (const tier of tiers) if (packs < tier.minPacks && (!next || tier.minPacks < next.minPacks)) next = tier;
  return next;
}

/** The tier that saves most: the card's "from … per nappy". */
export const bestTier = (tiers: readonly MultibuyTier[]): MultibuyTier | null => tierReached(tiers, Infinity);

/** A tier's saving on an amount, rounded half up to the cent. */
export const tierSavingCents = (amountCents: Cents, offBp: number): Cents =>
  Math.floor((amountCents * offBp + BP / 2) / BP);

/** A pack's price per unit after a tier (rounded as packs.ts rounds): R199.99 for 104 at 3% off is R1.87. */
export const perUnitAfterTierCents = (priceCents: Cents, count: number, offBp: number): Cents =>
  perUnitCents(priceCents - tierSavingCents(priceCents, offBp), count);

/** A cart or order line as the tiers see it. */
export interface MultibuyLine {
  productId: string;
  quantity: number;
  /** Unit price x quantity. */
  amountCents: Cents;
}

export interface MultibuySavings {
  /** Off the goods: the sum of lineDiscountsCents. */
  discountCents: Cents;
  /** Per line, in the order given: the line's share of its product's saving. */
  lineDiscountsCents: Cents[];
}

/**
 * Each product's saving: the tier its packs reach (all its sizes together) off the product's lines
 * together, rounded once, then spread over those lines by largest remainder (promo.ts), so the
 * lines add up to the product's saving exactly.
 */
export function multibuySavings(
  lines: readonly MultibuyLine[],
  tiersOf: (productId: string) => readonly MultibuyTier[],
): MultibuySavings {
  const lineDiscountsCents = lines.map(() => 0);
  const amounts = lines.map((line) => line.amountCents);
  for (const productId of new Set(lines.map((line) => line.productId))) {
    const mine = lines.map((line) => line.productId === productId);
    const packs = lines.reduce((sum, line, index) => sum + (mine[index] ? line.quantity : 0), 0);
    const tier = tierReached(tiersOf(productId), packs);
    if (!tier) continue;
    const amount = amounts.reduce((sum, cents, index) => sum + (mine[index] ? cents : 0), 0);
    const spread = spreadDiscount(tierSavingCents(amount, tier.offBp), amounts, mine);
    spread.forEach((cents, index) => {
      lineDiscountsCents[index] = (lineDiscountsCents[index] ?? 0) + cents;
    });
  }
  return { discountCents: lineDiscountsCents.reduce((sum, cents) => sum + cents, 0), lineDiscountsCents };
}

/** Where a product of the cart stands: the tier reached, and what the next one would save. */
export interface MultibuyProgress {
  packs: number;
  reached: MultibuyTier | null;
  savingCents: Cents;
  next: {
    tier: MultibuyTier;
    /** Packs to add to reach it. */
    packsToAdd: number;
    /** The product's whole saving at that tier, the added packs priced as its cheapest pack in the cart. */
    savingCents: Cents;
  } | null;
}

/** A product's progress through its tiers, from its cart lines (all sizes). */
export function multibuyProgress(
  tiers: readonly MultibuyTier[],
  lines: readonly Pick<MultibuyLine, "quantity" | "amountCents">[],
): MultibuyProgress {
  const packs = lines.reduce((sum, line) => sum + line.quantity, 0);
  const amount = lines.reduce((sum, line) => sum + line.amountCents, 0);
  const reached = tierReached(tiers, packs);
  const savingCents = reached ? tierSavingCents(amount, reached.offBp) : 0;
  const tier = nextTier(tiers, packs);
  const cheapest = Math.min(...lines.map((line) => Math.floor(line.amountCents / Math.max(line.quantity, 1))));
  if (!tier || !Number.isFinite(cheapest)) return { packs, reached, savingCents, next: null };
  const packsToAdd = tier.minPacks - packs;
  return {
    packs,
    reached,
    savingCents,
    next: { tier, packsToAdd, savingCents: tierSavingCents(amount + packsToAdd * cheapest, tier.offBp) },
  };
}

/** "Add 1 more pack to save R23.40" (the whole saving at the next tier), or "" at the top tier. */
export function nextTierText(progress: MultibuyProgress): string {
  const { next } = progress;
  if (!next) return "";
  const packs = next.packsToAdd === 1 ? "1 more pack" : `${next.packsToAdd} more packs`;
  return `Add ${packs} to save ${formatRand(next.savingCents)} (${percentText(next.tier.offBp)} off).`;
}

/** An order's figures with its multi-buy saving, and a promo code's discount when it applies. */
export interface SavingsFigures extends PromoFigures {
  multibuyDiscountCents: Cents;
  /** Per line: its share of the multi-buy saving. */
  lineMultibuyCents: Cents[];
  /** Whether the promo code's discount is in these figures ('best' leaves it out when the tiers save more). */
  promoApplied: boolean;
}

export type SavingsCheck = { ok: true; figures: SavingsFigures } | Extract<PromoCheck, { ok: false }>;

/**
 * The tiers and a promo code together, by the owner's rule (MULTIBUY_WITH_PROMO):
 * - "best": whichever saves the shopper more on the order (the code's discount and waived delivery
 *   against the tiers' saving); on a tie the tiers, so the code stays unused;
 * - "both": the tiers first, then the code on what the lines come to after them.
 * `promo` checks the code with the amount already off each line (checkPromo's `alreadyOffCents`);
 * without a code it is null.
 */
export function combineSavings(
  multibuy: MultibuySavings,
  plain: PromoFigures,
  rule: MultibuyPromoRule,
  promo: ((alreadyOffCents: readonly Cents[]) => PromoCheck) | null,
): SavingsCheck {
  const tiersOnly: SavingsFigures = {
    ...plain,
    multibuyDiscountCents: multibuy.discountCents,
    lineMultibuyCents: multibuy.lineDiscountsCents,
    totalCents: plain.totalCents - multibuy.discountCents,
    promoApplied: false,
  };
  if (!promo) return { ok: true, figures: tiersOnly };
  const none = multibuy.lineDiscountsCents.map(() => 0);
  const check = promo(rule === "both" ? multibuy.lineDiscountsCents : none);
  if (!check.ok) return check;
  if (rule === "both") {
    return { ok: true, figures: { ...check.figures, ...pick(multibuy), promoApplied: true } };
  }
  const promoSaving = check.figures.discountCents + check.figures.deliveryDiscountCents;
  if (promoSaving <= multibuy.discountCents) return { ok: true, figures: tiersOnly };
  return {
    ok: true,
    figures: { ...check.figures, multibuyDiscountCents: 0, lineMultibuyCents: none, promoApplied: true },
  };
}

const pick = (multibuy: MultibuySavings) => ({
  multibuyDiscountCents: multibuy.discountCents,
  lineMultibuyCents: multibuy.lineDiscountsCents,
});

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
