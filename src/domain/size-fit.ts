/**
 * Which size fits (issue 42): each size of a product may carry the range of the baby's weight
 * (baby and kids nappies, pull-ups, swim nappies) or of the wearer's waist (adult products) it is
 * made for. Weights are whole grams and waists whole centimetres, so no range edge is a float.
 * The rules below are docs/decisions/046-size-finder.md.
 */
import { FIT_LIMITS } from "./limits.js";

export const FIT_MEASURES = ["weight", "waist"] as const;
export type FitMeasure = (typeof FIT_MEASURES)[number];

/** A size's range, both ends included: grams for "weight", centimetres for "waist". */
export interface FitRange {
  min: number;
  max: number;
}

/** "Between sizes: take the bigger one" applies in the top tenth of a range. */
export const BETWEEN_SIZES_SHARE = 0.1;
/** A child this close (grams) to the top of the range they fit is told "time to move up a size?". */
export const SIZE_UP_MARGIN_GRAMS = 500;

/** What a product's sizes fit, as the catalogue and the admin's form carry it. */
export interface ProductFit {
  sizes: readonly string[];
  fitMeasure: FitMeasure | null;
  sizeFits: Readonly<Record<string, FitRange>>;
}

/**
 * Why a size is (or none is) recommended: "fits" (its range holds the value), "between-sizes"
 * (the value sits in the top tenth of a range, or in a gap between two, and the bigger size is
 * taken), "too-small" / "too-big" (below or above every range of the product).
 */
export type FitReason = "fits" | "between-sizes" | "too-small" | "too-big";

export interface SizeRecommendation {
  size: string | null;
  reason: FitReason;
}

/** The unit a measure is entered and shown in. */
export const FIT_UNIT: Record<FitMeasure, string> = { weight: "kg", waist: "cm" };

/** Sizes with a range, smallest first (by the range's bottom, then its top; ties keep the product's order). */
export function sizesByRange(fit: ProductFit): { size: string; range: FitRange }[] {
  return fit.sizes
    .flatMap((size) => {
      const range = fit.sizeFits[size];
      return range ? [{ size, range }] : [];
    })
    .sort((a, b) => a.range.min - b.range.min || a.range.max - b.range.max);
}

/** True when `value` sits lower in range `a` than in range `b` (exact: no division). */
function lowerIn(value: number, a: FitRange, b: FitRange): boolean {
  const spanA = Math.max(1, a.max - a.min);
  const spanB = Math.max(1, b.max - b.min);
  return (value - a.min) * spanB < (value - b.min) * spanA;
}

/** In the top tenth of the range (its top included). */
const inTopTenth = (value: number, range: FitRange) => (range.max - value) * 10 <= range.max - range.min;

/**
 * The size to recommend for a weight (grams) or waist (cm); null when the product has no ranges.
 * Of two overlapping sizes the one the value sits lower in wins (more room to grow); in the top
 * tenth of that range, or in a gap between two ranges, the next bigger size is taken.
 */
export function recommendSize(fit: ProductFit, value: number): SizeRecommendation | null {
  const ranked = sizesByRange(fit);
  if (!fit.fitMeasure || ranked.length === 0) return null;
  let best = -1;
  ranked.forEach(({ range }, index) => {
    if (value < range.min || value > range.max) return;
    const current = ranked[best];
    if (!current || lowerIn(value, range, current.range)) best = index;
  });
  const found = ranked[best];
  if (!found) {
    const bigger = ranked.find(({ range }) => range.min > value);
    if (!bigger) return { size: null, reason: "too-big" };
    if (bigger === ranked[0]) return { size: null, reason: "too-small" };
    return { size: bigger.size, reason: "between-sizes" };
  }
  const next = ranked.slice(best + 1).find(({ range }) => range.max > found.range.max);
  if (next && inTopTenth(value, found.range)) return { size: next.size, reason: "between-sizes" };
  return { size: found.size, reason: "fits" };
}

/**
 * "Time to move up a size?": the weight is in a range and within SIZE_UP_MARGIN_GRAMS of its top,
 * and a bigger size exists. Answers the size the child is near the top of, or null.
 */
export function nearTopOfSize(fit: ProductFit, weightGrams: number): string | null {
  if (fit.fitMeasure !== "weight") return null;
  const ranked = sizesByRange(fit);
  const top = ranked.at(-1)?.range.max ?? 0;
  const near = ranked.find(
    ({ range }) =>
      weightGrams >= range.min &&
      weightGrams <= range.max &&
      range.max - weightGrams <= SIZE_UP_MARGIN_GRAMS &&
      range.max < top,
  );
  return near?.size ?? null;
}

/**
 * What is wrong with a product's ranges, as messages naming the field (none: an empty list): a measure
 * with ranges, sizes of the product, whole numbers within FIT_LIMITS, bottom not above top.
 */
export function sizeFitProblems(fit: ProductFit): string[] {
  const entries = Object.entries(fit.sizeFits);
  if (!fit.fitMeasure) {
    return entries.length > 0 ? ["sizeFits needs fitMeasure (weight or waist)"] : [];
  }
  const limits = FIT_LIMITS[fit.fitMeasure];
  const unit = fit.fitMeasure === "weight" ? "grams" : "cm";
  const problems: string[] = [];
  for (const [size, range] of entries) {
    if (!fit.sizes.includes(size)) problems.push(`sizeFits names "${size}", which is not one of the sizes`);
    else if (!Number.isInteger(range.min) || !Number.isInteger(range.max)) {
      problems.push(`sizeFits for "${size}" must be whole ${unit}`);
    } else if (range.min < limits.min || range.max > limits.max) {
      problems.push(`sizeFits for "${size}" must be within ${fitText(fit.fitMeasure, limits)}`);
    } else if (range.min > range.max) {
      problems.push(`sizeFits for "${size}": the smallest must not be above the largest`);
    }
  }
  return problems;
}

/** A weight in grams as kilograms for people: "2", "2.5", "12.25". */
export function gramsAsKg(grams: number): string {
  return String(Math.round(grams / 10) / 100);
}

/** A range as people read it: "2-5 kg", "9.5-14 kg", "70-110 cm". */
export function fitText(measure: FitMeasure, range: FitRange): string {
  const show = measure === "weight" ? gramsAsKg : String;
  return `${show(range.min)}-${show(range.max)} ${FIT_UNIT[measure]}`;
}
