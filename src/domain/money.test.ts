import { describe, expect, it } from "vitest";
import {
  centsToDecimal,
  formatRand,
  formatRandShort,
  formatRandText,
  parseRandToCents,
  randNumberToCents,
} from "./money";

describe("parseRandToCents", () => {
  it.each([
    ["249.99", 24_999],
    ["249.9", 24_990],
    ["249", 24_900],
    ["0", 0],
    ["0.01", 1],
    ["  249.99  ", 24_999],
    ["999999999.99", 99_999_999_999],
  ])("reads %j as %i cents", (text, cents) => {
    expect(parseRandToCents(text)).toBe(cents);
  });

  it.each([
    [""],
    ["   "],
    ["abc"],
    ["-1.00"],
    ["+1.00"],
    ["1.999"],
    ["1,299.00"],
    ["R249.99"],
    ["249,99"],
    [".50"],
    ["249."],
    ["1e3"],
    ["1234567890"],
    ["12 34"],
  ])("refuses %j with null", (text) => {
    expect(parseRandToCents(text)).toBeNull();
  });
});

describe("randNumberToCents", () => {
  it.each([
    [249.99, 24_999],
    [0, 0],
    [75, 7_500],
    [0.1 + 0.2, 30],
    [1299, 129_900],
  ])("turns %d rand into %i cents", (rand, cents) => {
    expect(randNumberToCents(rand)).toBe(cents);
  });

  it.each([[-1], [19.999], [1.005], [Number.NaN], [Number.POSITIVE_INFINITY]])(
    "refuses %d, which is not a whole number of cents or not a price",
    (rand) => {
      expect(randNumberToCents(rand)).toBeNull();
    },
  );
});

describe("centsToDecimal", () => {
  it.each([
    [24_999, "249.99"],
    [57_900, "579.00"],
    [5, "0.05"],
    [0, "0.00"],
    [100_000, "1000.00"],
    [123_456_789, "1234567.89"],
    [-230, "-2.30"],
  ])("writes %i cents as %j: two decimals, a dot, no thousands separator", (cents, text) => {
    expect(centsToDecimal(cents)).toBe(text);
  });
});

describe("formatRand", () => {
  it.each([
    [24_999, "R249.99"],
    [129_900, "R1,299.00"],
    [99_999, "R999.99"],
    [100_000, "R1,000.00"],
    [100_000_000, "R1,000,000.00"],
    [7_500, "R75.00"],
    [5, "R0.05"],
    [0, "R0.00"],
    [-7_500, "-R75.00"],
  ])("shows %i cents as %j", (cents, text) => {
    expect(formatRand(cents)).toBe(text);
  });

  it("never shows a dollar sign", () => {
    expect(formatRand(129_900)).not.toContain("$");
  });
});

describe("formatRandText", () => {
  it.each<[string | number, string]>([
    ["249.99", "R249.99"],
    ["1299", "R1,299.00"],
    [1299, "R1,299.00"],
    [249.99, "R249.99"],
    ["junk", "R0.00"],
    [19.999, "R0.00"],
  ])("shows the wire price %j as %j", (price, text) => {
    expect(formatRandText(price)).toBe(text);
  });
});

describe("money round trips", () => {
  it.each([[0], [1], [99], [100], [24_999], [129_900], [99_999_999_999]])(
    "reads back %i cents from its own decimal text",
    (cents) => {
      expect(parseRandToCents(centsToDecimal(cents))).toBe(cents);
    },
  );
});

describe("formatRandShort", () => {
  it.each([
    [50_000, "R500"],
    [7_500, "R75"],
    [123_400, "R1,234"],
    [49_999, "R499.99"],
    [7_550, "R75.50"],
    [0, "R0"],
  ])("shows %i cents as %s", (cents, text) => {
    expect(formatRandShort(cents)).toBe(text);
  });
});
