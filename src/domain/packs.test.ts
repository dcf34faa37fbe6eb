import { describe, expect, it } from "vitest";
import {
  lowestPerUnitCents,
  packText,
  perUnitCents,
  perUnitText,
  pluralUnit,
  pricesDiffer,
  priceText,
  sizePerUnitCents,
  sizePrice,
} from "./packs";

const nappies = {
  price: "249.99",
  sizes: ["Newborn", "Size 1", "Size 6"],
  sizePrices: { Newborn: "249.99", "Size 1": "259.99", "Size 6": "429.99" },
  sizePackCounts: { Newborn: 108, "Size 1": 100, "Size 6": 102 },
  packUnit: "nappy",
};

describe("the price of a size", () => {
  it("is the size's own, or the product's when it has none (an older cart's product)", () => {
    expect(sizePrice(nappies, "Size 6")).toBe("429.99");
    expect(sizePrice({ price: "99.00", sizes: ["M"] }, "M")).toBe("99.00");
  });

  it("shows 'from' the lowest until a size is chosen, only when sizes differ", () => {
    expect(pricesDiffer(nappies)).toBe(true);
    expect(priceText(nappies, null)).toBe("from R249.99");
    expect(priceText(nappies, "Size 6")).toBe("R429.99");
    const same = { price: "189.99", sizes: ["S", "M"], sizePrices: { S: "189.99", M: "189.99" } };
    expect(pricesDiffer(same)).toBe(false);
    expect(priceText(same, null)).toBe("R189.99");
  });
});

describe("the price per unit", () => {
  it.each([
    [24_999, 108, 231], // R2.3147 rounds down
    [42_999, 102, 422], // R4.2156 rounds up
    [3_999, 64, 62], // R0.6248
    [150, 4, 38], // R0.375: half a cent rounds up
    [22_999, 1, 22_999],
    [1, 10_000, 0], // a cent over the largest pack
  ])("of %i cents for %i units is %i cents", (cents, count, expected) => {
    expect(perUnitCents(cents, count)).toBe(expected);
  });

  it("of a size needs its pack count", () => {
    expect(sizePerUnitCents(nappies, "Size 1")).toBe(260);
    expect(sizePerUnitCents({ ...nappies, sizePackCounts: {} }, "Size 1")).toBeNull();
    expect(lowestPerUnitCents(nappies)).toBe(231);
    expect(lowestPerUnitCents({ price: "10.00", sizes: ["A"] })).toBeNull();
  });

  it("reads 'R3.12 per nappy', 'from' over sizes that differ, in the product's word or 'unit'", () => {
    expect(perUnitText(nappies, "Size 6")).toBe("R4.22 per nappy");
    expect(perUnitText(nappies, null)).toBe("from R2.31 per nappy");
    expect(perUnitText({ ...nappies, packUnit: null }, "Newborn")).toBe("R2.31 per unit");
    expect(perUnitText({ price: "39.99", sizes: ["64"], sizePackCounts: { "64": 64 }, packUnit: "wipe" }, null)).toBe(
      "R0.62 per wipe",
    );
    expect(perUnitText({ price: "69.99", sizes: ["100ml"] }, "100ml")).toBe("");
  });

  it("names the pack in the plural the word takes", () => {
    expect(packText(nappies, "Newborn")).toBe("Pack of 108 nappies");
    expect(packText({ ...nappies, packUnit: "pair", sizePackCounts: { Newborn: 1 } }, "Newborn")).toBe(
      "Pack of 1 pair",
    );
    expect(packText({ ...nappies, sizePackCounts: {} }, "Newborn")).toBe("");
    expect(["nappy", "pad", "liner", "wipe", "pair", "tampon", "day"].map(pluralUnit)).toEqual([
      "nappies",
      "pads",
      "liners",
      "wipes",
      "pairs",
      "tampons",
      "days",
    ]);
  });
});
