import { asc, eq, max } from "drizzle-orm";
import { categoryPath, productPath } from "../../domain/catalog.js";
import type { Database } from "../db/client.js";
import { categories, products } from "../db/schema.js";
import { absoluteUrl, escapeHtml } from "./head.js";

/** The static pages and the dates their text last changed (/work/shared/DECISIONS.md, Content). */
const STATIC_PAGES = [
  { path: "/return-policy", lastmod: "2025-09-18" },
  { path: "/terms-and-conditions", lastmod: "2025-09-24" },
];

/** Pages no search engine should list: accounts, checkout and its result pages, the admin, the API. */
const PRIVATE_PATHS = [
  "/admin",
  "/checkout",
  "/profile",
  "/success",
  "/cancel",
  "/thank-you",
  "/reset-password",
  "/api/",
  "/payfast-emulator/",
];

export function robotsTxt(publicUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${absoluteUrl(publicUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}

/**
 * The sitemap (sitemaps.org 0.9): the storefront, each category and product, and the static pages,
 * each with lastmod: a product's updated_at, a category's newest product, the storefront's newest
 * of all.
 */
export async function sitemapXml(db: Database, publicUrl: string): Promise<string> {
  const [productRows, categoryRows] = await Promise.all([
    db
      .select({ slug: products.slug, updatedAt: products.updatedAt })
      .from(products)
      .orderBy(asc(products.name), asc(products.id)),
    db
      .select({ name: categories.name, updatedAt: max(products.updatedAt) })
      .from(categories)
      .leftJoin(products, eq(products.categoryId, categories.id))
      .groupBy(categories.id)
      .orderBy(asc(categories.name)),
  ]);
  const newest = productRows.reduce<Date | null>(
    (latest, row) => (latest && latest > row.updatedAt ? latest : row.updatedAt),
    null,
  );
  const entry = (path: string, lastmod: Date | string | null) =>
    `<url><loc>${escapeHtml(absoluteUrl(publicUrl, path))}</loc>${
      lastmod ? `<lastmod>${typeof lastmod === "string" ? lastmod : lastmod.toISOString()}</lastmod>` : ""
    }</url>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    entry("/", newest),
    ...categoryRows.map((row) => entry(categoryPath(row.name), row.updatedAt ? new Date(row.updatedAt) : null)),
    ...productRows.map((row) => entry(productPath(row.slug), row.updatedAt)),
    ...STATIC_PAGES.map((page) => entry(page.path, page.lastmod)),
    "</urlset>",
    "",
  ].join("\n");
}
