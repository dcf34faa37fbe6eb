import { type CartLine, cartSubtotalCents } from "#domain/cart.js";
import { parseRandToCents } from "#domain/money.js";
import {
  type MultibuyTier,
  multibuyProgress,
  multibuySavings,
  nextTierText,
  perUnitAfterTierCents,
} from "#domain/multibuy.js";
import { percentText } from "#domain/percent.js";
import { formatRand } from "#web/lib/format.js";
import { useCart } from "../cart";
import { useLiveCartProducts } from "../cart/api";

const amountOf = (line: CartLine) => (parseRandToCents(line.price) ?? 0) * line.quantity;

/**
 * The cart's multi-buy saving as the server will work it out (src/domain/multibuy.ts): the tiers of
 * the live catalogue, or those the line was added with until it answers. Create-order decides.
 */
export function useCartMultibuy() {
  const { items } = useCart();
  const live = useLiveCartProducts();
  const tiersOf = (productId: string): readonly MultibuyTier[] =>
    live.find((product) => product?.id === productId)?.multibuyTiers ??
    items.find((line) => line.id === productId)?.multibuyTiers ??
    [];
  const savings = multibuySavings(
    items.map((line) => ({ productId: line.id, quantity: line.quantity, amountCents: amountOf(line) })),
    tiersOf,
  );
  const progressOf = (productId: string) =>
    multibuyProgress(
      tiersOf(productId),
      items
        .filter((line) => line.id === productId)
        .map((line) => ({ quantity: line.quantity, amountCents: amountOf(line) })),
    );
  return { discountCents: savings.discountCents, subtotalCents: cartSubtotalCents(items), tiersOf, progressOf };
}

export type CartMultibuy = ReturnType<typeof useCartMultibuy>;

/**
 * Under a cart line: the price per unit after the tier its product reached, and under the product's
 * last line the tier reached and what the next one saves ("Add 1 more pack to save R23.40").
 */
export function MultibuyLineNote({
  line,
  multibuy,
  last,
}: {
  line: CartLine;
  multibuy: CartMultibuy;
  /** The product's last line in the cart: the progress shows once per product. */
  last: boolean;
}) {
  if (multibuy.tiersOf(line.id).length === 0) return null;
  const progress = multibuy.progressOf(line.id);
  const count = line.sizePackCounts?.[line.size];
  const unit = parseRandToCents(line.price) ?? 0;
  const perUnit = progress.reached && count ? perUnitAfterTierCents(unit, count, progress.reached.offBp) : null;
  const next = last ? nextTierText(progress) : "";
  if (perUnit === null && !next && !(last && progress.reached)) return null;
  return (
    <div className="mt-1 space-y-0.5 text-sm text-brand-900">
      {perUnit !== null && (
        <p className="tabular">
          {formatRand(perUnit)} per {line.packUnit || "unit"} with multi-buy
        </p>
      )}
      {last && progress.reached && (
        <p className="font-medium">
          Multi-buy {percentText(progress.reached.offBp)} off ({progress.packs} packs): you save{" "}
          {formatRand(progress.savingCents)}
        </p>
      )}
      {next && <p>{next}</p>}
    </div>
  );
}

/** Whether a line is its product's last in the cart (the progress note goes under it). */
export const isLastOfProduct = (items: readonly CartLine[], index: number) =>
  !items.slice(index + 1).some((other) => other.id === items[index]?.id);
