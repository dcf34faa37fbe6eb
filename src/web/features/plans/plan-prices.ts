import type { CartLine } from "#domain/cart.js";
import { centsToDecimal, parseRandToCents } from "#domain/money.js";
import { planSavingBp, planUnitPriceCents } from "#domain/plans.js";

/**
 * A cart as a nappy plan's first box (decision 050): every line at its plan price and without multi-buy
 * tiers (a box takes the plan saving instead), the box's subtotal, and what the saving takes off the
 * shelf prices. The server prices the box again; the cart sheet and the checkout show these figures.
 */
export function cartAtPlanPrices<Line extends CartLine>(lines: readonly Line[]) {
  let subtotalCents = 0;
  let shelfCents = 0;
  const items = lines.map((line) => {
    const shelf = parseRandToCents(line.price) ?? 0;
    const unit = planUnitPriceCents(shelf, planSavingBp(line.planSavingBp));
    shelfCents += shelf * line.quantity;
    subtotalCents += unit * line.quantity;
    return { ...line, price: centsToDecimal(unit), multibuyTiers: [] };
  });
  return { items, subtotalCents, savingCents: shelfCents - subtotalCents };
}
