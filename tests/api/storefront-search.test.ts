import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CatalogFilter, DEFAULT_FILTER, filterAndSortProducts } from "#domain/catalog.js";
import { CATALOG_PAGE_MAX, CATALOG_SEARCH_MAX } from "#domain/limits.js";
import type { Product } from "#domain/schemas/catalog.js";
import type { CatalogPage, ProductWithRelated } from "#domain/schemas/catalog-search.js";
import { PRODUCT_SEARCH_TEXT } from "#server/catalog/search.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });
const catalogue = async () => (await get("/api/products")).json() as Product[];

function searchUrl(filter: Partial<CatalogFilter>, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    ...(filter.search ? { q: filter.search } : {}),
    ...(filter.category ? { category: filter.category } : {}),
    sort: filter.sortBy ?? "name",
    order: filter.order ?? "asc",
    ...extra,
  });
  return `/api/products/search?${query}`;
}

/** Every page of a search, `limit` at a time; `between` runs after each page (the admin at work). */
async function allPages(
  filter: Partial<CatalogFilter>,
  limit: number,
  between: (page: number) => Promise<void> = async () => {},
): Promise<{ products: Product[]; totals: number[] }> {
  const products: Product[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 200; page += 1) {
    const response = await get(searchUrl(filter, { limit: String(limit), ...(cursor ? { cursor } : {}) }));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as CatalogPage;
    expect(body.products.length).toBeLessThanOrEqual(limit);
    products.push(...body.products);
    totals.push(body.total);
    cursor = body.nextCursor;
    if (!cursor) return { products, totals };
    await between(page);
  }
  throw new Error("more than 200 pages");
}

let categoryId = "";
/** A product written by plain SQL, as another instance or the seed would (the NOTIFY trigger clears the cache). */
async function insertProduct(name: string, priceCents = 9_999): Promise<string> {
  if (!categoryId) {
    const { rows } = await t.pool.query<{ id: string }>("select id from categories where name = 'extras'");
    categoryId = rows[0]?.id ?? "";
  }
  const { rows } = await t.pool.query<{ id: string }>(
    `insert into products (name, category_id, price_cents, image, sizes, slug)
     values ($1, $2, $3, '/images/products/extras.svg', '["One"]', $4) returning id`,
    [name, categoryId, priceCents, `p-${randomUUID()}`],
  );
  await t.app.catalogCache.caughtUp();
  return rows[0]?.id ?? "";
}

