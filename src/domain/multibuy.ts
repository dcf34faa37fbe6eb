import { MULTIBUY_LIMITS } from "./limits.js";
import { type Cents, formatRand } from "./money.js";
import { type MultibuyTier, tierReached, tierSavingCents } from "./multibuy-tiers.js";
import { percentText } from "./percent.js";
import type { PromoCheck, PromoFigures } from "./promo.js";
import { spreadDiscount } from "./promo.js";

export * from "./multibuy-tiers.js";

/** The tier after the one `packs` reach, or null at the top. */
export function nextTier(tiers: readonly MultibuyTier[], packs: number): MultibuyTier | null {
  let next: MultibuyTier | null = null;
  for (const tier of tiers) if (packs < tier.minPacks && (!next || tier.minPacks < next.minPacks)) next = tier;
  return next;
}

/**
 * Multi-buy prices (issue 42, docs/decisions/047-multi-buy-tiers.md): the owner sets tiers per
 * product, "2+ packs 3% off, 4+ packs 6% off"; packs of different sizes of one product count
 * together. A tier's saving is in basis points (300 = 3%), so no percentage is a float.
 */
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

/** How a multi-buy saving meets a promo code's discount on the same order (MULTIBUY_WITH_PROMO). */
export const MULTIBUY_PROMO_RULES = ["best", "both"] as const;
export type MultibuyPromoRule = (typeof MULTIBUY_PROMO_RULES)[number];

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
