import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { listCategories, listProducts } from "./queries.js";
import { sendCached, sendWhenMade } from "./send-cached.js";

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The public catalogue: GET /api/products and GET /api/categories, cached with ETags. The
 * answers are sent already compressed from the cache (compressing the whole catalogue on every
 * request cost more than everything else the route does), so @fastify/compress is off here.
 */
export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const serve = (key: string, load: () => Promise<unknown>) => {
    app.route({
      method: "GET",
      url: `/${key}`,
      compress: false,
      decompress: false,
      // Synchronous while the cache is warm (nearly always): no promise to wait on per request.
      handler: (request, reply) => {
        const cached = app.catalogCache.peek(key);
        if (cached && sendCached(cached, request, reply, JSON_TYPE)) return reply;
        return app.catalogCache.get(key, load).then((loaded) => sendWhenMade(loaded, request, reply, JSON_TYPE));
      },
    });
  };
  serve("products", () => listProducts(app.db));
  serve("categories", () => listCategories(app.db));
};