describe("GET /api/products/search: the storefront's filter, as docs/product.md §9 says", () => {
  // Each filter's products, paged 5 at a time, are the whole catalogue filtered and sorted as the
  // browser did before (src/domain/catalog.ts filterAndSortProducts).
  it.each<Partial<CatalogFilter>>([
    {},
    { order: "desc" },
    { sortBy: "price" },
    { sortBy: "price", order: "desc" },
    { sortBy: "unit" },
    { sortBy: "unit", order: "desc" },
    { search: "NAPP" },
    { search: "  wipes " },
    // A category's name matches every product of it, whatever the product is called.
    { search: "Kid" },
    { search: "pads", sortBy: "price" },
    { category: "baby" },
    { category: "baby", search: "night", sortBy: "price", order: "desc" },
    { search: "no such thing anywhere" },
    { search: "%" },
    { search: "_" },
  ])("matches and sorts %o as the shop always has", async (filter) => {
    const all = await catalogue();
    const expected = filterAndSortProducts(all, { ...DEFAULT_FILTER, ...filter });
    const { products, totals } = await allPages(filter, 5);
    expect(products.map((product) => product.name)).toEqual(expected.map((product) => product.name));
    expect(new Set(totals)).toEqual(new Set([expected.length]));
  });

  it("answers the same product fields as GET /api/products", async () => {
    const all = await catalogue();
    const { products } = await allPages({}, CATALOG_PAGE_MAX);
    expect(products).toEqual(expect.arrayContaining(all));
    expect(products).toHaveLength(all.length);
  });

  it("gives 48 products a page by default, with the count of every match", async () => {
    for (let index = 0; index < 60; index += 1) await insertProduct(`Bulk Item ${String(index).padStart(2, "0")}`);
    const first = (await get(searchUrl({}))).json() as CatalogPage;
    const all = await catalogue();
    expect(first.products).toHaveLength(48);
    expect(first.total).toBe(all.length);
    expect(first.nextCursor).not.toBeNull();
  });

  it("misses and repeats no product while the admin adds products between pages", async () => {
    const before = await catalogue();
    const added: string[] = [];
    const { products } = await allPages({}, 7, async (page) => {
      // One that sorts before every page so far, one after: neither shifts the pages.
      const n = String(page).padStart(3, "0");
      added.push(await insertProduct(`AAA early ${n}`), await insertProduct(`zzz late ${n}`));
    });
    const ids = products.map((product) => product.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const product of before) expect(ids).toContain(product.id);
    // Added ahead of the cursor: shown; behind it: on the next visit from the first page.
    const late = (await catalogue()).filter((product) => product.name.startsWith("zzz late")).map((p) => p.id);
    for (const id of late) expect(ids).toContain(id);
    expect(ids.filter((id) => added.includes(id) && !late.includes(id))).toEqual([]);

    for (const sortBy of ["price", "unit"] as const) {
      for (const order of ["asc", "desc"] as const) {
        const start = await catalogue();
        const paged = await allPages({ sortBy, order }, 9, async (page) => {
          await insertProduct(`Mid ${sortBy} ${order} ${page}`, 5_000 + page);
        });
        const seen = paged.products.map((product) => product.id);
        expect(new Set(seen).size).toBe(seen.length);
        for (const product of start) expect(seen).toContain(product.id);
      }
    }
  });

  it("serves the name's search from the trigram index (EXPLAIN names products_name_trgm_idx)", async () => {
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(sql`explain select id from products where ${PRODUCT_SEARCH_TEXT} like '%nappies%'`);
    });
    expect(JSON.stringify(plan.rows)).toContain("products_name_trgm_idx");
  });

  it("pages by name from the (lower(name), id) index", async () => {
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_sort = off`);
      return tx.execute(
        sql`explain select id from products where (lower(name), id) > ('m', '00000000-0000-0000-0000-000000000000') order by lower(name), id limit 49`,
      );
    });
    expect(JSON.stringify(plan.rows)).toContain("products_name_id_idx");
  });

  it.each([
    ["limit=0", "limit must be at least 1"],
    [`limit=${CATALOG_PAGE_MAX + 1}`, `limit must be at most ${CATALOG_PAGE_MAX}`],
    ["limit=ten", "limit must be a number"],
    ["sort=popular", "sort must be name, price or unit"],
    ["order=up", "order must be asc or desc"],
    [`q=${"a".repeat(CATALOG_SEARCH_MAX + 1)}`, `q must be at most ${CATALOG_SEARCH_MAX} characters`],
    ["cursor=not-a-cursor", "cursor is not valid"],
    [`cursor=${Buffer.from('{"s":"name"}').toString("base64url")}`, "cursor is not valid"],
  ])("refuses %s with 400 VALIDATION_FAILED", async (query, message) => {
    const response = await get(`/api/products/search?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(response.json().message).toContain(message);
  });

  it("takes a search of exactly the longest length and a page of exactly the most products", async () => {
    expect((await get(`/api/products/search?q=${"a".repeat(CATALOG_SEARCH_MAX)}`)).statusCode).toBe(200);
    const page = (await get(`/api/products/search?limit=${CATALOG_PAGE_MAX}`)).json() as CatalogPage;
    expect(page.products).toHaveLength(CATALOG_PAGE_MAX);
  });

  it("refuses a cursor of another sort (400), so a page never starts from the wrong place", async () => {
    const first = (await get(searchUrl({ sortBy: "price" }, { limit: "2" }))).json() as CatalogPage;
    const response = await get(searchUrl({ sortBy: "name" }, { cursor: String(first.nextCursor) }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED" });
  });

  it("sends an ETag, answers 304 to it, and lets a CDN keep the answer 30 seconds before it revalidates", async () => {
    const first = await get(searchUrl({ search: "napp" }));
    expect(first.headers["cache-control"]).toBe("public, max-age=0, s-maxage=30, must-revalidate");
    const etag = String(first.headers.etag);
    expect((await get(searchUrl({ search: "napp" }), { "if-none-match": etag })).statusCode).toBe(304);
    expect((await get("/api/products")).headers["cache-control"]).toBe(
      "public, max-age=0, s-maxage=30, must-revalidate",
    );
    await insertProduct("Nappy bin liners");
    expect((await get(searchUrl({ search: "napp" }), { "if-none-match": etag })).statusCode).toBe(200);
  });
});

describe("GET /api/products/by-slug/{slug}", () => {
  it("answers a product with up to four others of its category, by name", async () => {
    const all = await catalogue();
    const product = all.find((candidate) => candidate.category === "baby");
    if (!product) throw new Error("no baby product");
    const response = await get(`/api/products/by-slug/${product.slug}`);
    expect(response.statusCode).toBe(200);
    const body = response.json() as ProductWithRelated;
    expect(body.product).toEqual(product);
    expect(body.related.length).toBeGreaterThan(0);
    expect(body.related.length).toBeLessThanOrEqual(4);
    for (const other of body.related) {
      expect(other.category).toBe("baby");
      expect(other.id).not.toBe(product.id);
    }
  });

  it.each(["no-such-nappy", "UPPER", "%3Cscript%3E"])("answers 404 NOT_FOUND for %s", async (slug) => {
    const response = await get(`/api/products/by-slug/${slug}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: "NOT_FOUND" });
  });
});
