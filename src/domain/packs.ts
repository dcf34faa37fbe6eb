import { formatRand, parseRandToCents } from "./money.js";

/**
 * Prices and packs per size (docs/decisions/022-prices-per-size.md): each size has its own price
 * and the units in its pack; `price` is the lowest size price, the card's "from".
 */
export interface SizedPrices {
  price: string;
  sizes: string[];
  /** Size to price ("249.99"); a size missing here costs `price`. */
  sizePrices?: Record<string, string> | undefined;
  /** Size to units in its pack; a size missing here has no per-unit price. */
  sizePackCounts?: Record<string, number> | undefined;
  /** The unit's word, singular ("nappy"); null or missing: "unit". */
  packUnit?: string | null | undefined;
}

/** A size's price on the wire: its own, or the product's. */
export const sizePrice = (product: SizedPrices, size: string): string => product.sizePrices?.[size] ?? product.price;

/** True when the sizes do not all cost the same: the price shows as "from". */
export const pricesDiffer = (product: SizedPrices): boolean =>
  new Set(product.sizes.map((size) => sizePrice(product, size))).size > 1;

/** Cents per unit of a pack, to the nearest cent: 31_199 for 100 costs 312. */
export const perUnitCents = (priceCents: number, count: number): number => Math.round(priceCents / count);

/** A size's price per unit in cents, or null when its pack count is not known. */
export function sizePerUnitCents(product: SizedPrices, size: string): number | null {
  const count = product.sizePackCounts?.[size];
  const cents = parseRandToCents(sizePrice(product, size));
  return count && count > 0 && cents !== null ? perUnitCents(cents, count) : null;
}

/** The lowest price per unit over the sizes (the sort's key), or null when no size has a pack count. */
export function lowestPerUnitCents(product: SizedPrices): number | null {
  const all = product.sizes.map((size) => sizePerUnitCents(product, size)).filter((cents) => cents !== null);
  return all.length ? Math.min(...all) : null;
}

/** "nappy" -> "nappies", "pad" -> "pads": for a pack of more than one. */
export const pluralUnit = (word: string): string => (/[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`);

const unitWord = (product: SizedPrices) => product.packUnit || "unit";

/** "R3.12 per nappy" for a size (or "from R2.31 per nappy" over all sizes when `size` is null); "" without pack counts. */
export function perUnitText(product: SizedPrices, size: string | null): string {
  const cents = size === null ? lowestPerUnitCents(product) : sizePerUnitCents(product, size);
  if (cents === null) return "";
  const from = size === null && new Set(product.sizes.map((each) => sizePerUnitCents(product, each))).size > 1;
  return `${from ? "from " : ""}${formatRand(cents)} per ${unitWord(product)}`;
}

/** "Pack of 44 nappies", or "" when the size's pack count is not known. */
export function packText(product: SizedPrices, size: string): string {
  const count = product.sizePackCounts?.[size];
  if (!count) return "";
  const word = unitWord(product);
  return `Pack of ${count} ${count === 1 ? word : pluralUnit(word)}`;
}

/** The price a card or page shows: the size's, or "from R…" (the lowest) when no size is chosen and sizes differ. */
export function priceText(product: SizedPrices, size: string | null): string {
  const cents = parseRandToCents(size === null ? product.price : sizePrice(product, size)) ?? 0;
  return `${size === null && pricesDiffer(product) ? "from " : ""}${formatRand(cents)}`;
}
