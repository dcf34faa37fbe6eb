import { describe, expect, it } from "vitest";
import { type AdminProduct, productInput } from "#domain/schemas/catalog.js";
import { ApiError } from "#web/lib/api.js";
import { productBody } from "./api/save-product";
import {
  firstMessage,
  formDefaults,
  presentForSizes,
  sizesOf,
  stockFieldText,
  stockFieldValue,
  stockHeldMessage,
  valuesForSizes,
} from "./product-form-values";

const pants: AdminProduct = {
  id: "7d3f0c1e-0000-4000-8000-000000000001",
  name: "Pull-Up Pants",
  slug: "pull-up-pants",
  maxPerOrder: 20,
  category: "baby",
  price: "249.99",
  image: "/images/products/pants.svg",
  description: "Soft pants",
  sizes: ["Size 4 (9-14kg)", "Size 5 (12-17kg)"],
  sizeImages: { "Size 4 (9-14kg)": "/images/products/pants-4.svg" },
  sizePrices: { "Size 4 (9-14kg)": "249.99", "Size 5 (12-17kg)": "269.99" },
  sizePackCounts: { "Size 4 (9-14kg)": 74 },
  packUnit: "nappy",
  fitMeasure: "weight",
  sizeFits: { "Size 4 (9-14kg)": { min: 9000, max: 14_000 } },
  sizeParcels: { "Size 4 (9-14kg)": { weightGrams: 2_000, lengthMm: 400, widthMm: 250, heightMm: 150 } },
  sizeOutOfStock: { "Size 5 (12-17kg)": true },
  outOfStock: false,
  sizeLowStock: {},
  stock: { "Size 4 (9-14kg)": 40, "Size 5 (12-17kg)": 2 },
  held: { "Size 5 (12-17kg)": 2 },
  promoText: null,
  vatClass: "standard",
};

describe("formDefaults", () => {
  it("fills the form from the product, with its units in stock per size", () => {
    expect(formDefaults(pants)).toEqual({
      name: "Pull-Up Pants",
      category: "baby",
      price: "249.99",
      image: "/images/products/pants.svg",
      description: "Soft pants",
      sizes: "Size 4 (9-14kg), Size 5 (12-17kg)",
      sizeImages: { "Size 4 (9-14kg)": "/images/products/pants-4.svg" },
      // Only the size that costs more than the "from" price shows its own; the other costs the price.
      sizePrices: { "Size 5 (12-17kg)": "269.99" },
      sizePackCounts: { "Size 4 (9-14kg)": 74 },
      packUnit: "nappy",
      stock: { "Size 4 (9-14kg)": 40, "Size 5 (12-17kg)": 2 },
      promoText: "",
      vatClass: "standard",
      maxPerOrder: 20,
      multibuyTiers: [],
      absorbency: "",
      planSavingPercent: "",
      fitMeasure: "weight",
      sizeFits: { "Size 4 (9-14kg)": { min: 9000, max: 14_000 } },
      sizeParcels: { "Size 4 (9-14kg)": { weightGrams: 2_000, lengthMm: 400, widthMm: 250, heightMm: 150 } },
    });
  });

  it("shows a product's own plan saving as a percentage and sends it as basis points; empty is the shop's default", () => {
    const defaults = formDefaults({ ...pants, planSavingOwnBp: 750 });
    expect(defaults.planSavingPercent).toBe("7.5");
    expect(productInput.parse(defaults).planSavingPercent).toBe(750);
    expect(productInput.parse({ ...defaults, planSavingPercent: "" }).planSavingPercent).toBeNull();
    expect(productInput.parse({ ...defaults, planSavingPercent: "50" }).planSavingPercent).toBe(5000);
    expect(productInput.safeParse({ ...defaults, planSavingPercent: "50.01" }).success).toBe(false);
    expect(productInput.safeParse({ ...defaults, planSavingPercent: "-1" }).success).toBe(false);
    expect(productInput.safeParse({ ...defaults, planSavingPercent: "5.123" }).success).toBe(false);
  });

  it("shows a product's absorbency and sends it back as its level; empty clears it", () => {
    const defaults = formDefaults({ ...pants, absorbency: 4 });
    expect(defaults.absorbency).toBe("4");
    expect(productInput.parse(defaults).absorbency).toBe(4);
    expect(productInput.parse({ ...defaults, absorbency: "" }).absorbency).toBeNull();
  });

  it("sends back what it showed: the same prices per size after a round trip through the schema", () => {
    const values = productInput.parse(formDefaults(pants));
    expect(productBody(values)).toMatchObject({
      price: "249.99",
      sizePrices: { "Size 5 (12-17kg)": "269.99" },
      sizePackCounts: { "Size 4 (9-14kg)": 74 },
      packUnit: "nappy",
    });
  });

  it("keeps a zero-rated product zero-rated", () => {
    expect(formDefaults({ ...pants, vatClass: "zero" }).vatClass).toBe("zero");
  });

  it("gives a size the server counts nothing for 0 units", () => {
    expect(formDefaults({ ...pants, stock: { "Size 4 (9-14kg)": 40 } }).stock).toEqual({
      "Size 4 (9-14kg)": 40,
      "Size 5 (12-17kg)": 0,
    });
  });

  it("sends no out-of-stock flags: stock is counted, not switched", () => {
    const values = formDefaults(pants);
    expect(values).not.toHaveProperty("sizeOutOfStock");
    expect(values).not.toHaveProperty("outOfStock");
  });

  it("starts a new product empty", () => {
    expect(formDefaults(null)).toMatchObject({ name: "", sizes: "", sizeImages: {}, stock: {}, promoText: "" });
  });

  it("gives values the shared schema accepts unchanged", () => {
    const parsed = productInput.parse(formDefaults(pants));
    expect(parsed.stock).toEqual({ "Size 4 (9-14kg)": 40, "Size 5 (12-17kg)": 2 });
    expect(parsed.price).toBe(24_999);
  });
});

