import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productInput, product as productSchema } from "#domain/schemas/catalog.js";
import { SLUG_PATTERN } from "#domain/slug.js";
import {
  generatedProductId,
  parseSeedProductsArgs,
  seedProductPhotos,
  seedProducts,
} from "#server/cli/seed-products.js";
import { generatedProducts, MAX_GENERATED_PRODUCTS } from "#server/seed/generated-catalog.js";
import { BASE_PHOTO_PATH, basePhotos } from "#server/seed/seed-product-photos.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

const publicDir = path.resolve(import.meta.dirname, "../../src/web/public");

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function withClient<T>(work: (client: import("pg").PoolClient) => Promise<T>): Promise<T> {
  const client = await t.pool.connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}

describe("npm run seed:products", () => {
  it("takes --products from 1 to 20,000 and refuses anything else with the usage", () => {
    expect(parseSeedProductsArgs(["--products", "1"])).toEqual({ products: 1 });
    expect(parseSeedProductsArgs(["--products", "5000"])).toEqual({ products: 5000 });
    expect(parseSeedProductsArgs(["--products", "20000"])).toEqual({ products: MAX_GENERATED_PRODUCTS });
    expect(parseSeedProductsArgs([])).toEqual({ products: 1000 });
    for (const bad of ["0", "20001", "-5", "2.5", "abc", ""])
      expect(() => parseSeedProductsArgs([`--products=${bad}`])).toThrow(
        /--products must be a whole number from 1 to 20,000/,
      );
    expect(() => parseSeedProductsArgs(["--orders", "5"])).toThrow(/Usage: npm run seed:products/);
  });

  it("generates 20,000 distinct products, each size with a price, a pack count and stock, as an admin could make them", () => {
    const all = generatedProducts(MAX_GENERATED_PRODUCTS);
    expect(new Set(all.map((product) => product.name)).size).toBe(all.length);
    const rand = (cents: number) => (cents / 100).toFixed(2);
    for (const product of all) {
      const input = productInput.safeParse({
        ...product,
        price: rand(product.priceCents),
        image: "/images/products/brands/pampers-bag.svg",
        sizePrices: Object.fromEntries(Object.entries(product.sizePrices).map(([size, cents]) => [size, rand(cents)])),
      });
      expect(input.error, product.name).toBeUndefined();
      expect(product.sizes.length).toBeGreaterThan(0);
      expect(Object.keys(product.sizePrices).sort()).toEqual([...product.sizes].sort());
      expect(Object.keys(product.stock).sort()).toEqual([...product.sizes].sort());
      expect(product.priceCents).toBe(Math.min(...Object.values(product.sizePrices)));
      for (const size of product.sizes) {
        expect(product.sizePackCounts[size]).toBeGreaterThan(0);
        expect(product.sizePrices[size]).toBeGreaterThan(0);
      }
    }
    // The first 33 already span the shop's categories and its brands.
    const first = all.slice(0, 33);
    expect(new Set(first.map((product) => product.category)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(first.map((product) => product.brand)).size).toBeGreaterThanOrEqual(6);
  });

  it("ships every base photo, each the drawing the generator makes (UPDATE_SEED_PHOTOS=1 rewrites them)", () => {
    const dir = path.join(publicDir, BASE_PHOTO_PATH);
    const photos = basePhotos();
    if (process.env.UPDATE_SEED_PHOTOS) {
      mkdirSync(dir, { recursive: true });
      for (const photo of photos) writeFileSync(path.join(dir, photo.file), photo.svg);
    }
    expect(readdirSync(dir).sort()).toEqual(photos.map((photo) => photo.file).sort());
    for (const photo of photos) {
      expect(readFileSync(path.join(dir, photo.file)).equals(photo.svg), photo.file).toBe(true);
      expect(photo.svg.byteLength).toBeLessThan(3072);
    }
  });

  it("adds the first N products once, with unique slugs, stock and a photo, and the catalogue answers them", async () => {
    const before = await t.pool.query<{ n: number }>("select count(*)::int as n from products");
    const first = await withClient((client) => seedProducts(client, { products: 120 }));
    expect(first).toMatchObject({ added: 120, present: 0 });

    const again = await withClient((client) => seedProducts(client, { products: 120 }));
    expect(again).toEqual({ added: 0, present: 120, sizes: 0 });
    const more = await withClient((client) => seedProducts(client, { products: 150 }));
    expect(more).toMatchObject({ added: 30, present: 120 });

    const { rows } = await t.pool.query<{ n: number; slugs: number }>(
      "select count(*)::int as n, count(distinct slug)::int as slugs from products",
    );
    expect(rows[0]).toEqual({ n: (before.rows[0]?.n ?? 0) + 150, slugs: (before.rows[0]?.n ?? 0) + 150 });
    const { rows: stock } = await t.pool.query<{ n: number }>(
      "select count(*)::int as n from product_stock where product_id = any($1::uuid[])",
      [generatedProducts(150).map((product) => generatedProductId(product.index))],
    );
    expect(stock[0]?.n).toBe(generatedProducts(150).reduce((sum, product) => sum + product.sizes.length, 0));

    const photos = [...(await seedProductPhotos()).values()];
    for (const url of photos) expect(existsSync(path.join(publicDir, url))).toBe(true);

    const response = await t.app.inject({ method: "GET", url: "/api/products" });
    expect(response.statusCode).toBe(200);
    const products = response.json() as unknown[];
    const seeded = products
      .map((product) => productSchema.parse(product))
      .filter((product) => photos.includes(product.image));
    expect(seeded).toHaveLength(150);
    for (const product of seeded) expect(product.slug).toMatch(SLUG_PATTERN);
    const packed = seeded.find((product) => product.name === generatedProducts(1)[0]?.name);
    expect(packed?.sizePackCounts).toEqual(generatedProducts(1)[0]?.sizePackCounts);
    // Adult and period products carry an absorbency level for the storefront's filter (decision 048).
    const made = new Map(generatedProducts(150).map((product) => [product.name, product]));
    for (const product of seeded) expect(product.absorbency ?? null).toBe(made.get(product.name)?.absorbency);
    expect(seeded.filter((product) => product.absorbency !== null).length).toBeGreaterThan(10);
  });

  it("stores each base photo once through the upload pipeline, as the command does, with its renditions", async () => {
    const photos = await seedProductPhotos(t.app.media);
    expect(photos.size).toBe(basePhotos().length);
    const urls = [...photos.values()];
    expect(new Set(urls).size).toBe(urls.length);
    for (const url of urls) {
      expect(url).toMatch(/^\/media\/[0-9a-f]+-\d+x\d+-1200\.jpg$/);
      const shared = await t.app.inject({ method: "GET", url });
      expect(shared.statusCode).toBe(200);
      expect(shared.headers["content-type"]).toBe("image/jpeg");
      const avif = await t.app.inject({ method: "GET", url: url.replace(/-1200\.jpg$/, "-640.avif") });
      expect(avif.statusCode).toBe(200);
    }
  }, 300_000); // 17 photos, each encoded eleven times (AVIF is slow): minutes on a busy machine

  it("refuses a bad count from code too", async () => {
    await expect(withClient((client) => seedProducts(client, { products: 0 }))).rejects.toThrow(RangeError);
    await expect(withClient((client) => seedProducts(client, { products: 20_001 }))).rejects.toThrow(RangeError);
  });
});
