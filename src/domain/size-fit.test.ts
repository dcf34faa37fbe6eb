import { describe, expect, it } from "vitest";
import { fitText, gramsAsKg, nearTopOfSize, type ProductFit, recommendSize, sizeFitProblems } from "./size-fit";

const kg = (value: number) => Math.round(value * 1000);

/** Baby nappies as the seed carries them: overlapping ranges, like the brands' packs. */
const nappies: ProductFit = {
  sizes: ["Newborn", "Size 1", "Size 2", "Size 3", "Size 4", "Size 5", "Size 6"],
  fitMeasure: "weight",
  sizeFits: {
    Newborn: { min: kg(2), max: kg(5) },
    "Size 1": { min: kg(2), max: kg(5) },
    "Size 2": { min: kg(3), max: kg(6) },
    "Size 3": { min: kg(6), max: kg(10) },
    "Size 4": { min: kg(9), max: kg(14) },
    "Size 5": { min: kg(11), max: kg(16) },
    "Size 6": { min: kg(16), max: kg(25) },
  },
};

/** Sizes that touch and one gap: S 6-9, M 9.1-12, L 14-18 kg. */
const apart: ProductFit = {
  sizes: ["L", "M", "S"],
  fitMeasure: "weight",
  sizeFits: { S: { min: kg(6), max: kg(9) }, M: { min: kg(9.1), max: kg(12) }, L: { min: kg(14), max: kg(18) } },
};

describe("the recommended size", () => {
  it.each([
    // Below and above every range: none, with why.
    [apart, kg(5.999), null, "too-small"],
    [apart, kg(18.001), null, "too-big"],
    // The bottom edge of a range is in it; its top tenth takes the bigger size.
    [apart, kg(6), "S", "fits"],
    [apart, kg(8.699), "S", "fits"],
    [apart, kg(8.7), "M", "between-sizes"], // 9 - 0.3: the top tenth of a 3 kg range starts here
    [apart, kg(9), "M", "between-sizes"], // the top edge of S
    [apart, kg(9.05), "M", "between-sizes"], // between S and M
    [apart, kg(9.1), "M", "fits"],
    [apart, kg(12), "L", "between-sizes"], // the top of M, then the gap up to L
    [apart, kg(13), "L", "between-sizes"],
    [apart, kg(14), "L", "fits"],
    // The biggest size has none bigger: its top tenth still recommends it, its top edge too.
    [apart, kg(18), "L", "fits"],
  ])("%#: at %d g it is %s (%s)", (fit, value, size, reason) => {
    expect(recommendSize(fit, value)).toEqual({ size, reason });
  });

  it.each([
    [kg(2), "Newborn"], // Newborn and Size 1 share 2-5 kg: the tie keeps the list's order
    [kg(3), "Size 2"], // in Size 1 at a third, Size 2 at its bottom: more room to grow
    [kg(5), "Size 2"],
    [kg(6), "Size 3"], // the top of Size 2 (its top tenth) and the bottom of Size 3
    [kg(7.5), "Size 3"],
    [kg(9), "Size 4"],
    [kg(9.7), "Size 4"], // 92% into Size 3, 14% into Size 4
    [kg(11), "Size 5"],
    [kg(16), "Size 6"],
    [kg(25), "Size 6"],
  ])("of overlapping sizes takes the one the weight sits lower in: %d g is %s", (value, size) => {
    expect(recommendSize(nappies, value)?.size).toBe(size);
  });

  it("keeps the product's order between two sizes of the same range", () => {
    const same: ProductFit = {
      ...nappies,
      sizeFits: { Newborn: { min: kg(2), max: kg(5) }, "Size 1": { min: kg(2), max: kg(5) } },
    };
    expect(recommendSize(same, kg(2))).toEqual({ size: "Newborn", reason: "fits" });
  });

  it("recommends by waist for adult products", () => {
    const briefs: ProductFit = {
      sizes: ["M", "L"],
      fitMeasure: "waist",
      sizeFits: { M: { min: 80, max: 110 }, L: { min: 100, max: 140 } },
    };
    expect(recommendSize(briefs, 79)).toEqual({ size: null, reason: "too-small" });
    expect(recommendSize(briefs, 90)).toEqual({ size: "M", reason: "fits" });
    expect(recommendSize(briefs, 141)).toEqual({ size: null, reason: "too-big" });
  });

  it("is not given for a product without ranges", () => {
    expect(recommendSize({ sizes: ["S"], fitMeasure: null, sizeFits: {} }, kg(7))).toBeNull();
    expect(recommendSize({ sizes: ["S"], fitMeasure: "weight", sizeFits: {} }, kg(7))).toBeNull();
  });
});

describe("time to move up a size", () => {
  it.each([
    [kg(9.499), null],
    [kg(9.5), "Size 3"], // within 0.5 kg of Size 3's top
    [kg(10), "Size 3"],
    [kg(4.5), "Newborn"],
    [kg(24.5), null], // the biggest size: nothing to move up to
  ])("at %d g: %s", (value, size) => {
    expect(nearTopOfSize(nappies, value)).toBe(size);
  });

  it("is only for weights", () => {
    expect(
      nearTopOfSize(
        { sizes: ["M", "L"], fitMeasure: "waist", sizeFits: { M: { min: 80, max: 110 }, L: { min: 100, max: 140 } } },
        110,
      ),
    ).toBeNull();
  });
});

describe("a product's ranges", () => {
  const base: ProductFit = { sizes: ["S", "M"], fitMeasure: "weight", sizeFits: {} };
  it.each([
    [{ S: { min: 1000, max: 40000 } }, []],
    [{ S: { min: 999, max: 5000 } }, ['sizeFits for "S" must be within 1-40 kg']],
    [{ S: { min: 1000, max: 40001 } }, ['sizeFits for "S" must be within 1-40 kg']],
    [{ S: { min: 5000, max: 4999 } }, ['sizeFits for "S": the smallest must not be above the largest']],
    [{ S: { min: 5000, max: 5000 } }, []],
    [{ XL: { min: 5000, max: 6000 } }, ['sizeFits names "XL", which is not one of the sizes']],
    [{ S: { min: 5000.5, max: 6000 } }, ['sizeFits for "S" must be whole grams']],
  ])("%#: %j", (sizeFits, problems) => {
    expect(sizeFitProblems({ ...base, sizeFits })).toEqual(problems);
  });

  it("keeps waists within 40-200 cm and needs a measure for ranges", () => {
    expect(sizeFitProblems({ ...base, fitMeasure: "waist", sizeFits: { S: { min: 39, max: 80 } } })).toEqual([
      'sizeFits for "S" must be within 40-200 cm',
    ]);
    expect(sizeFitProblems({ ...base, fitMeasure: "waist", sizeFits: { S: { min: 40, max: 200 } } })).toEqual([]);
    expect(sizeFitProblems({ ...base, fitMeasure: null, sizeFits: { S: { min: 40, max: 80 } } })).toEqual([
      "sizeFits needs fitMeasure (weight or waist)",
    ]);
    expect(sizeFitProblems({ ...base, fitMeasure: null })).toEqual([]);
  });
});

describe("ranges as people read them", () => {
  it("shows kilograms and centimetres", () => {
    expect(gramsAsKg(2500)).toBe("2.5");
    expect(gramsAsKg(12_250)).toBe("12.25");
    expect(fitText("weight", { min: 9000, max: 14_000 })).toBe("9-14 kg");
    expect(fitText("waist", { min: 70, max: 110 })).toBe("70-110 cm");
  });
});
