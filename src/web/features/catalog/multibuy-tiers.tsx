import { bestTierPerUnitText, tiersText } from "#domain/multibuy-tiers.js";
import type { Product } from "#domain/schemas/catalog.js";

/** A product's multi-buy tiers ("2+ packs: 3% off"), with the best price per unit they reach; nothing without tiers. */
export function MultibuyTiers({ product, className = "" }: { product: Product; className?: string }) {
  const tiers = tiersText(product);
  if (!tiers) return null;
  const unit = bestTierPerUnitText(product);
  return (
    <p className={`text-sm text-brand-900 ${className}`}>
      <span className="font-semibold">Multi-buy: {tiers}</span>
      {unit && <span className="tabular block text-stone-600">{unit}</span>}
    </p>
  );
}
