import { describe, expect, it } from "vitest";
import {
  type CatalogFilter,
  categoryBadge,
  DEFAULT_FILTER,
  filterAndSortProducts,
  type ListableProduct,
} from "./catalog";

const products = [
  { name: "Newborn Nappies", category: "baby", price: "249.99" },
  { name: "adult Pull-Ups", category: "adult", price: "1000.00" },
  { name: "Day Pads", category: "pads", price: "45.00" },
  { name: "Baby Wipes", category: "extras", price: "45.00" },
  { name: "Junior Pants", category: "kids", price: "999.99" },
];

const names = (filter: Partial<CatalogFilter>) =>
  filterAndSortProducts(products, { ...DEFAULT_FILTER, ...filter }).map((product) => product.name);

describe("categoryBadge", () => {
  it.each([
    ["baby", "Baby"],
    ["kids", "Kids"],
    ["adult", "Adult"],
    ["pads", "Period"],
    ["extras", "Product"],
    ["anything", "Product"],
  ])("labels the %s category %j", (category, badge) => {
    expect(categoryBadge(category)).toBe(badge);
  });
});

describe("filterAndSortProducts", () => {
  it("sorts by name ascending by default, ignoring case", () => {
    expect(DEFAULT_FILTER).toEqual({
      search: "",
      category: null,
      sortBy: "name",
      order: "asc",
      weightGrams: null,
      size: null,
      absorbency: null,
    });
    expect(names({})).toEqual(["adult Pull-Ups", "Baby Wipes", "Day Pads", "Junior Pants", "Newborn Nappies"]);
  });

  it.each<{ name: string; filter: Partial<CatalogFilter>; expected: string[] }>([
    {
      name: "sorts by name descending",
      filter: { order: "desc" },
      expected: ["Newborn Nappies", "Junior Pants", "Day Pads", "Baby Wipes", "adult Pull-Ups"],
    },
    {
      name: "sorts by price as an amount, not as text, low to high, ties by name",
      filter: { sortBy: "price" },
      expected: ["Baby Wipes", "Day Pads", "Newborn Nappies", "Junior Pants", "adult Pull-Ups"],
    },
    {
      name: "sorts by price high to low, ties still by name",
      filter: { sortBy: "price", order: "desc" },
      expected: ["adult Pull-Ups", "Junior Pants", "Newborn Nappies", "Baby Wipes", "Day Pads"],
    },
    {
      name: "searches names case-insensitively",
      filter: { search: "NAPPIES" },
      expected: ["Newborn Nappies"],
    },
    {
      name: "searches categories too",
      filter: { search: "pads" },
      expected: ["Day Pads"],
    },
    {
      name: "matches part of a category name",
      filter: { search: "bab" },
      expected: ["Baby Wipes", "Newborn Nappies"],
    },
    {
      name: "ignores spaces around the search",
      filter: { search: "  wipes " },
      expected: ["Baby Wipes"],
    },
    {
      name: "keeps only the chosen category",
      filter: { category: "baby" },
      expected: ["Newborn Nappies"],
    },
    {
      name: "combines the category with the search",
      filter: { category: "extras", search: "nappies" },
      expected: [],
    },
    {
      name: "finds nothing for an unknown word",
      filter: { search: "umbrella" },
      expected: [],
    },
  ])("$name", ({ filter, expected }) => {
    expect(names(filter)).toEqual(expected);
  });

  it("leaves the list it was given in its order", () => {
    const before = products.map((product) => product.name);
    filterAndSortProducts(products, { ...DEFAULT_FILTER, sortBy: "price", order: "desc" });
    expect(products.map((product) => product.name)).toEqual(before);
  });
});

describe("sorting by price per unit", () => {
  const packs: ListableProduct[] = [
    // R4.22 a nappy at best.
    { name: "Big Nappies", category: "baby", price: "429.99", sizes: ["6"], sizePackCounts: { "6": 102 } },
    // Size 1 at R2.63 a nappy is its best; size 6 costs more a nappy but does not count.
    {
      name: "Value Nappies",
      category: "baby",
      price: "399.99",
      sizes: ["1", "6"],
      sizePrices: { "1": "399.99", "6": "429.99" },
      sizePackCounts: { "1": 152, "6": 102 },
    },
    { name: "Cream", category: "extras", price: "69.99", sizes: ["100ml"] },
    { name: "Wipes", category: "extras", price: "39.99", sizes: ["64"], sizePackCounts: { "64": 64 } },
    { name: "Bags", category: "extras", price: "39.99", sizes: ["150"] },
  ];
  const sorted = (order: "asc" | "desc") =>
    filterAndSortProducts(packs, { ...DEFAULT_FILTER, sortBy: "unit", order }).map((product) => product.name);

  it("puts the lowest price per unit of any size first; products without packs last, by name", () => {
    expect(sorted("asc")).toEqual(["Wipes", "Value Nappies", "Big Nappies", "Bags", "Cream"]);
  });

  it("high to low turns the priced ones round and still keeps those without packs last", () => {
    expect(sorted("desc")).toEqual(["Big Nappies", "Value Nappies", "Wipes", "Bags", "Cream"]);
  });
});
