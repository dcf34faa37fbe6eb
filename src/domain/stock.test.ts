import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_PER_ORDER } from "./limits.js";
import { LOW_STOCK_LIMIT, lineLimitMessage, maxOrderable, publicStock, shortLineMessage } from "./stock.js";

describe("publicStock", () => {
  it("shows sold-out sizes, counts of five or fewer, and nothing above", () => {
    const stock = publicStock(["S", "M", "L", "XL"], { S: 0, M: 2, L: LOW_STOCK_LIMIT + 1 });
    expect(stock).toEqual({ sizeOutOfStock: { S: true, XL: true }, outOfStock: false, sizeLowStock: { M: 2 } });
  });

  it("is out of stock only when no size can be sold", () => {
    expect(publicStock(["S", "M"], { S: 0, M: -3 }).outOfStock).toBe(true);
    expect(publicStock(["S", "M"], { S: 0, M: 1 }).outOfStock).toBe(false);
  });

  it("limits the stepper to what is left, and to the product's limit per order", () => {
    const stock = publicStock(["S", "M", "L"], { S: 0, M: 2, L: 80 });
    expect([maxOrderable(stock, "S"), maxOrderable(stock, "M"), maxOrderable(stock, "L")]).toEqual([
      0,
      2,
      DEFAULT_MAX_PER_ORDER,
    ]);
    expect(maxOrderable({ ...stock, maxPerOrder: 120 }, "L")).toBe(120);
    expect(maxOrderable({ ...stock, maxPerOrder: 1 }, "M")).toBe(1);
  });
});

describe("shortLineMessage", () => {
  it("names the product, the size and what is left", () => {
    expect(shortLineMessage("Snug & Dry Pull-Up Pants", "5", 2)).toBe("Only 2 left of Snug & Dry Pull-Up Pants (5).");
    expect(shortLineMessage("Pads", "Regular", 0)).toBe("Pads (Regular) is sold out.");
  });

  it.each([
    [LOW_STOCK_LIMIT, `Only ${LOW_STOCK_LIMIT} left of Pads (Regular).`],
    [LOW_STOCK_LIMIT + 1, "Only a few left of Pads (Regular)."],
    [47, "Only a few left of Pads (Regular)."],
  ])("never names a count above the public limit (%i left)", (left, message) => {
    expect(shortLineMessage("Pads", "Regular", left)).toBe(message);
  });
});

describe("lineLimitMessage", () => {
  it("names the limit, the product and the size", () => {
    expect(lineLimitMessage("Pads", "Regular", 20)).toBe("You can order at most 20 of Pads (Regular) per order.");
  });
});
