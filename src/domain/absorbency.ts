/**
 * Absorbency of adult and period products (issue 42): a level the owner sets per product, 1 to 6,
 * which the storefront filters by and names in words.
 */
export const ABSORBENCY_LEVELS = [1, 2, 3, 4, 5, 6] as const;
export type Absorbency = (typeof ABSORBENCY_LEVELS)[number];

export const ABSORBENCY_LABELS: Record<Absorbency, string> = {
  1: "Very light",
  2: "Light",
  3: "Moderate",
  4: "Heavy",
  5: "Very heavy",
  6: "Overnight",
};
