import type { FitMeasure, FitRange } from "#domain/size-fit.js";

/** [bottom, top] in kg for a weight, in cm for a waist, both ends included. */
type Ends = [number, number];

interface SeedFit {
  measure: FitMeasure;
  sizes: Record<string, Ends>;
}

/**
 * The size guide of the seeded products (issue 42), by product name. Each range is the one on the
 * pack's label (the size's name carries it, as Huggies and Pampers sizes in South Africa do), so
 * the guide never disagrees with the pack; an open top ("16kg+") ends where children leave
 * nappies. Adult pants and briefs go by the waist, as TENA's and Depend's charts do. Night Pants
 * (27-57 kg) are left out: FIT_LIMITS stops a weight at 40 kg.
 */
const seedFits: Record<string, SeedFit> = {
  "Snug & Dry Newborn Nappies": {
    measure: "weight",
    sizes: { "Newborn (up to 4kg)": [2, 4], "Size 1 (2-5kg)": [2, 5] },
  },
  "Snug & Dry Baby Nappies Value Pack": {
    measure: "weight",
    sizes: {
      "Size 1 (2-5kg)": [2, 5],
      "Size 2 (3-6kg)": [3, 6],
      "Size 3 (4-9kg)": [4, 9],
      "Size 4 (7-18kg)": [7, 18],
      "Size 5 (11-25kg)": [11, 25],
      "Size 6 (16kg+)": [16, 30],
    },
  },
  "Snug & Dry Premium Nappies Jumbo Pack": {
    measure: "weight",
    sizes: { "Size 3 (4-9kg)": [4, 9], "Size 4 (7-18kg)": [7, 18], "Size 5 (11-25kg)": [11, 25] },
  },
  "Snug & Dry Overnight Nappies": {
    measure: "weight",
    sizes: { "Size 4 (7-18kg)": [7, 18], "Size 5 (11-25kg)": [11, 25], "Size 6 (16kg+)": [16, 30] },
  },
  "Snug & Dry Bamboo Eco Nappies": {
    measure: "weight",
    sizes: { "S (3-6kg)": [3, 6], "M (6-11kg)": [6, 11], "L (9-14kg)": [9, 14], "XL (12kg+)": [12, 25] },
  },
  "Snug & Dry Swim Nappies": {
    measure: "weight",
    sizes: { "S (7-13kg)": [7, 13], "M (12-18kg)": [12, 18], "L (16kg+)": [16, 25] },
  },
  "Snug & Dry Pull-Up Pants": {
    measure: "weight",
    sizes: { "Size 4 (9-15kg)": [9, 15], "Size 5 (12-17kg)": [12, 17], "Size 6 (15-25kg)": [15, 25] },
  },
  "Snug & Dry Pull-Up Pants Jumbo Pack": {
    measure: "weight",
    sizes: { "Size 4 (9-15kg)": [9, 15], "Size 5 (12-17kg)": [12, 17], "Size 6 (15-25kg)": [15, 25] },
  },
  "Snug & Dry Potty Training Pants": {
    measure: "weight",
    sizes: { "Size 5 (12-17kg)": [12, 17], "Size 6 (15-25kg)": [15, 25] },
  },
  "Snug & Dry Adult Pants": {
    measure: "waist",
    sizes: { S: [65, 85], M: [80, 110], L: [100, 135], XL: [120, 160] },
  },
  "Snug & Dry Adult Briefs Super": { measure: "waist", sizes: { M: [73, 122], L: [92, 144], XL: [120, 160] } },
  "Snug & Dry Adult Night Pants": { measure: "waist", sizes: { M: [80, 110], L: [100, 135], XL: [120, 160] } },
  "Snug & Dry Period Underwear": {
    measure: "waist",
    sizes: { XS: [58, 64], S: [64, 70], M: [70, 78], L: [78, 86], XL: [86, 96], XXL: [96, 108] },
  },
};

/** A seeded product's size-guide columns (grams or cm); undefined for a product without a guide. */
export function seedSizeFitColumns(
  name: string,
): { fitMeasure: FitMeasure; sizeFits: Record<string, FitRange> } | undefined {
  const fit = seedFits[name];
  if (!fit) return undefined;
  const scale = fit.measure === "weight" ? 1000 : 1;
  const sizeFits = Object.fromEntries(
    Object.entries(fit.sizes).map(([size, [min, max]]) => [
      size,
      { min: Math.round(min * scale), max: Math.round(max * scale) },
    ]),
  );
  return { fitMeasure: fit.measure, sizeFits };
}

/** The names the guide is seeded for (the seed's test checks each is a seeded product with those sizes). */
export const seededFitNames = Object.keys(seedFits);
