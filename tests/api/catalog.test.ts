import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe("public catalogue", () => {
  it("lists the seeded products with the wire fields of docs/product.md §3", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/products" });
    expect(response.statusCode).toBe(200);
    const products = response.json() as Record<string, unknown>[];
    expect(products.length).toBeGreaterThanOrEqual(24);
    for (const product of products) {
      expect(Object.keys(product).sort()).toEqual(
        [
          "category",
          "description",
          "id",
          "image",
          "maxPerOrder",
          "name",
          "outOfStock",
          "price",
          "promoText",
          "sizeImages",
          "slug",
          "sizeLowStock",
          "sizeOutOfStock",
          "sizes",
          "sizePrices",
          "sizePackCounts",
          "packUnit",
          "multibuyTiers",
          "multibuyNote",
          "planSavingBp",
          "absorbency",
          "fitMeasure",
          "sizeFits",
        ].sort(),
      );
      expect(product.price).toMatch(/^\d+\.\d{2}$/);
      expect(["baby", "kids", "adult", "pads", "extras"]).toContain(product.category);
      expect(String(product.image)).toMatch(/^\/images\//);
    }
    expect(products.filter((product) => product.outOfStock)).toHaveLength(1);
    expect(products.some((product) => Object.values(product.sizeOutOfStock as object).includes(true))).toBe(true);
    expect(products.some((product) => Object.keys(product.sizeImages as object).length > 0)).toBe(true);
    // The seed has one size with 3 left; no count above 5 is ever shown.
    const lowCounts = products.flatMap((product) => Object.values(product.sizeLowStock as Record<string, number>));
    expect(lowCounts).toEqual([3]);
  });

  it("lists the five categories", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/categories" });
    expect(response.statusCode).toBe(200);
    const names = (response.json() as { name: string }[]).map((category) => category.name);
    expect(names.sort()).toEqual(["adult", "baby", "extras", "kids", "pads"]);
  });

  it("answers 304 to a request that revalidates with the current ETag", async () => {
    const first = await t.app.inject({ method: "GET", url: "/api/products" });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({ method: "GET", url: "/api/products", headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });

  it("answers a JSON 404 with a message for an unknown /api path", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/nothing-here" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: expect.stringContaining("Not found"), code: "NOT_FOUND" });
  });

  it("reports the database as up on /api/health", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: "ok", database: "up" });
  });
});
