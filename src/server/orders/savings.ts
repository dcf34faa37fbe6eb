import type { Cents } from "#domain/money.js";
import { combineSavings, type MultibuyPromoRule, multibuySavings, type SavingsCheck } from "#domain/multibuy.js";
import type { OrderFigures, PricedOrderLine, ProductForOrder } from "#domain/order-pricing.js";
import { deliveryFeeCents } from "#domain/pricing.js";
import { type DeliveryFeeRule, type PromoCheck, plainFigures } from "#domain/promo.js";

/** A promo code as the savings see it: checked against the priced lines, with what the tiers took off each. */
export type PromoAgainst = (
  lines: PricedOrderLine[],
  alreadyOffCents: readonly Cents[],
  feeOf?: DeliveryFeeRule,
) => PromoCheck;

/**
 * An order's savings at create-order and at a code check (docs/decisions/047-multi-buy-tiers.md):
 * the tiers of each product from the database, then a promo code by MULTIBUY_WITH_PROMO.
 * `totalsOf` gives priceOrder the figures the client must show; `outcome` what the savings did to
 * the priced lines (a refused code is there for the route to answer with).
 */
export function savingsForOrder(
  products: readonly Pick<ProductForOrder, "id" | "multibuyTiers">[],
  rule: MultibuyPromoRule,
  promo: PromoAgainst | null,
  /** What delivery costs: the chosen option's (delivery/order-delivery.ts), the flat rule without one. */
  feeOf: DeliveryFeeRule = deliveryFeeCents,
) {
  const tiers = new Map(products.map((product) => [product.id, product.multibuyTiers]));
  let outcome: SavingsCheck | null = null;
  return {
    totalsOf(lines: PricedOrderLine[]): OrderFigures {
      const amounts = lines.map((line) => ({
        productId: line.productId,
        quantity: line.quantity,
        amountCents: line.unitPriceCents * line.quantity,
      }));
      const multibuy = multibuySavings(amounts, (id) => tiers.get(id) ?? []);
      const plain = plainFigures(
        amounts.map((line) => ({ ...line, categoryId: null })),
        feeOf,
      );
      outcome = combineSavings(multibuy, plain, rule, promo ? (off) => promo(lines, off, feeOf) : null);
      return outcome.ok ? outcome.figures : { ...plain, totalCents: plain.totalCents - multibuy.discountCents };
    },
    outcome: () => outcome,
  };
}
