import { describe, expect, it } from "vitest";
import { kgText, sortSizeNames, weightGramsOf } from "./shop-by-size";

describe("weightGramsOf", () => {
  it.each<[string, number | null]>([
    ["7.5", 7_500],
    ["7,5", 7_500],
    [" 9 ", 9_000],
    ["1", 1_000],
    ["40", 40_000],
    ["0.999", null],
    ["40.001", null],
    ["12.345", 12_345],
    ["12.3456", null],
    ["", null],
    ["-3", null],
    ["7.", null],
    [".5", null],
    ["1e1", null],
    ["seven", null],
  ])("reads %j as %j grams", (text, grams) => {
    expect(weightGramsOf(text)).toBe(grams);
  });
});

describe("kgText", () => {
  it.each([
    [7_500, "7.5"],
    [9_000, "9"],
    [12_345, "12.345"],
    [1_050, "1.05"],
  ])("writes %j grams as %j kg", (grams, text) => {
    expect(kgText(grams)).toBe(text);
    expect(weightGramsOf(text)).toBe(grams);
  });
});

describe("sortSizeNames", () => {
  it("puts worn sizes in their order, then the rest in natural order", () => {
    expect(sortSizeNames(["XL", "Super", "m", "XS", "Size 10", "Regular", "Size 2", "L", "XXL"])).toEqual([
      "XS",
      "m",
      "L",
      "XL",
      "XXL",
      "Regular",
      "Size 2",
      "Size 10",
      "Super",
    ]);
  });
});
