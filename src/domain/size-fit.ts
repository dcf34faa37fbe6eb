/**
 * Which size fits (issue 42): each size of a product may carry the range of the baby's weight
 * (baby and kids nappies, pull-ups, swim nappies) or of the wearer's waist (adult products) it is
 * made for. Weights are whole grams and waists whole centimetres, so no range edge is a float.
 */
export const FIT_MEASURES = ["weight", "waist"] as const;
export type FitMeasure = (typeof FIT_MEASURES)[number];

/** A size's range, both ends included: grams for "weight", centimetres for "waist". */
export interface FitRange {
  min: number;
  max: number;
}

/** The limits a range's ends must keep: a newborn's 1 kg to a 40 kg child; a 40 cm to a 200 cm waist. */
export const FIT_LIMITS: Record<FitMeasure, FitRange> = {
  weight: { min: 1_000, max: 40_000 },
  waist: { min: 40, max: 200 },
};
