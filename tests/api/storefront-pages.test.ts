import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Product } from "#domain/schemas/catalog.js";
import type { CatalogPage, ProductWithRelated } from "#domain/schemas/catalog-search.js";
import type { PageData } from "#server/pages/renderer.js";
import { loadConfig } from "#server/platform/config.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { bodyText } from "../helpers/html.js";
import { sourcePageRenderer } from "../helpers/page-renderer.js";

const PUBLIC_URL = "http://localhost:3000";

let t: TestApp;
/** The paths rendered, one entry per render. */
const rendered: string[] = [];
beforeAll(async () => {
  const source = await sourcePageRenderer(loadConfig({ PUBLIC_URL }));
  const pageRenderer = {
    ...source,
    renderApp: (path: string, pageData: PageData) => {
      rendered.push(path);
      return source.renderApp(path, pageData);
    },
  };
  t = await buildTestApp({ PUBLIC_URL }, { pageRenderer });
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });
const pageDataOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/.exec(html)?.[1] ?? "{}") as PageData;

/** The first page of products a storefront page carries (its search's first page). */
const firstPageOf = (html: string) => pageDataOf(html).queries[0]?.data as CatalogPage | undefined;

async function addProducts(count: number, category = "baby") {
  const { rows } = await t.pool.query<{ id: string }>("select id from categories where name = $1", [category]);
  await t.pool.query(
    `insert into products (name, category_id, price_cents, image, description, sizes, slug)
     select 'Everyday Nappies ' || lpad(n::text, 4, '0'), $1, 10000 + n, '/images/products/baby-nappies.svg',
            'Soft, absorbent nappies for day and night, in every size from newborn to junior.', '["Size 1","Size 2","Size 3"]',
            'everyday-nappies-' || n || '-' || $3
     from generate_series(1, $2::integer) as n`,
    [rows[0]?.id, count, randomUUID().slice(0, 8)],
  );
  await t.app.catalogCache.caughtUp();
}

describe("pages that stay small", () => {
  it("renders a page once however many ask for it at the same moment", async () => {
    t.app.catalogCache.clear();
    rendered.length = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => get("/")));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(new Set(answers.map((answer) => answer.headers.etag)).size).toBe(1);
    expect(rendered).toEqual(["/"]);
  });

  it("renders a page without entering an AsyncLocalStorage, which would tax every later request", async () => {
    // React's Node renderer runs each render in one; on Node 20 and 22 a storage once entered makes
    // every asynchronous step in the process pay a hook from then on (entry-server.tsx).
    const entered = [vi.spyOn(AsyncLocalStorage.prototype, "run"), vi.spyOn(AsyncLocalStorage.prototype, "enterWith")];
    try {
      t.app.catalogCache.clear();
      rendered.length = 0;
      const answer = await get("/");
      expect(answer.statusCode).toBe(200);
      expect(rendered).toEqual(["/"]);
      for (const spy of entered) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of entered) spy.mockRestore();
    }
  });

  it("sends an ETag and a CDN's Cache-Control with a page, and 304 to a revalidation", async () => {
    const first = await get("/category/baby");
    expect(first.headers["cache-control"]).toBe("public, max-age=0, s-maxage=30, must-revalidate");
    const again = await get("/category/baby", { "if-none-match": String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it("carries the first 48 products of a big catalogue, says how many there are, and stays small", async () => {
    await addProducts(5_000);
    const all = (await get("/api/products")).json() as Product[];
    const home = await get("/");
    const first = firstPageOf(home.body);
    expect(first?.products).toHaveLength(48);
    expect(first?.total).toBe(all.length);
    expect(bodyText(home.body)).toContain(`${all.length} product(s) found`);
    expect(bodyText(home.body)).toContain(`Showing 48 of ${all.length}`);
    // Under 60 KB gzipped at 5,000 products (the mark); the whole catalogue alone is megabytes.
    expect(gzipSync(home.body).length).toBeLessThan(60 * 1024);

    const category = await get("/category/baby");
    const categoryFirst = firstPageOf(category.body);
    expect(categoryFirst?.products.every((product) => product.category === "baby")).toBe(true);
    expect(categoryFirst?.products).toHaveLength(48);

    const product = all.find((candidate) => candidate.name === "Everyday Nappies 2500");
    const page = await get(`/products/${product?.slug}`);
    expect(page.statusCode).toBe(200);
    const data = pageDataOf(page.body).queries[0]?.data as ProductWithRelated;
    expect(data.product.id).toBe(product?.id);
    expect(data.related.length).toBeLessThanOrEqual(4);
    expect(gzipSync(page.body).length).toBeLessThan(60 * 1024);
  });
});
