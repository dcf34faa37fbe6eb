/**
 * "Shop by size" on the storefront (issue 42, docs/decisions/048-shop-by-size.md): a baby's weight
 * in kg, a size's name, and at least an absorbency level narrow the storefront's search. The server
 * filters (src/server/catalog/search.ts); these are the rules both sides read the filter by. Small
 * on purpose: the storefront's first-load bundle carries it.
 */
import { FIT_LIMITS } from "./limits.js";

/** A weight as a shopper types it: whole kg or up to 3 decimals, a comma or a point ("7.5", "7,25"). */
const WEIGHT_KG = /^(\d{1,3})(?:[.,](\d{1,3}))?$/;

/**
 * A weight in kg as typed, in whole grams, or null when it is not a weight a size's range can hold
 * (FIT_LIMITS.weight: 1 to 40 kg, ends included). Read digit by digit: no float is ever rounded.
 */
export function weightGramsOf(text: string): number | null {
  const match = WEIGHT_KG.exec(text.trim());
  if (!match) return null;
  const grams = Number(match[1]) * 1000 + Number((match[2] ?? "").padEnd(3, "0"));
  return grams >= FIT_LIMITS.weight.min && grams <= FIT_LIMITS.weight.max ? grams : null;
}

/** Clothing sizes in the order a shopper reads them; other names follow, in natural order. */
const WORN_ORDER = ["XXS", "XS", "S", "M", "L", "XL", "XXL", "XXXL"];

/** Size names in a menu's order: XS before S before M..., then "Regular", "Size 2" before "Size 10". */
export function sortSizeNames(names: readonly string[]): string[] {
  const rank = (name: string) => {
    const index = WORN_ORDER.indexOf(name.toUpperCase());
    return index === -1 ? WORN_ORDER.length : index;
  };
  return [...names].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b, "en", { numeric: true, sensitivity: "base" }),
  );
}
