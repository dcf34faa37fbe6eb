import { asc, desc, eq, max, sql } from "drizzle-orm";
import { categoryPath, productPath } from "#domain/catalog.js";
import { policyPath } from "#domain/policies.js";
import type { Database } from "../platform/db/client.js";
import { categories, policyVersions, products } from "../platform/db/schema.js";
import { absoluteUrl, escapeHtml } from "./head.js";

/** Pages no search engine should list: accounts, checkout and its result pages, the admin, the API. */
const PRIVATE_PATHS = [
  "/admin",
  "/checkout",
  "/profile",
  "/success",
  "/cancel",
  "/thank-you",
  "/reset-password",
  "/stock-alerts/",
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
 * The sitemap (sitemaps.org 0.9): the storefront, each category and product, the policies and the
 * Legal page, each with lastmod: a product's updated_at, a category's newest product (its own
 * creation when it has none), the storefront's newest of all, a policy's latest effective date, and
 * the Legal page's when a policy was last published: it is built from the settings the policies'
 * placeholders show (src/server/policies/legal.ts), which publish a new version when they change.
 */
export async function sitemapXml(db: Database, publicUrl: string): Promise<string> {
  const [productRows, categoryRows, policyRows, [published]] = await Promise.all([
    db
      .select({ slug: products.slug, updatedAt: products.updatedAt })
      .from(products)
      .orderBy(asc(products.name), asc(products.id)),
    db
      .select({
        name: categories.name,
        // A category with no products yet changed when it was made.
        updatedAt: sql<Date>`coalesce(max(${products.updatedAt}), ${categories.createdAt})`.mapWith(products.updatedAt),
      })
      .from(categories)
      .leftJoin(products, eq(products.categoryId, categories.id))
      .groupBy(categories.id)
      .orderBy(asc(categories.name)),
    // Each policy's latest version: its effective date is when its text last changed.
    db
      .selectDistinctOn([policyVersions.kind], {
        kind: policyVersions.kind,
        effectiveDate: policyVersions.effectiveDate,
      })
      .from(policyVersions)
      .orderBy(asc(policyVersions.kind), desc(policyVersions.version)),
    db.select({ at: max(policyVersions.publishedAt) }).from(policyVersions),
  ]);
  // The storefront changes with its newest product or category (an empty catalogue has categories).
  const newest = [...productRows, ...categoryRows].reduce<Date | null>(
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
    ...categoryRows.map((row) => entry(categoryPath(row.name), row.updatedAt)),
    ...productRows.map((row) => entry(productPath(row.slug), row.updatedAt)),
    ...policyRows.map((row) => entry(policyPath(row.kind), row.effectiveDate)),
    entry("/legal", published?.at ?? newest),
    "</urlset>",
    "",
  ].join("\n");
}
