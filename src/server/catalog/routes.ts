import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type CachedBody, negotiateCoding } from "./cache.js";
import { listCategories, listProducts } from "./queries.js";

/**
 * The public catalogue: GET /api/products and GET /api/categories, cached with ETags. The
 * answers are sent already compressed from the cache (compressing the whole catalogue on every
 * request cost more than everything else the route does), so @fastify/compress is off here.
 */
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const serve = (key: string, load: () => Promise<unknown>) => {
    /** Answers from a loaded cache entry; false when the compressed form is still being made. */
    const answer = (cached: CachedBody, request: FastifyRequest, reply: FastifyReply, made?: Buffer): boolean => {
      reply
        .header("etag", cached.etag)
        .header("cache-control", "no-cache")
        .header("vary", "accept-encoding")
        .type("application/json; charset=utf-8");
      if (matchesEtag(request.headers["if-none-match"], cached.etag)) {
        reply.status(304).send();
        return true;
      }
      const coding = negotiateCoding(request.headers["accept-encoding"]);
      const encoded = made ?? cached.readyAs(coding);
      if (!encoded) return false;
      if (coding === "identity" || encoded.length >= cached.body.length) reply.send(cached.body);
      else reply.header("content-encoding", coding).send(encoded);
      return true;
    };
    app.route({
      method: "GET",
      url: `/${key}`,
      compress: false,
      decompress: false,
      // Synchronous while the cache is warm (nearly always): no promise to wait on per request.
      handler: (request, reply) => {
        const cached = app.catalogCache.peek(key);
        if (cached && answer(cached, request, reply)) return reply;
        return (async () => {
          const loaded = await app.catalogCache.get(key, load);
          const made = await loaded.encodedAs(negotiateCoding(request.headers["accept-encoding"]));
          answer(loaded, request, reply, made);
          return reply;
        })();
      },
    });
  };
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
