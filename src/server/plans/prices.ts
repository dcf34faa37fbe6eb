import type { ProductForOrder } from "#domain/order-pricing.js";
import { planSavingBp, planUnitPriceCents } from "#domain/plans.js";

/** A product as a plan's box sells it: every size at its plan price (create-order prices the lines from it). */
export function atPlanPrices(product: ProductForOrder): ProductForOrder {
  const savingBp = planSavingBp(product.planSavingBp);
  return {
    ...product,
    priceCents: planUnitPriceCents(product.priceCents, savingBp),
    sizePrices: Object.fromEntries(
      Object.entries(product.sizePrices).map(([size, cents]) => [size, planUnitPriceCents(cents, savingBp)]),
    ),
    multibuyTiers: [],
  };
}
