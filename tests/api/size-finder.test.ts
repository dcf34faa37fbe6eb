import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminProduct } from "#domain/schemas/catalog.js";
import type { SizeFinderAnswer } from "#domain/schemas/size-fit.js";
import { products } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAsAdmin(t);
});
afterAll(() => t.close());

const kg = (value: number) => Math.round(value * 1000);

/** A product of the admin's, with ranges the test chooses: S 6-9 kg, M 9.1-12, L 14-18 (a gap below L). */
async function productWithRanges(sizeFits: Record<string, { min: number; max: number }>, fitMeasure = "weight") {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/admin/products",
    headers: { cookie: admin.cookie },
    payload: {
      name: `Finder test nappies ${Math.random().toString(36).slice(2, 8)}`,
      category: "baby",
      price: "199.99",
      image: "/images/products/baby-nappies-value-pack.svg",
      sizes: Object.keys(sizeFits).join(", "),
      fitMeasure,
      sizeFits,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as AdminProduct;
}

const find = (query: string) => t.app.inject({ method: "GET", url: `/api/size-finder?${query}` });

async function sizeFor(productId: string, weightKg: number) {
  const response = await find(`weightKg=${weightKg}&productIds=${productId}`);
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json() as SizeFinderAnswer;
  expect(answer.recommendations).toHaveLength(1);
  const [only] = answer.recommendations;
  return { size: only?.size, reason: only?.reason };
}

describe("GET /api/size-finder", () => {
  let productId: string;
  beforeAll(async () => {
    const product = await productWithRanges({
      S: { min: kg(6), max: kg(9) },
      M: { min: kg(9.1), max: kg(12) },
      L: { min: kg(14), max: kg(18) },
    });
    productId = product.id;
  });

  it.each([
    [5.999, null, "too-small"],
    [6, "S", "fits"],
    [8.699, "S", "fits"],
    [8.7, "M", "between-sizes"], // the top tenth of S takes the bigger size
    [9, "M", "between-sizes"], // S's top edge
    [9.05, "M", "between-sizes"], // between S and M
    [9.1, "M", "fits"], // M's bottom edge
    [12, "L", "between-sizes"], // M's top edge, with a gap up to L
    [13.5, "L", "between-sizes"],
    [14, "L", "fits"],
    [18, "L", "fits"], // the biggest size's top: nothing bigger to take
    [18.001, null, "too-big"],
  ])("at %d kg answers %s (%s)", async (weightKg, size, reason) => {
    expect(await sizeFor(productId, weightKg)).toEqual({ size, reason });
  });

  it("answers every seeded baby product's size by category, leaving out products without a guide", async () => {
    const response = await find("weightKg=7.5&category=baby");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const answer = response.json() as SizeFinderAnswer;
    expect(answer).toMatchObject({ measure: "weight", value: 7500, sizeUpPrompt: false });
    const names = await t.db.select({ id: products.id, name: products.name }).from(products);
    const byName = Object.fromEntries(
      answer.recommendations.map((r) => [names.find((n) => n.id === r.productId)?.name, r.size]),
    );
    expect(byName["Snug & Dry Baby Nappies Value Pack"]).toBe("Size 4 (7-18kg)");
    expect(byName["Snug & Dry Bamboo Eco Nappies"]).toBe("M (6-11kg)");
    expect(byName["Snug & Dry Swim Nappies"]).toBe("S (7-13kg)");
    // Too big for the newborn nappies: said, with no size.
    expect(byName["Snug & Dry Newborn Nappies"]).toBeNull();
    expect(answer.recommendations.filter((r) => r.size === null).map((r) => r.reason)).toEqual(["too-big"]);
    expect(byName["Snug & Dry Sensitive Baby Wipes"]).toBeUndefined();
  });

  it("recommends adult products by waist", async () => {
    const response = await find("waistCm=90&category=adult");
    const answer = response.json() as SizeFinderAnswer;
    expect(answer.measure).toBe("waist");
    const [pants] = await t.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.name, "Snug & Dry Adult Pants"));
    expect(answer.recommendations.find((r) => r.productId === pants?.id)?.size).toBe("M");
  });

  it.each([
    ["", "Give one of weightKg, waistCm or childId"],
    ["weightKg=7&waistCm=80", "Give one of weightKg, waistCm or childId"],
    ["weightKg=0.999", "weightKg must be from 1 to 40"],
    ["weightKg=40.001", "weightKg must be from 1 to 40"],
    ["weightKg=abc", "weightKg must be a number of kilograms"],
    ["waistCm=39", "waistCm must be from 40 to 200"],
    ["weightKg=7&productIds=not-an-id", "productIds must be product ids"],
  ])("refuses %j with 400", async (query, message) => {
    const response = await find(query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED", message: expect.stringContaining(message) });
  });

  it("takes weights at the limits, 1 and 40 kg", async () => {
    expect((await find("weightKg=1")).statusCode).toBe(200);
    expect((await find("weightKg=40")).statusCode).toBe(200);
  });

  it("takes 100 product ids and refuses 101", async () => {
    const ids = (n: number) =>
      Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    expect((await find(`weightKg=7&productIds=${ids(100).join(",")}`)).statusCode).toBe(200);
    const over = await find(`weightKg=7&productIds=${ids(101).join(",")}`);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toContain("at most 100 products");
  });

  it("asks a child's finder to log in first", async () => {
    const response = await find("childId=00000000-0000-4000-8000-000000000001");
    expect(response.statusCode).toBe(401);
  });
});

