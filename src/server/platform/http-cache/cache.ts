import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { FastifyBaseLogger } from "fastify";
import pg from "pg";

/** The channel the catalogue trigger notifies (migration 0002_catalog_notify_trigger). */
const CHANNEL = "catalog_changed";

export type ContentCoding = "br" | "gzip" | "identity";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Below this size the best brotli quality costs a few milliseconds, once per change; above it, too much. */
const BEST_BROTLI_BELOW_BYTES = 128 * 1024;

/**
 * The smallest brotli window that holds the whole body: a window past the body's end finds no
 * more matches, but at quality 11 the encoder's match finder takes 8 bytes per window position,
 * so the default 4 MB window cost every compression ~32 MB, and four of those at once (libuv's
 * threads) leave the allocator holding their high-water mark. The output is the same.
 */
function brotliWindowBits(bytes: number): number {
  const { BROTLI_MIN_WINDOW_BITS, BROTLI_DEFAULT_WINDOW } = zlib.constants;
  return Math.min(BROTLI_DEFAULT_WINDOW, Math.max(BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(bytes + 16))));
}

function compress(body: Buffer, coding: Exclude<ContentCoding, "identity">): Promise<Buffer> {
  if (coding === "gzip") return gzip(body, { level: 9 });
  const quality = body.length < BEST_BROTLI_BELOW_BYTES ? 11 : 6;
  return brotli(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.length),
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

/**
 * `buffer` in memory of its own. A small Buffer (made from a string, or joined from zlib's output)
 * is a slice of Node's shared 8 KB pool, and keeping the slice keeps the whole slab: thousands of
 * small cached answers held several times the bytes the cache counted. Buffer.allocUnsafeSlow never
 * takes from the pool.
 */
function owned(buffer: Buffer): Buffer {
  if (buffer.byteLength === buffer.buffer.byteLength) return buffer;
  const copy = Buffer.allocUnsafeSlow(buffer.byteLength);
  buffer.copy(copy);
  return copy;
}

/** The identity bytes of a compressed form, for the rare client that asks for neither br nor gzip. */
function decoded(encoded: Buffer, coding: Exclude<ContentCoding, "identity">): Buffer {
  return coding === "br" ? zlib.brotliDecompressSync(encoded) : zlib.gunzipSync(encoded);
}

/**
 * One cached answer: the JSON or page, its ETag, and its compressed forms, each made once (on first
 * demand) instead of on every request.
 *
 * Once a compressed form smaller than the body is made, the body is let go: nearly every client
 * asks for br or gzip, and a product page's HTML is six times its brotli form, so keeping both made
 * the uncompressed copies five sixths of what the cache held. A client asking for identity gets the
 * body decoded from a compressed form each time (docs/decisions/052-page-cache-memory.md).
 */
export class CachedBody {
  readonly etag: string;
  /** The body's size uncompressed, kept or not. */
  readonly length: number;
  /** The uncompressed body, until a smaller compressed form replaces it. */
  #identity: Buffer | null;
  private readonly encoded = new Map<Exclude<ContentCoding, "identity">, Promise<Buffer>>();
  /** The compressed forms already made, for answering without waiting on a promise. */
  private readonly ready = new Map<Exclude<ContentCoding, "identity">, Buffer>();
  /**
   * Told how many bytes this answer's holding changed by (a compressed form made, the body let go)
   * while a cache counts it against its budget.
   */
  onGrow: ((bytes: number) => void) | null = null;
  /** When the cache last put this answer at the end of its order (its count of moves then). */
  placed = 0;

  constructor(body: Buffer) {
    this.#identity = owned(body);
    this.length = body.length;
    this.etag = `"${createHash("sha1").update(this.#identity).digest("base64url")}"`;
  }

  /** The uncompressed body: the one kept, or decoded from a compressed form. */
  get body(): Buffer {
    if (this.#identity) return this.#identity;
    for (const [coding, encoded] of this.ready) return decoded(encoded, coding);
    throw new Error("a cached answer holds neither its body nor a compressed form");
  }

  /** The body in `coding`. A form that would not be smaller is sent as identity (the caller checks `.length`). */
  encodedAs(coding: ContentCoding): Promise<Buffer> {
    if (coding === "identity") return Promise.resolve(this.body);
    let pending = this.encoded.get(coding);
    if (!pending) {
      pending = compress(this.body, coding).then(owned);
      this.encoded.set(coding, pending);
      pending.then(
        (buffer) => this.made(coding, buffer),
        // A failed compression is not kept: the next request tries again.
        () => this.encoded.delete(coding),
      );
    }
    return pending;
  }

  private made(coding: Exclude<ContentCoding, "identity">, buffer: Buffer) {
    this.ready.set(coding, buffer);
    let grown = buffer.length;
    if (this.#identity && buffer.length < this.length) {
      grown -= this.#identity.length;
      this.#identity = null;
    }
    this.onGrow?.(grown);
  }

  /** The bytes this answer holds: the body while it is kept, and each compressed form made so far. */
  get bytes(): number {
    let total = this.#identity?.length ?? 0;
    for (const buffer of this.ready.values()) total += buffer.length;
    return total;
  }

  /** The body in `coding` if it is already made, else undefined (then use `encodedAs`). */
  readyAs(coding: ContentCoding): Buffer | undefined {
    return coding === "identity" ? this.body : this.ready.get(coding);
  }
}

/** Browsers send a handful of distinct Accept-Encoding headers: each is parsed once. */
const negotiated = new Map<string, ContentCoding>();

/**
 * The content coding for an Accept-Encoding header: br, then gzip, else identity. Honours q=0
 * and `*`, as browsers and proxies send them.
 */
export function negotiateCoding(header: string | string[] | undefined): ContentCoding {
  if (!header) return "identity";
  const key = Array.isArray(header) ? header.join(",") : header;
  let coding = negotiated.get(key);
  if (coding === undefined) {
    coding = parseAcceptEncoding(key);
    if (negotiated.size >= 100) negotiated.clear();
    negotiated.set(key, coding);
  }
  return coding;
}

function parseAcceptEncoding(header: string): ContentCoding {
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (coding: string) => weights.get(coding) ?? weights.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return "identity";
}

/**
 * The public catalogue (products and categories) is read far more than it is written, so its
 * serialized answers, the pages rendered from it (src/server/pages/), and their compressed forms,
 * are kept in memory. A trigger on both tables
 * (migration 0002_catalog_notify_trigger) NOTIFYs on every write, whoever makes it (the admin
 * API, the seed, plain SQL, another instance); each instance LISTENs and clears its copy. While
 * the LISTEN connection is down the cache is bypassed: every answer is read fresh.
 *
 * What it held when LISTEN went down, and every answer read fresh since, is kept aside as the last
 * good answer of its key (`lastGood`): the routes serve it, marked stale, only when the database
 * cannot answer at all (send-cached.ts, freshOrLastGood), so the storefront keeps browsing through
 * an outage. Reconnecting drops it, since the catalogue may have changed meanwhile.
 *
 * It holds at most `maxBytes` (PAGE_CACHE_MB): the least recently used answers go first, so a
 * catalogue of any size, and any number of distinct searches, cost a bounded amount of memory
 * (docs/decisions/026-pages-that-stay-small.md).
 */
export class CatalogCache {
  private entries = new Map<string, Promise<CachedBody>>();
  /** The entries whose load has finished, least recently used first, for answering without waiting on a promise. */
  private loaded = new Map<string, CachedBody>();
  /** The bytes the loaded entries hold (bodies while kept, and compressed forms). */
  private bytes = 0;
  /** Counts every placing at the end of `loaded`: an entry's `placed` says how far back it is. */
  private moves = 0;
  /** Bumped by every clear: a load that started before a change is never stored after it. */
  private generation = 0;
  /** The last good answer of each key, kept while LISTEN is down (within the same budget), least recently stored first. */
  private lastGoodAnswers = new Map<string, CachedBody>();
  private lastGoodBytes = 0;
  private listener: pg.Client | null = null;
  private listening = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: FastifyBaseLogger,
    private readonly maxBytes: number = 64 * 1024 * 1024,
  ) {}

  /** The bytes held now, for tests and metrics. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** The bytes the last good answers hold now (only while LISTEN is down), for tests. */
  get lastGoodHeldBytes(): number {
    return this.lastGoodBytes;
  }

  async start(): Promise<void> {
    await this.connect().catch((error: unknown) => {
      this.log.warn(
        { err: error },
        "catalog cache: LISTEN failed; reading the database every time until it reconnects",
      );
      this.scheduleReconnect();
    });
  }

  private async connect() {
    const client = new pg.Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: 3_000 });
    client.on("notification", () => this.clear());
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
    this.listening = true;
    // Anything written while we were not listening is unknown to us.
    this.clear();
    this.dropLastGood();
  }

  private lost(client: pg.Client) {
    if (this.listener !== client) return;
    this.listener = null;
    this.listening = false;
    const held = [...this.loaded];
    this.clear();
    for (const [key, cached] of held) this.keepAsLastGood(key, cached);
    client.end().catch(() => {});
    this.scheduleReconnect();
  }

  /**
   * The last good answer of `key` while LISTEN is down: what the cache held when it went down, or
   * the latest answer read fresh since. Only for when the database cannot answer (it may be stale).
   */
  lastGood(key: string): CachedBody | undefined {
    return this.lastGoodAnswers.get(key);
  }

  private keepAsLastGood(key: string, cached: CachedBody) {
    const previous = this.lastGoodAnswers.get(key);
    if (previous) this.forgetLastGood(key, previous);
    if (cached.bytes > this.maxBytes) return;
    this.lastGoodAnswers.set(key, cached);
    this.lastGoodBytes += cached.bytes;
    cached.onGrow = (grown) => {
      this.lastGoodBytes += grown;
      this.evictLastGood();
    };
    this.evictLastGood();
  }

  private forgetLastGood(key: string, cached: CachedBody) {
    this.lastGoodAnswers.delete(key);
    this.lastGoodBytes -= cached.bytes;
    cached.onGrow = null;
  }

  private evictLastGood() {
    for (const [key, cached] of this.lastGoodAnswers) {
      if (this.lastGoodBytes <= this.maxBytes) return;
      this.forgetLastGood(key, cached);
    }
  }

  private dropLastGood() {
    for (const cached of this.lastGoodAnswers.values()) cached.onGrow = null;
    this.lastGoodAnswers.clear();
    this.lastGoodBytes = 0;
  }

  private scheduleReconnect() {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.closed) return;
      this.connect().catch(() => this.scheduleReconnect());
    }, 1_000);
    this.retryTimer.unref();
  }

  clear() {
    this.generation += 1;
    this.entries.clear();
    for (const cached of this.loaded.values()) cached.onGrow = null;
    this.loaded.clear();
    this.bytes = 0;
  }

  /**
   * The cached answer for `key` if it is loaded and current, else undefined (then use `get`).
   *
   * A used answer moves to the end of the order (most recently used) only once it has drifted into
   * the older half: moving it on every hit (a Map delete and set) was about a third of a
   * microsecond of a cached page's ~35, and an answer in the newer half is not the next to go anyway.
   */
  peek(key: string): CachedBody | undefined {
    const cached = this.loaded.get(key);
    if (cached && this.moves - cached.placed >= this.loaded.size >> 1) this.place(key, cached);
    return cached;
  }

  /** Puts `cached` at the end of the order (the most recently used). */
  private place(key: string, cached: CachedBody) {
    this.loaded.delete(key);
    this.loaded.set(key, cached);
    this.moves += 1;
    cached.placed = this.moves;
  }

  private keep(key: string, cached: CachedBody) {
    // An answer bigger than the whole budget is answered, not kept: keeping it would drop everything else.
    if (cached.bytes > this.maxBytes) {
      this.entries.delete(key);
      return;
    }
    this.place(key, cached);
    this.bytes += cached.bytes;
    cached.onGrow = (grown) => {
      this.bytes += grown;
      if (grown > 0) this.evict();
    };
    this.evict();
  }

  /** Drops the least recently used answers until the cache is within its budget. */
  private evict() {
    for (const [key, cached] of this.loaded) {
      if (this.bytes <= this.maxBytes) return;
      this.loaded.delete(key);
      this.entries.delete(key);
      cached.onGrow = null;
      this.bytes -= cached.bytes;
    }
  }

  /**
   * The cached answer for `key`, or a fresh one from `load`. Concurrent misses share one load
   * (a burst after a change costs one query, not one per request); the result is kept only while
   * LISTEN works and no change happened during the load. While LISTEN is down it becomes the key's
   * last good answer instead.
   */
  get(key: string, load: () => Promise<unknown>): Promise<CachedBody> {
    const hit = this.entries.get(key);
    if (hit) {
      this.peek(key);
      return hit;
    }
    const generation = this.generation;
    // A Buffer (a rendered page) is kept as it is; anything else is the JSON of an answer.
    const pending = load().then(
      (value) => new CachedBody(Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))),
    );
    if (this.listening) {
      this.entries.set(key, pending);
      const forget = () => {
        if (this.entries.get(key) === pending) this.entries.delete(key);
      };
      pending.then((cached) => {
        if (this.generation !== generation) forget();
        else if (this.entries.get(key) === pending) this.keep(key, cached);
      }, forget);
    } else {
      pending.then(
        (cached) => {
          if (!this.listening) this.keepAsLastGood(key, cached);
        },
        () => {},
      );
    }
    return pending;
  }

  /**
   * Resolves once this instance has handled every notification of a write committed before the
   * call: PostgreSQL hands a listening session its pending notifications before it answers a
   * query on it. Waited for before an admin write is answered, so the admin's next read shows it.
   */
  async caughtUp(): Promise<void> {
    await this.listener?.query("select 1").catch(() => {});
  }

  async close() {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.listener;
    this.listener = null;
    this.listening = false;
    await client?.end().catch(() => {});
  }
}
