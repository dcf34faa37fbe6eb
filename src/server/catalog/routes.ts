import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { negotiateCoding } from "./cache.js";
import { listCategories, listProducts } from "./queries.js";

/**
 * The public catalogue: GET /api/products and GET /api/categories, cached with ETags. The
 * answers are sent already compressed from the cache (compressing the whole catalogue on every
 * request cost more than everything else the route does), so @fastify/compress is off here.
 */
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const serve = (key: string, load: () => Promise<unknown>) =>
    app.route({
      method: "GET",
      url: `/${key}`,
      compress: false,
      handler: async (request, reply) => {
        const cached = await app.catalogCache.get(key, load);
        reply
          .header("etag", cached.etag)
          .header("cache-control", "no-cache")
          .header("vary", "accept-encoding")
          .type("application/json; charset=utf-8");
        if (matchesEtag(request.headers["if-none-match"], cached.etag)) return reply.status(304).send();
        const coding = negotiateCoding(request.headers["accept-encoding"]);
        const encoded = await cached.encodedAs(coding);
        if (coding === "identity" || encoded.length >= cached.body.length) return reply.send(cached.body);
        return reply.header("content-encoding", coding).send(encoded);
      },
    });
  serve("products", () => listProducts(app.db));
  serve("categories", () => listCategories(app.db));
};

/** If-None-Match holds our ETag: a list, a weak form (W/"...") or `*` all count (RFC 9110, weak comparison). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const value = candidate.trim();
    return value === "*" || value === etag || value === `W/${etag}`;
  });
}
