import type { Product } from "#domain/schemas/catalog.js";

/**
 * A product's multi-buy tiers ("2+ packs: 3% off"), with the best price per unit they reach, as
 * the server worded them (`multibuyNote`): the card is in the first load, which carries no tier
 * arithmetic. Nothing without tiers.
 */
export function MultibuyTiers({ product, className = "" }: { product: Product; className?: string }) {
  const note = product.multibuyNote;
  if (!note) return null;
  return (
    <p className={`text-sm text-brand-900 ${className}`}>
      <span className="font-semibold">Multi-buy: {note.tiers}</span>
      {note.perUnit && <span className="tabular block text-stone-600">{note.perUnit}</span>}
    </p>
  );
}
