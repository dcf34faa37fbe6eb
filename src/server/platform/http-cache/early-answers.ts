import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyRequest, FastifyServerFactory } from "fastify";
import { type Completed, completedLevel, completedLine, isEnabled } from "../request-logging.js";
import type { CatalogCache } from "./cache.js";
import { cachedAnswer } from "./send-cached.js";

/** How many URLs are remembered; past it the oldest is forgotten (its next request is routed again). */
export const EARLY_ANSWER_URLS = 10_000;
/**
 * The longest URL remembered: a product's or category's address with a campaign's query string
 * fits; a longer one is always routed, so the URLs held stay within about 5 MB however they are made.
 */
export const EARLY_ANSWER_URL_CHARS = 512;

/** What a route answered a URL from: the cache entry, how it is presented, and the route's pattern. */
interface Remembered {
  key: string;
  contentType: string;
  /** The route's pattern (`/products/:slug`), as the request metrics label it. */
  route: string;
  /** The security headers the app's onRequest hook gives this URL. */
  headers: Readonly<Record<string, string>>;
}

export interface EarlyAnswersOptions {
  cache: CatalogCache;
  /** The security headers of an answer to `url`: the same function app.ts's onRequest hook uses. */
  headersFor: (url: string) => Readonly<Record<string, string>>;
  /** Fastify's genReqId: one sequence of request ids for both ways of answering. */
  requestId: (request: IncomingMessage) => string;
  log: FastifyBaseLogger;
  maxUrls?: number;
}

/**
 * Cached answers given before Fastify routes the request (docs/decisions/034-early-answers.md).
 *
 * A route that answers a GET from the catalogue cache (answerCached: the pages, /api/products,
 * /api/categories, the sitemap) tells this which cache entry it answered the URL from. While that
 * entry stays in the cache, the next GET of the same URL is answered here, in the server's request
 * listener, with what the route would send: the same security headers and request id, the entry's
 * ETag, 304 and compressed form (cachedAnswer, shared with the route). Its access line and its
 * request metric are kept as the route's are. Everything else (another method, a URL no route has
 * answered from the cache yet, an entry cleared by a catalogue change or not yet compressed, debug
 * logging, a server closing) goes to Fastify as before.
 *
 * Why: Fastify's request and reply objects, its hooks and its child logger were a fifth of a cached
 * page's CPU, and pages from the cache are most of a shop's traffic.
 */
export class EarlyAnswers {
  readonly #urls = new Map<string, Remembered>();
  readonly #maxUrls: number;
  #open = true;
  /** Told of each answer given here, as Fastify's onResponse hooks are of a routed one (metrics.ts). */
  onAnswered: ((method: string, route: string, statusCode: number, seconds: number) => void) | null = null;

  constructor(private readonly options: EarlyAnswersOptions) {
    this.#maxUrls = options.maxUrls ?? EARLY_ANSWER_URLS;
  }

  /** The URLs remembered now. */
  get size(): number {
    return this.#urls.size;
  }

  /** Called by answerCached: `request`'s URL is answered from the cache entry `key`. */
  remember(request: FastifyRequest, key: string, contentType: string) {
    const { url } = request;
    if (request.method !== "GET" || url.length > EARLY_ANSWER_URL_CHARS || this.#urls.has(url)) return;
    if (this.#urls.size >= this.#maxUrls) {
      const oldest = this.#urls.keys().next().value;
      if (oldest !== undefined) this.#urls.delete(oldest);
    }
    this.#urls.set(url, {
      key,
      contentType,
      route: request.routeOptions.url ?? url,
      headers: this.options.headersFor(url),
    });
  }

  /** From the server's close on, every request goes to Fastify (which answers 503 while closing). */
  close() {
    this.#open = false;
  }

  /** Answers `request` from the cache if a route answered its URL from an entry still cached; else false. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (!this.#open || request.method !== "GET" || request.url === undefined) return false;
    const found = this.#urls.get(request.url);
    if (!found) return false;
    const { cache, log, requestId } = this.options;
    const cached = cache.peek(found.key);
    // At debug level each request is logged as it comes in: Fastify's logController does that.
    if (!cached || isEnabled(log, "debug")) return false;
    const started = performance.now();
    const answer = cachedAnswer(
      cached,
      found.contentType,
      request.headers["if-none-match"],
      request.headers["accept-encoding"],
    );
    if (!answer) return false;
    const id = requestId(request);
    const headers: Record<string, string> = { ...found.headers, "x-request-id": id, ...answer.headers };
    if (answer.body) headers["content-length"] = String(answer.body.length);
    response.writeHead(answer.status, headers);
    if (answer.body) response.end(answer.body);
    else response.end();

    const done = () => {
      const completed: Completed = {
        method: "GET",
        url: request.url ?? "",
        statusCode: answer.status,
        responseTime: performance.now() - started,
        headers: request.headers,
      };
      this.onAnswered?.(completed.method, found.route, completed.statusCode, completed.responseTime / 1000);
      // A slow answer (a client that does not read) is logged at info like a routed one.
      const level = completedLevel(completed);
      if (isEnabled(log, level)) log.child({ reqId: id })[level](completedLine(completed), "request completed");
    };
    // Nearly always the system took every byte at once: the answer is complete now. Else it
    // completes when the last byte is handed over, or when the connection closes before that.
    if ((response.socket?.writableLength ?? 0) === 0) done();
    else response.once("close", done);
    return true;
  }
}

/**
 * Fastify's serverFactory: the HTTP server Fastify would make (with its timeouts), whose request
 * listener asks `early()` first. A function, because the app's early answers are made after Fastify.
 */
export function serverAnsweringEarly(early: () => EarlyAnswers | undefined): FastifyServerFactory {
  return (handler, options) => {
    const server = http.createServer((options.http as http.ServerOptions | undefined) ?? {}, (request, response) => {
      if (!early()?.answer(request, response)) handler(request, response);
    });
    server.keepAliveTimeout = options.keepAliveTimeout as number;
    server.requestTimeout = options.requestTimeout as number;
    server.setTimeout(options.connectionTimeout as number);
    const maxRequestsPerSocket = options.maxRequestsPerSocket as number;
    if (maxRequestsPerSocket > 0) server.maxRequestsPerSocket = maxRequestsPerSocket;
    return server;
  };
}
