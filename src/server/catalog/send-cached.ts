import type { FastifyReply, FastifyRequest } from "fastify";
import { type CachedBody, negotiateCoding } from "./cache.js";

/**
 * The catalogue's answers and the storefront's pages are the same for everyone: a CDN may keep one
 * for 30 seconds and then must revalidate it with its ETag; a browser revalidates every time, so an
 * admin's change shows on the shop's own origin at once and behind a CDN within 30 seconds
 * (docs/decisions/026-pages-that-stay-small.md).
 */
export const SHARED_CACHE_CONTROL = "public, max-age=0, s-maxage=30, must-revalidate";

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
