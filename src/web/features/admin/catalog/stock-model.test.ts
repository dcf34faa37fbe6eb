import { describe, expect, it } from "vitest";
import { LOW_STOCK_LIMIT } from "#domain/stock.js";
import { heldText, leftText, productStock, sizeStock, stockLevel } from "./stock-model";

const product = (
  name: string,
  stock: Record<string, number>,
  held: Record<string, number> = {},
  sizes = Object.keys(stock),
) => ({ id: `id-${name}`, name, sizes, stock, held });

describe("stockLevel", () => {
  it("calls a size with nothing left sold out, up to the low-stock limit low, above it in stock", () => {
    expect(stockLevel(0)).toBe("sold-out");
    expect(stockLevel(1)).toBe("low");
    expect(stockLevel(LOW_STOCK_LIMIT)).toBe("low");
    expect(stockLevel(LOW_STOCK_LIMIT + 1)).toBe("in-stock");
  });
});

describe("sizeStock", () => {
  it("counts what can be sold as stock minus what unpaid orders hold", () => {
    expect(sizeStock(product("Pants", { M: 10 }, { M: 3 }), "M")).toEqual({
      size: "M",
      stock: 10,
      held: 3,
      left: 7,
      level: "in-stock",
    });
  });

  it("calls a size whose every unit is held sold out", () => {
    expect(sizeStock(product("Pants", { M: 2 }, { M: 2 }), "M")).toMatchObject({ left: 0, level: "sold-out" });
  });

  it("reads a size missing from the maps as none in stock and none held", () => {
    expect(sizeStock(product("Pants", {}, {}, ["XL"]), "XL")).toEqual({
      size: "XL",
      stock: 0,
      held: 0,
      left: 0,
      level: "sold-out",
    });
  });
});

describe("productStock", () => {
  it("keeps the product's own order of sizes", () => {
    const sizes = productStock(product("Pants", { L: 1, S: 9, M: 0 }, {}, ["S", "M", "L"]));
    expect(sizes.map((size) => [size.size, size.level])).toEqual([
      ["S", "in-stock"],
      ["M", "sold-out"],
      ["L", "low"],
    ]);
  });
});

describe("leftText and heldText", () => {
  it("words units left as a list shows them", () => {
    expect(leftText({ left: 12, level: "in-stock" })).toBe("12");
    expect(leftText({ left: 3, level: "low" })).toBe("Only 3");
    expect(leftText({ left: 0, level: "sold-out" })).toBe("Sold out");
  });

  it("words held units, and says nothing when none are held", () => {
    expect(heldText(2)).toBe("2 held by unpaid orders");
    expect(heldText(1)).toBe("1 held by unpaid order");
    expect(heldText(0)).toBeNull();
  });
});
