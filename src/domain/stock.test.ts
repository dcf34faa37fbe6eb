import { describe, expect, it } from "vitest";
import { MAX_LINE_QUANTITY } from "./cart.js";
import { LOW_STOCK_LIMIT, maxOrderable, publicStock, shortLineMessage } from "./stock.js";

describe("publicStock", () => {
  it("shows sold-out sizes, counts of five or fewer, and nothing above", () => {
    const stock = publicStock(["S", "M", "L", "XL"], { S: 0, M: 2, L: LOW_STOCK_LIMIT + 1 });
    expect(stock).toEqual({ sizeOutOfStock: { S: true, XL: true }, outOfStock: false, sizeLowStock: { M: 2 } });
  });

  it("is out of stock only when no size can be sold", () => {
    expect(publicStock(["S", "M"], { S: 0, M: -3 }).outOfStock).toBe(true);
    expect(publicStock(["S", "M"], { S: 0, M: 1 }).outOfStock).toBe(false);
  });

  it("limits the stepper to what is left", () => {
    const stock = publicStock(["S", "M", "L"], { S: 0, M: 2, L: 80 });
    expect([maxOrderable(stock, "S"), maxOrderable(stock, "M"), maxOrderable(stock, "L")]).toEqual([
      0,
      2,
      MAX_LINE_QUANTITY,
    ]);
  });
});

describe("shortLineMessage", () => {
  it("names the product, the size and what is left", () => {
    expect(shortLineMessage("Snug & Dry Pull-Up Pants", "5", 2)).toBe("Only 2 left of Snug & Dry Pull-Up Pants (5).");
    expect(shortLineMessage("Pads", "Regular", 0)).toBe("Pads (Regular) is sold out.");
  });
});
