import type { FastifyReply, FastifyRequest } from "fastify";
import { isDatabaseDown } from "../errors.js";
import { type CachedBody, type CatalogCache, negotiateCoding } from "./cache.js";

/**
 * The catalogue's answers and the storefront's pages are the same for everyone: a CDN may keep one
 * for 30 seconds and then must revalidate it with its ETag; a browser revalidates every time, so an
 * admin's change shows on the shop's own origin at once and behind a CDN within 30 seconds
 * (docs/decisions/026-pages-that-stay-small.md).
 */
export const SHARED_CACHE_CONTROL = "public, max-age=0, s-maxage=30, must-revalidate";

/**
 * The header, and its value, of an answer served from the last good copy because the database cannot
 * answer (docs/reliability.md). Such an answer is never kept by a CDN or browser without asking again.
 */
export const STALE_HEADER = "x-shop-stale";
export const STALE_REASON = "database-unavailable";
const STALE_CACHE_CONTROL = "no-cache";

/** A cache entry as a route serves it: fresh, or the last good answer while the database is unavailable. */
export interface Served<T extends CachedBody | null = CachedBody> {
  cached: T;
  stale: boolean;
}

/**
 * `fresh()` (the cache, or the database behind it), or, when that fails because the database cannot
 * answer, the last good answer the cache kept for `key`, marked stale. Any other failure, or an
 * outage with no last good answer, fails as before (503 from the error boundary). Used only where an
 * answer is sent, never inside a page's load: a page made from stale parts would look fresh.
 */
export async function freshOrLastGood<T extends CachedBody | null>(
  cache: CatalogCache,
  key: string,
  fresh: () => Promise<T>,
): Promise<Served<T>> {
  try {
    return { cached: await fresh(), stale: false };
  } catch (error) {
    const lastGood = isDatabaseDown(error) ? cache.lastGood(key) : undefined;
    if (!lastGood) throw error;
    return { cached: lastGood as T, stale: true };
  }
}

/**
 * The route options of an answer from the cache: it is compressed once when cached, so the
 * compression plugin's per-request hooks have nothing to do (and a GET has no body to decompress).
 */
export const CACHED_ROUTE = { compress: false, decompress: false } as const;

/**
 * Answers `key` from the cache, loading it on a miss. Synchronous while the cache is warm (nearly
 * always): no promise to wait on per request. A GET answered here is remembered by its URL, so the
 * next request for it is answered before routing (early-answers.ts) while the entry stays cached.
 */
export function answerCached(
  cache: CatalogCache,
  key: string,
  contentType: string,
  load: () => Promise<unknown>,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | Promise<FastifyReply> {
  request.server.earlyAnswers.remember(request, key, contentType);
  const cached = cache.peek(key);
  if (cached && sendCached({ cached, stale: false }, request, reply, contentType)) return reply;
  return freshOrLastGood(cache, key, () => cache.get(key, load)).then((served) =>
    sendWhenMade(served, request, reply, contentType),
  );
}

/** A cached entry as it answers one request: its status, its headers (but the security headers and the request id) and its body. */
export interface CachedAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  body: Buffer | null;
}

/**
 * How `cached` answers a request with these If-None-Match and Accept-Encoding headers: 304 when
 * the browser has it (RFC 9110's weak comparison), else its body already compressed. Null when the
 * compressed form is still being made: then wait for `cached.encodedAs(...)` and pass it as `made`.
 * The one place both ways of answering from the cache (a route, and before routing) decide. A
 * `stale` answer says so in its headers.
 */
export function cachedAnswer(
  cached: CachedBody,
  contentType: string,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | string[] | undefined,
  made?: Buffer,
  stale = false,
): CachedAnswer | null {
  const headers: Record<string, string> = {
    etag: cached.etag,
    "cache-control": stale ? STALE_CACHE_CONTROL : SHARED_CACHE_CONTROL,
    vary: "accept-encoding",
    "content-type": contentType,
  };
  if (stale) headers[STALE_HEADER] = STALE_REASON;
  if (matchesEtag(ifNoneMatch, cached.etag)) return { status: 304, headers, body: null };
  const coding = negotiateCoding(acceptEncoding);
  if (coding === "identity") return { status: 200, headers, body: cached.body };
  const encoded = made ?? cached.readyAs(coding);
  if (!encoded) return null;
  if (encoded.length >= cached.length) return { status: 200, headers, body: cached.body };
  headers["content-encoding"] = coding;
  return { status: 200, headers, body: encoded };
}

/**
 * Answers from a loaded cache entry with its ETag (304 when the browser has it), already
 * compressed. False when the compressed form is still being made: then wait for
 * `cached.encodedAs(...)` and pass it as `made`.
 */
export function sendCached(
  { cached, stale }: Served,
  request: FastifyRequest,
  reply: FastifyReply,
  contentType: string,
  made?: Buffer,
): boolean {
  const answer = cachedAnswer(
    cached,
    contentType,
    request.headers["if-none-match"],
    request.headers["accept-encoding"],
    made,
    stale,
  );
  if (!answer) return false;
  reply.status(answer.status).headers(answer.headers);
  if (answer.body) reply.send(answer.body);
  else reply.send();
  return true;
}

/** Sends the served entry once its form for the request's Accept-Encoding is made. */
export async function sendWhenMade(
  served: Served,
  request: FastifyRequest,
  reply: FastifyReply,
  contentType: string,
): Promise<FastifyReply> {
  const made = await served.cached.encodedAs(negotiateCoding(request.headers["accept-encoding"]));
  sendCached(served, request, reply, contentType, made);
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
