import { describe, expect, it } from "vitest";
import { catalogSearchPath, DEFAULT_FILTER, searchParamsOf } from "./catalog";
import { sortSizeNames, weightGramsOf } from "./shop-by-size";

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

describe("catalogSearchPath with shop by size", () => {
  it.each([
    [7_500, "7.5"],
    [9_000, "9"],
    [12_345, "12.345"],
    [1_050, "1.05"],
    [40_000, "40"],
  ])("writes %j grams as weight=%s kg, which reads back as the same grams", (grams, kg) => {
    const path = catalogSearchPath(searchParamsOf({ ...DEFAULT_FILTER, weightGrams: grams }), null);
    const weight = new URLSearchParams(path.split("?")[1]).get("weight");
    expect(weight).toBe(kg);
    expect(weightGramsOf(weight ?? "")).toBe(grams);
  });

  it("names the size and the absorbency, and leaves out what is not set", () => {
    expect(catalogSearchPath(searchParamsOf({ ...DEFAULT_FILTER, size: "X L", absorbency: 4 }), null)).toBe(
      "/api/products/search?size=X+L&absorbency=4&sort=name&order=asc",
    );
    expect(catalogSearchPath(searchParamsOf(DEFAULT_FILTER), null)).toBe("/api/products/search?sort=name&order=asc");
  });
});
