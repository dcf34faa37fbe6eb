import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRandText } from "#domain/money.js";
import { pricesDiffer } from "#domain/packs.js";
import type { Product } from "#domain/schemas/catalog.js";
import { loadConfig } from "#server/platform/config.js";
import { signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { bodyText, canonicalOf, jsonLdOf, metaContent, scriptsOf, titleOf } from "../helpers/html.js";
import { multipartBody, phonePhoto } from "../helpers/media.js";
import { sourcePageRenderer } from "../helpers/page-renderer.js";

const PUBLIC_URL = "http://localhost:3000";
const SHOP = "Snug & Dry";

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  const pageRenderer = await sourcePageRenderer(loadConfig({ PUBLIC_URL }));
  t = await buildTestApp({ PUBLIC_URL }, { pageRenderer });
  ({ cookie } = await signInAsAdmin(t));
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });
const products = async () => (await get("/api/products")).json() as Product[];

async function productNamed(match: (product: Product) => boolean): Promise<Product> {
  const product = (await products()).find(match);
  if (!product) throw new Error("no such product in the seeded catalogue");
  return product;
}

/** Every script a page carries is a file of ours or inert data: the CSP allows no inline script. */
function expectNoInlineScript(html: string) {
  for (const script of scriptsOf(html)) {
    if (/\bsrc="/.test(script.attributes)) continue;
    expect(script.attributes).toMatch(/type="application\/(ld\+)?json"/);
  }
}

describe.each([
  [
    "an in-stock product",
    (product: Product) => !product.outOfStock && !pricesDiffer(product),
    "https://schema.org/InStock",
  ],
  ["an out-of-stock product", (product: Product) => product.outOfStock, "https://schema.org/OutOfStock"],
])("the page of %s", (_name, match, availability) => {
  let product: Product;
  let html: string;
  const url = () => `${PUBLIC_URL}/products/${product.slug}`;
  beforeAll(async () => {
    product = await productNamed(match);
    const response = await get(`/products/${product.slug}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    html = response.body;
  });

  it("is titled '{product} | {shop}' with its description and canonical address on PUBLIC_URL", () => {
    expect(titleOf(html)).toBe(`${product.name} | ${SHOP}`);
    const description = metaContent(html, "description") ?? "";
    expect(description.length).toBeGreaterThan(20);
    expect(description.length).toBeLessThanOrEqual(160);
    expect(product.description.startsWith(description.replace(/\.\.\.$/, ""))).toBe(true);
    expect(canonicalOf(html)).toBe(url());
    expect(metaContent(html, "robots")).toBeUndefined();
  });

  it("has Open Graph and Twitter card tags with the product image as a JPEG (link previews show no SVG)", () => {
    const image = `${PUBLIC_URL}${product.image.replace(/^\/(.*)\.svg$/, "/media/share/$1.jpg")}`;
    expect(image).toMatch(/\/media\/share\/images\/products\/[a-z0-9-]+\.jpg$/);
    expect(metaContent(html, "og:type")).toBe("product");
    expect(metaContent(html, "og:title")).toBe(`${product.name} | ${SHOP}`);
    expect(metaContent(html, "og:description")).toBe(metaContent(html, "description"));
    expect(metaContent(html, "og:url")).toBe(url());
    expect(metaContent(html, "og:image")).toBe(image);
    expect(metaContent(html, "og:site_name")).toBe(SHOP);
    expect(metaContent(html, "product:price:amount")).toBe(product.price);
    expect(metaContent(html, "product:price:currency")).toBe("ZAR");
    expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
    expect(metaContent(html, "twitter:title")).toBe(`${product.name} | ${SHOP}`);
    expect(metaContent(html, "twitter:description")).toBe(metaContent(html, "description"));
    expect(metaContent(html, "twitter:image")).toBe(image);
  });

  it("describes the product in JSON-LD: Product with its Offer, and a BreadcrumbList", () => {
    const [data, breadcrumbs, ...rest] = jsonLdOf(html);
    expect(rest).toEqual([]);
    expect(data).toEqual({
      "@context": "https://schema.org",
      "@type": "Product",
      name: product.name,
      image: [`${PUBLIC_URL}${product.image.replace(/^\/(.*)\.svg$/, "/media/share/$1.jpg")}`],
      description: product.description,
      sku: product.id,
      brand: { "@type": "Brand", name: SHOP },
      category: expect.stringMatching(/ products$/),
      offers: {
        "@type": "Offer",
        price: product.price,
        priceCurrency: "ZAR",
        availability,
        itemCondition: "https://schema.org/NewCondition",
        url: url(),
      },
    });
    expect(product.price).toMatch(/^\d+\.\d{2}$/);
    expect(breadcrumbs).toEqual({
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: [
        { "@type": "ListItem", position: 1, name: "Home", item: `${PUBLIC_URL}/` },
        {
          "@type": "ListItem",
          position: 2,
          name: (data as { category: string }).category,
          item: `${PUBLIC_URL}/category/${product.category}`,
        },
        { "@type": "ListItem", position: 3, name: product.name, item: url() },
      ],
    });
  });

  it("shows the product, its price and a way back in the HTML itself, with no inline script", () => {
    const text = bodyText(html);
    expect(text).toContain(product.name);
    expect(text).toContain(formatRandText(product.price));
    expect(text).toContain("See all our products");
    expect(html).toMatch(/<h1 [^>]*>[^<]*<\/h1>/);
    expectNoInlineScript(html);
  });
});

describe("the storefront and category pages", () => {
  it("renders / with every product and its price, and the data it was rendered with", async () => {
    const response = await get("/");
    expect(response.statusCode).toBe(200);
    const text = bodyText(response.body);
    const all = await products();
    for (const product of all) {
      expect(text).toContain(product.name);
      // A card's name links to the product's address; an out-of-stock card opens nothing (docs/product.md §2).
      expect(response.body.includes(`href="/products/${product.slug}"`)).toBe(!product.outOfStock);
    }
    expect(all.some((product) => product.outOfStock)).toBe(true);
    expect(text).toContain(`${all.length} product(s) found`);
    expect(titleOf(response.body)).toBe(`${SHOP} | Nappies, period care and more, delivered across South Africa`);
    expect(canonicalOf(response.body)).toBe(`${PUBLIC_URL}/`);
    const data = /<script type="application\/json" id="page-data">(.*?)<\/script>/.exec(response.body)?.[1] ?? "";
    // Its first page of products (48, so today's catalogue whole), not the catalogue as such.
    expect(JSON.parse(data).queries[0]).toEqual({
      key: [
        "/api/products",
        "search",
        { q: "", category: null, sort: "name", order: "asc", weightGrams: null, size: null, absorbency: null },
      ],
      data: { products: all, total: all.length, nextCursor: null },
    });
    expectNoInlineScript(response.body);
  });

  it("gives a category its own address and title, listing only its products", async () => {
    const response = await get("/category/baby");
    expect(response.statusCode).toBe(200);
    expect(titleOf(response.body)).toBe(`Baby products | ${SHOP}`);
    expect(canonicalOf(response.body)).toBe(`${PUBLIC_URL}/category/baby`);
    const text = bodyText(response.body);
    for (const product of await products()) {
      if (product.category === "baby") expect(text).toContain(product.name);
      else expect(text).not.toContain(product.name);
    }
  });

  it("answers an unknown category with the 404 page, kept out of the index", async () => {
    const response = await get("/category/socks");
    expect(response.statusCode).toBe(404);
    expect(metaContent(response.body, "robots")).toBe("noindex");
  });
});

describe("unknown and renamed products", () => {
  it.each(["/products/no-such-nappy", "/products/%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/products/UPPER"])(
    "answers %s with the 404 page and noindex",
    async (path) => {
      const response = await get(path);
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(metaContent(response.body, "robots")).toBe("noindex");
      expect(titleOf(response.body)).toBe(`404 Page Not Found | ${SHOP}`);
      expect(bodyText(response.body)).toContain("404 Page Not Found");
      expect(canonicalOf(response.body)).toBeUndefined();
      expect(response.body).not.toContain("<script>alert");
    },
  );

  it("renders every unknown address of a kind as the same page, which is why one kept 404 page serves them all", async () => {
    for (const [one, other] of [
      ["/products/no-such-nappy", "/products/%3Cscript%3Ealert(1)%3C%2Fscript%3E"],
      ["/category/socks", "/category/hats"],
    ] as const) {
      // Each rendered afresh: a cleared cache keeps no 404 page.
      t.app.catalogCache.clear();
      const first = await get(one);
      t.app.catalogCache.clear();
      const second = await get(other);
      expect(second.statusCode).toBe(404);
      expect(second.body).toBe(first.body);
    }
  });

  it("shares an uploaded photo's 1200-wide JPEG with its size, and a typed raster URL as it is", async () => {
    const upload = multipartBody(await phonePhoto({ width: 1000, height: 800 }), "photo.jpg", "image/jpeg");
    const uploaded = await t.app.inject({
      method: "POST",
      url: "/api/admin/media",
      headers: { cookie, ...upload.headers },
      payload: upload.payload,
    });
    const { url: photoUrl } = uploaded.json() as { url: string };
    for (const [image, expected, size] of [
      [photoUrl, `${PUBLIC_URL}${photoUrl}`, ["1200", "960"]],
      ["https://cdn.example.com/pants.png", "https://cdn.example.com/pants.png", [undefined, undefined]],
    ] as const) {
      const created = await t.app.inject({
        method: "POST",
        url: "/api/admin/products",
        headers: { cookie },
        payload: {
          name: `Shared ${image.slice(-12)}`,
          category: "adult",
          price: "10.00",
          image,
          sizes: "M",
          stock: { M: 1 },
        },
      });
      const html = (await get(`/products/${(created.json() as Product).slug}`)).body;
      expect(metaContent(html, "og:image")).toBe(expected);
      expect(metaContent(html, "og:image:width")).toBe(size[0]);
      expect(metaContent(html, "og:image:height")).toBe(size[1]);
      expect(jsonLdOf(html)[0]).toMatchObject({ image: [expected] });
      if (image === photoUrl) {
        // The page's picture: AVIF and WebP renditions with sizes, the JPEG as the <img>.
        expect(html).toMatch(
          /<source type="image\/avif" srcSet="\/media\/[0-9a-f]{32}-1000x800-320\.avif 320w, [^"]*-960\.avif 960w"/,
        );
        expect(html).toContain(`src="${photoUrl}"`);
      }
    }
  });

  it("gives a new product a slug from its name, numbered when the name is taken", async () => {
    const payload = {
      name: "Trial Pack & More",
      category: "adult",
      price: "49.50",
      image: "/images/products/adult-pants.svg",
      sizes: "M",
      stock: { M: 3 },
    };
    const first = await t.app.inject({ method: "POST", url: "/api/admin/products", headers: { cookie }, payload });
    const second = await t.app.inject({ method: "POST", url: "/api/admin/products", headers: { cookie }, payload });
    expect((first.json() as Product).slug).toBe("trial-pack-and-more");
    expect((second.json() as Product).slug).toBe("trial-pack-and-more-2");
  });

  it("redirects an old slug (301) to the product's new address after a rename", async () => {
    const product = await productNamed((candidate) => candidate.name.includes("Swim Nappies"));
    const oldSlug = product.slug;
    const renamed = await t.app.inject({
      method: "PUT",
      url: `/api/admin/products/${product.id}`,
      headers: { cookie },
      payload: { ...product, name: "Splash Swim Nappies", stock: {} },
    });
    expect(renamed.statusCode).toBe(200);
    expect((renamed.json() as Product).slug).toBe("splash-swim-nappies");

    const old = await get(`/products/${oldSlug}`);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe("/products/splash-swim-nappies");
    const current = await get("/products/splash-swim-nappies");
    expect(current.statusCode).toBe(200);
    expect(titleOf(current.body)).toBe(`Splash Swim Nappies | ${SHOP}`);

    // A save that keeps the name keeps the slug; renaming it back gives back the old address.
    const back = await t.app.inject({
      method: "PUT",
      url: `/api/admin/products/${product.id}`,
      headers: { cookie },
      payload: { ...product, stock: {} },
    });
    expect((back.json() as Product).slug).toBe(oldSlug);
    expect((await get(`/products/${oldSlug}`)).statusCode).toBe(200);
    expect((await get("/products/splash-swim-nappies")).headers.location).toBe(`/products/${oldSlug}`);
  });

  it("keeps markup in a product name as text in the HTML, the title and the JSON-LD", async () => {
    const name = `</script><script>alert("x")</script> <b>Bold</b> & 'Co'`;
    const created = await t.app.inject({
      method: "POST",
      url: "/api/admin/products",
      headers: { cookie },
      payload: {
        name,
        category: "extras",
        price: "10.00",
        image: "/images/products/adult-pants.svg",
        description: "<img src=x onerror=alert(1)>",
        sizes: "One",
        stock: { One: 1 },
      },
    });
    const product = created.json() as Product;
    const html = (await get(`/products/${product.slug}`)).body;
    expect(titleOf(html)).toBe(`${name} | ${SHOP}`);
    expect(metaContent(html, "og:title")).toBe(`${name} | ${SHOP}`);
    expect(jsonLdOf(html)[0]).toMatchObject({ name, description: "<img src=x onerror=alert(1)>" });
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<b>Bold</b>");
    expect(html).not.toContain("<img src=x");
    expectNoInlineScript(html);
  });
});

describe("sitemap and robots", () => {
  it("lists the storefront, every category and product with lastmod, the policies and the Legal page", async () => {
    const response = await get("/sitemap.xml");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/xml; charset=utf-8");
    const entries = new Map(
      [...response.body.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?<\/url>/g)].map((match) => [
        match[1],
        match[2],
      ]),
    );
    const rows = await t.pool.query<{ slug: string; updated_at: Date }>("select slug, updated_at from products");
    for (const row of rows.rows) {
      expect(entries.get(`${PUBLIC_URL}/products/${row.slug}`)).toBe(row.updated_at.toISOString());
    }
    const newest = new Date(Math.max(...rows.rows.map((row) => row.updated_at.getTime())));
    expect(entries.get(`${PUBLIC_URL}/`)).toBe(newest.toISOString());
    for (const category of ["adult", "baby", "extras", "kids", "pads"]) {
      expect(entries.get(`${PUBLIC_URL}/category/${category}`)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    // The policies with the date their latest version took effect (content/policies/*.md), and the Legal page.
    for (const policy of ["/terms", "/return-policy", "/privacy", "/paia-manual"]) {
      expect(entries.get(`${PUBLIC_URL}${policy}`)).toBe("2026-12-02");
    }
    // The Legal page shows the settings the policies show: it changed when a policy was last published.
    const published = await t.pool.query<{ at: Date }>("select max(published_at) as at from policy_versions");
    expect(entries.get(`${PUBLIC_URL}/legal`)).toBe(published.rows[0]?.at.toISOString());
    // Every entry has a lastmod.
    expect([...entries].filter(([, lastmod]) => !lastmod).map(([loc]) => loc)).toEqual([]);
    expect(entries.size).toBe(rows.rows.length + 5 + 1 + 4 + 1);
    expect([...entries.keys()].some((loc) => /admin|checkout|profile/.test(String(loc)))).toBe(false);
  });

  it("gives a category with no products yet the day it was made as its lastmod", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/api/admin/categories",
      headers: { cookie },
      payload: { name: "swim" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const made = await t.pool.query<{ created_at: Date }>("select created_at from categories where name = 'swim'");
    const body = (await get("/sitemap.xml")).body;
    expect(body).toContain(
      `<url><loc>${PUBLIC_URL}/category/swim</loc><lastmod>${made.rows[0]?.created_at.toISOString()}</lastmod></url>`,
    );
    await t.pool.query("delete from categories where name = 'swim'");
  });

  it("names the sitemap on PUBLIC_URL and keeps private pages out of the index", async () => {
    const response = await get("/robots.txt");
    expect(response.statusCode).toBe(200);
    const lines = response.body.split("\n");
    expect(lines).toContain("User-agent: *");
    for (const path of ["/admin", "/checkout", "/profile", "/success", "/cancel", "/thank-you"]) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });
});

describe("the page of a product whose sizes cost differently", () => {
  it("gives an AggregateOffer from the lowest to the highest, with an Offer per size, and says 'from'", async () => {
    const product = await productNamed((candidate) => candidate.name === "Snug & Dry Baby Nappies Value Pack");
    const html = (await get(`/products/${product.slug}`)).body;
    const offers = (jsonLdOf(html)[0] as { offers: Record<string, unknown> }).offers;
    const url = `${PUBLIC_URL}/products/${product.slug}`;
    expect(offers).toEqual({
      "@type": "AggregateOffer",
      lowPrice: "399.99",
      highPrice: "449.99",
      offerCount: 6,
      priceCurrency: "ZAR",
      availability: "https://schema.org/InStock",
      offers: product.sizes.map((size) => ({
        "@type": "Offer",
        name: size,
        price: product.sizePrices?.[size],
        priceCurrency: "ZAR",
        availability: product.sizeOutOfStock[size] ? "https://schema.org/OutOfStock" : "https://schema.org/InStock",
        itemCondition: "https://schema.org/NewCondition",
        url,
      })),
    });
    expect(offers.offers).toContainEqual(
      expect.objectContaining({ name: "Size 6 (16kg+)", availability: "https://schema.org/OutOfStock" }),
    );
    const text = bodyText(html);
    expect(text).toContain("from R399.99");
    expect(text).toContain("from R2.63 per nappy");
  });
});

describe("the rendered pages' cache", () => {
  it("answers a revalidation with 304 and renders again after a catalogue change", async () => {
    const product = await productNamed((candidate) => candidate.name.includes("Newborn Nappies"));
    const path = `/products/${product.slug}`;
    const first = await get(path);
    const etag = String(first.headers.etag);
    expect((await get(path, { "if-none-match": etag })).statusCode).toBe(304);

    // Written behind the app's back, as another instance or plain SQL would: the trigger's NOTIFY clears the cache.
    // One price for every size again (no size of its own), so the page has one Offer.
    await t.pool.query("update products set price_cents = 12345, size_prices = '{}' where id = $1", [product.id]);
    await t.app.catalogCache.caughtUp();
    const fresh = await get(path, { "if-none-match": etag });
    expect(fresh.statusCode).toBe(200);
    expect(jsonLdOf(fresh.body)[0]).toMatchObject({ offers: { price: "123.45" } });
    expect(bodyText(fresh.body)).toContain("R123.45");
    expect(bodyText((await get("/")).body)).toContain("R123.45");

    // Stock counts too: sold out, the page says so.
    await t.pool.query("update product_stock set quantity = 0, held = 0 where product_id = $1", [product.id]);
    await t.app.catalogCache.caughtUp();
    expect(jsonLdOf((await get(path)).body)[0]).toMatchObject({
      offers: { availability: "https://schema.org/OutOfStock" },
    });
  });
});
