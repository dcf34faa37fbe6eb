import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { CatalogSearchParams } from "#domain/catalog.js";
import { CATALOG_PAGE_SIZE } from "#domain/limits.js";
import { type CatalogSearchQuery, catalogSearchQuery, sizeFacetsQuery } from "#domain/schemas/catalog-search.js";
import { SLUG_PATTERN } from "#domain/slug.js";
import { notFound } from "../platform/errors.js";
import type { CachedBody } from "../platform/http-cache/cache.js";
import { answerCached, CACHED_ROUTE, freshOrLastGood, sendWhenMade } from "../platform/http-cache/send-cached.js";
import { listCategories, listProducts } from "./queries.js";
import { findProductBySlug, findSizeFacets, searchProducts } from "./search.js";

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The public catalogue: GET /api/products (the whole list, as the spec's clients expect),
 * GET /api/categories, and the storefront's own reads: a page of a search (/api/products/search)
 * and a product with a few related ones (/api/products/by-slug/{slug}), all cached with ETags
 * (docs/decisions/026-pages-that-stay-small.md). The answers are sent already compressed from the
 * cache (compressing the whole catalogue on every request cost more than everything else the route
 * does), so @fastify/compress is off here.
 */
/** The cached categories answer. */
export const cachedCategories = (app: FastifyInstance) =>
  app.catalogCache.get("categories", () => listCategories(app.db));

/** The search of a storefront filter, as the API reads it from a query string. */
export function searchQueryOf(params: CatalogSearchParams, cursor?: string): CatalogSearchQuery {
  return {
    q: params.q,
    ...(params.category !== null ? { category: params.category } : {}),
    ...(params.weightGrams !== null ? { weight: params.weightGrams } : {}),
    ...(params.size !== null ? { size: params.size } : {}),
    ...(params.absorbency !== null ? { absorbency: params.absorbency } : {}),
    sort: params.sort,
    order: params.order,
    limit: CATALOG_PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
  };
}

/**
 * The cache key of a page of a search: one per distinct search (the LRU bounds how many are kept).
 * The weight is in grams, so "7.5" and "7,500" share one answer; a size's name is matched exactly.
 */
const searchKey = (query: CatalogSearchQuery) =>
  `search:${JSON.stringify([
    query.q.toLowerCase(),
    query.category?.toLowerCase() ?? null,
    query.weight ?? null,
    query.size ?? null,
    query.absorbency ?? null,
    query.sort,
    query.order,
    query.limit,
    query.cursor ?? null,
  ])}`;

/** The cache key of a product and its related ones. */
const slugKey = (slug: string) => `slug:${slug}`;

/** A page of a search, cached. */
export function cachedSearch(app: FastifyInstance, query: CatalogSearchQuery): Promise<CachedBody> {
  return app.catalogCache.get(searchKey(query), () => searchProducts(app.db, query));
}

/** A product and its related ones by slug, cached; null when no product has the slug. */
export async function cachedProductBySlug(app: FastifyInstance, slug: string): Promise<CachedBody | null> {
  return app.catalogCache
    .get(slugKey(slug), async () => {
      const found = await findProductBySlug(app.db, slug);
      if (!found) throw new NoSuchProduct();
      return found;
    })
    .catch((error: unknown) => {
      if (error instanceof NoSuchProduct) return null;
      throw error;
    });
}

class NoSuchProduct extends Error {}

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const answer = (key: string, load: () => Promise<unknown>, request: FastifyRequest, reply: FastifyReply) =>
    answerCached(app.catalogCache, key, JSON_TYPE, load, request, reply);
  const options = CACHED_ROUTE;

  app.get("/products", options, (request, reply) => answer("products", () => listProducts(app.db), request, reply));
  app.get("/categories", options, (request, reply) =>
    answer("categories", () => listCategories(app.db), request, reply),
  );

  app.get("/products/search", { ...options, schema: { querystring: catalogSearchQuery } }, async (request, reply) => {
    const served = await freshOrLastGood(app.catalogCache, searchKey(request.query), () =>
      cachedSearch(app, request.query),
    );
    return sendWhenMade(served, request, reply, JSON_TYPE);
  });

  app.get("/products/size-facets", { ...options, schema: { querystring: sizeFacetsQuery } }, (request, reply) => {
    const { category } = request.query;
    const key = `size-facets:${JSON.stringify(category?.toLowerCase() ?? null)}`;
    return answer(key, () => findSizeFacets(app.db, category), request, reply);
  });

  app.get(
    "/products/by-slug/:slug",
    { ...options, schema: { params: z.object({ slug: z.string().max(200) }) } },
    async (request, reply) => {
      const { slug } = request.params;
      if (!SLUG_PATTERN.test(slug)) throw notFound("No product has that address");
      const { cached, stale } = await freshOrLastGood(app.catalogCache, slugKey(slug), () =>
        cachedProductBySlug(app, slug),
      );
      if (!cached) throw notFound("No product has that address");
      return sendWhenMade({ cached, stale }, request, reply, JSON_TYPE);
    },
  );
};