describe("sizesOf", () => {
  it("reads the sizes text as the schema does", () => {
    expect(sizesOf("S, M, , L , M")).toEqual(["S", "M", "L"]);
    expect(sizesOf("")).toEqual([]);
    expect(sizesOf(undefined)).toEqual([]);
  });
});

describe("valuesForSizes", () => {
  it("keeps what each listed size had and starts a new size at the fallback", () => {
    expect(valuesForSizes(["S", "M", "XL"], { S: 12, M: 0, L: 7 }, 0)).toEqual({ S: 12, M: 0, XL: 0 });
  });

  it("drops sizes no longer listed and gives a size typed again what it had", () => {
    const remembered = { S: 12, L: 7 };
    expect(valuesForSizes(["S"], remembered, 0)).toEqual({ S: 12 });
    expect(valuesForSizes(["S", "L"], remembered, 0)).toEqual({ S: 12, L: 7 });
  });
});

describe("stock fields", () => {
  it("shows a number as text and an emptied field as empty", () => {
    expect(stockFieldText(12)).toBe("12");
    expect(stockFieldText(0)).toBe("0");
    expect(stockFieldText(Number.NaN)).toBe("");
    expect(stockFieldText(undefined)).toBe("");
  });

  it("reads typed text as a number and an empty field as NaN", () => {
    expect(stockFieldValue("12")).toBe(12);
    expect(stockFieldValue(" ")).toBeNaN();
  });

  it("leaves the schema to refuse an empty, negative or fractional count", () => {
    const withStock = (units: number) =>
      productInput.safeParse({ ...formDefaults(pants), stock: { "Size 4 (9-14kg)": units } });
    expect(firstMessage(withStock(Number.NaN).error?.issues)).toBe("stock must be a whole number of units per size");
    expect(firstMessage(withStock(-1).error?.issues)).toBe("stock must not be negative");
    expect(firstMessage(withStock(1.5).error?.issues)).toBe("stock must be a whole number of units per size");
    expect(withStock(0).success).toBe(true);
  });
});

describe("stockHeldMessage", () => {
  it("gives the server's words when stock was set below what unpaid orders hold", () => {
    const message = "Size 5 (12-17kg) cannot go below 2: unpaid orders hold 2.";
    expect(stockHeldMessage(new ApiError(409, "STOCK_HELD", message, true))).toBe(message);
  });

  it("is null for any other failure", () => {
    expect(stockHeldMessage(new ApiError(409, "ALREADY_EXISTS", "Taken", true))).toBeNull();
    expect(stockHeldMessage(new Error("boom"))).toBeNull();
    expect(stockHeldMessage(null)).toBeNull();
  });
});

describe("firstMessage", () => {
  it("finds the first message in nested form errors", () => {
    expect(firstMessage({ stock: { M: { message: "stock must not be negative" } } })).toBe(
      "stock must not be negative",
    );
    expect(firstMessage({})).toBeUndefined();
    expect(firstMessage(undefined)).toBeUndefined();
  });
});

describe("presentForSizes", () => {
  it("keeps a per-size price or pack only for the sizes listed, and leaves blank ones out", () => {
    expect(presentForSizes(["S", "L"], { S: "99.00", M: "120.00", L: undefined })).toEqual({ S: "99.00" });
  });
});