describe("the admin's size guide", () => {
  const save = (payload: Record<string, unknown>) =>
    t.app.inject({
      method: "POST",
      url: "/api/admin/products",
      headers: { cookie: admin.cookie },
      payload: {
        name: `Guide test ${Math.random().toString(36).slice(2, 8)}`,
        category: "baby",
        price: "99.99",
        image: "/images/products/baby-nappies-value-pack.svg",
        sizes: "S, M",
        ...payload,
      },
    });

  it.each([
    [{ fitMeasure: "weight", sizeFits: { S: { min: 999, max: 5000 } } }, 'sizeFits for "S" must be within 1-40 kg'],
    [{ fitMeasure: "weight", sizeFits: { S: { min: 1000, max: 40_001 } } }, 'sizeFits for "S" must be within 1-40 kg'],
    [{ fitMeasure: "weight", sizeFits: { S: { min: 6000, max: 5999 } } }, "the smallest must not be above the largest"],
    [{ fitMeasure: "weight", sizeFits: { XL: { min: 6000, max: 9000 } } }, 'names "XL", which is not one of the sizes'],
    [{ fitMeasure: "waist", sizeFits: { S: { min: 30, max: 80 } } }, 'sizeFits for "S" must be within 40-200 cm'],
    [{ fitMeasure: null, sizeFits: { S: { min: 6000, max: 9000 } } }, "sizeFits needs fitMeasure"],
    [{ fitMeasure: "height", sizeFits: {} }, "fitMeasure must be weight, waist or null"],
    [{ fitMeasure: "weight", sizeFits: { S: { min: "6", max: 9000 } } }, "a size's range must be numbers"],
  ])("refuses %j with 400", async (payload, message) => {
    const response = await save(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED", message: expect.stringContaining(message) });
  });

  it("keeps ranges at the limits and shows them to shoppers; a product updated without them keeps its own", async () => {
    const created = await save({
      fitMeasure: "weight",
      sizeFits: { S: { min: 1000, max: 5000 }, M: { min: 5000, max: 40_000 } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json() as AdminProduct;
    expect(product.fitMeasure).toBe("weight");
    expect(product.sizeFits).toEqual({ S: { min: 1000, max: 5000 }, M: { min: 5000, max: 40_000 } });

    const updated = await t.app.inject({
      method: "PUT",
      url: `/api/admin/products/${product.id}`,
      headers: { cookie: admin.cookie },
      payload: { name: product.name, category: "baby", price: "99.99", image: product.image, sizes: "S, M, L" },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((updated.json() as AdminProduct).sizeFits).toEqual(product.sizeFits);

    const bySlug = await t.app.inject({ method: "GET", url: `/api/products/by-slug/${product.slug}` });
    expect(bySlug.json().product).toMatchObject({ fitMeasure: "weight", sizeFits: product.sizeFits });

    // Dropping the measure drops the guide.
    const cleared = await t.app.inject({
      method: "PUT",
      url: `/api/admin/products/${product.id}`,
      headers: { cookie: admin.cookie },
      payload: {
        name: product.name,
        category: "baby",
        price: "99.99",
        image: product.image,
        sizes: "S, M",
        fitMeasure: null,
      },
    });
    expect(cleared.json()).toMatchObject({ fitMeasure: null, sizeFits: {} });
  });
});
