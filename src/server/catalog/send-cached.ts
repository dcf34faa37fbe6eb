import type { FastifyReply, FastifyRequest } from "fastify";
import { type CachedBody, type CatalogCache, negotiateCoding } from "./cache.js";

/**
 * The catalogue's answers and the storefront's pages are the same for everyone: a CDN may keep one
 * for 30 seconds and then must revalidate it with its ETag; a browser revalidates every time, so an
 * admin's change shows on the shop's own origin at once and behind a CDN within 30 seconds
 * (docs/decisions/026-pages-that-stay-small.md).
 */
export const SHARED_CACHE_CONTROL = "public, max-age=0, s-maxage=30, must-revalidate";

/**
 * The route options of an answer from the cache: it is compressed once when cached, so the
 * compression plugin's per-request hooks have nothing to do (and a GET has no body to decompress).
 */
export const CACHED_ROUTE = { compress: false, decompress: false } as const;

/**
 * Answers `key` from the cache, loading it on a miss. Synchronous while the cache is warm (nearly
 * always): no promise to wait on per request.
 */
export function answerCached(
  cache: CatalogCache,
  key: string,
  contentType: string,
  load: () => Promise<unknown>,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | Promise<FastifyReply> {
  const cached = cache.peek(key);
  if (cached && sendCached(cached, request, reply, contentType)) return reply;
  return cache.get(key, load).then((loaded) => sendWhenMade(loaded, request, reply, contentType));
}

/**
 * Answers from a loaded cache entry with its ETag (304 when the browser has it), already
 * compressed. False when the compressed form is still being made: then wait for
 * `cached.encodedAs(...)` and pass it as `made`.
 */
export function sendCached(
  cached: CachedBody,
  request: FastifyRequest,
  reply: FastifyReply,
  contentType: string,
  made?: Buffer,
): boolean {
  reply
    .header("etag", cached.etag)
    .header("cache-control", SHARED_CACHE_CONTROL)
    .header("vary", "accept-encoding")
    .type(contentType);
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
}

/** Sends `cached` once its form for the request's Accept-Encoding is made. */
export async function sendWhenMade(
  cached: CachedBody,
  request: FastifyRequest,
  reply: FastifyReply,
  contentType: string,
): Promise<FastifyReply> {
  const made = await cached.encodedAs(negotiateCoding(request.headers["accept-encoding"]));
  sendCached(cached, request, reply, contentType, made);
  return reply;
}

/** If-None-Match holds our ETag: a list, a weak form (W/"...") or `*` all count (RFC 9110, weak comparison). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const value = candidate.trim();
    return value === "*" || value === etag || value === `W/${etag}`;
  });
}
