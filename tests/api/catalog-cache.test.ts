import { randomBytes } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import pg from "pg";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogCache, negotiateCoding } from "#server/platform/http-cache/cache.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

describe("negotiateCoding", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0, br;q=0", "identity"],
    ["*", "br"],
    ["*;q=0", "identity"],
    ["identity", "identity"],
    ["GZIP", "gzip"],
  ] as const)("picks %s -> %s", (header, coding) => {
    expect(negotiateCoding(header)).toBe(coding);
  });
});

describe("the catalogue cache", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const get = (headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url: "/api/products", headers });

  it("sends the catalogue compressed with brotli or gzip, the same JSON as uncompressed", async () => {
    const plain = await get();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await get({ "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString("utf8")).toBe(plain.body);
    const gzip = await get({ "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString("utf8")).toBe(plain.body);
    expect(br.headers.etag).toBe(plain.headers.etag);
  });

  it("answers 304 to a weak or listed ETag too", async () => {
    const etag = (await get()).headers.etag as string;
    expect((await get({ "if-none-match": `W/${etag}` })).statusCode).toBe(304);
    expect((await get({ "if-none-match": `"other", ${etag}` })).statusCode).toBe(304);
    expect((await get({ "if-none-match": '"other"' })).statusCode).toBe(200);
  });

  it("loads once for a burst of concurrent misses", async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { loads };
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.app.catalogCache.get("burst", load)));
    expect(loads).toBe(1);
    expect(new Set(answers.map((answer) => answer.etag)).size).toBe(1);
  });

  it("does not keep an answer loaded while the catalogue changed", async () => {
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { loads };
    };
    const during = t.app.catalogCache.get("changing", load);
    t.app.catalogCache.clear();
    await during;
    await t.app.catalogCache.get("changing", load);
    expect(loads).toBe(2);
    await t.app.catalogCache.get("changing", load);
    expect(loads).toBe(2);
  });

  it("hands out a loaded answer without waiting only while it is current", async () => {
    const cache = t.app.catalogCache;
    const load = async () => ({ at: Date.now() });
    expect(cache.peek("peeked")).toBeUndefined();
    const loaded = await cache.get("peeked", load);
    expect(cache.peek("peeked")).toBe(loaded);
    expect(loaded.readyAs("identity")).toBe(loaded.body);
    expect(loaded.readyAs("br")).toBeUndefined();
    const br = await loaded.encodedAs("br");
    expect(loaded.readyAs("br")).toBe(br);

    // A load that a change overtook is never handed out.
    let finish: (value: unknown) => void = () => {};
    const slow = cache.get("overtaken", () => new Promise((resolve) => (finish = resolve)));
    cache.clear();
    expect(cache.peek("peeked")).toBeUndefined();
    finish({ stale: true });
    await slow;
    expect(cache.peek("overtaken")).toBeUndefined();
  });

  it("learns of a change made by plain SQL, not through the API, from the database's trigger", async () => {
    await get();
    expect(t.app.catalogCache.peek("products")).toBeDefined();
    const outside = new pg.Client({ connectionString: t.databaseUrl });
    await outside.connect();
    try {
      await outside.query(
        "update products set promo_text = 'Changed behind the API' where name = (select max(name) from products)",
      );
    } finally {
      await outside.end();
    }
    await t.app.catalogCache.caughtUp();
    expect(t.app.catalogCache.peek("products")).toBeUndefined();
    expect((await get()).body).toContain("Changed behind the API");

    // A write to categories (products carry their category's name) clears it too.
    await get();
    expect(t.app.catalogCache.peek("products")).toBeDefined();
    await t.db.execute(sql`update categories set description = description`);
    await t.app.catalogCache.caughtUp();
    expect(t.app.catalogCache.peek("products")).toBeUndefined();
  });

  it("answers the first request after a change with the new catalogue, compressed", async () => {
    const before = await get({ "accept-encoding": "br" });
    t.app.catalogCache.clear();
    await t.db.execute(
      sql`update products set promo_text = 'Fresh after a change' where name = (select min(name) from products)`,
    );
    const after = await get({ "accept-encoding": "br" });
    expect(after.statusCode).toBe(200);
    expect(after.headers["content-encoding"]).toBe("br");
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(brotliDecompressSync(after.rawPayload).toString("utf8")).toContain("Fresh after a change");
  });
});

describe("the catalogue cache's budget (PAGE_CACHE_MB: an LRU by bytes)", () => {
  let t: TestApp;
  let cache: CatalogCache;
  const BUDGET = 100;
  beforeAll(async () => {
    t = await buildTestApp();
    cache = new CatalogCache(t.databaseUrl, t.app.log, BUDGET);
    await cache.start();
  });
  afterAll(async () => {
    await cache.close();
    await t.close();
  });
  const bytes = (count: number) => async () => Buffer.alloc(count, "a");

  it("keeps answers up to exactly its budget, and drops the least recently used one byte past it", async () => {
    cache.clear();
    await cache.get("a", bytes(40));
    await cache.get("b", bytes(60));
    expect(cache.heldBytes).toBe(BUDGET);
    expect(cache.peek("a")).toBeDefined();
    expect(cache.peek("b")).toBeDefined();
    // "a" was used last: "b" is the least recently used, and goes when one more byte comes.
    cache.peek("a");
    await cache.get("c", bytes(1));
    expect(cache.peek("b")).toBeUndefined();
    expect(cache.peek("a")).toBeDefined();
    expect(cache.peek("c")).toBeDefined();
    expect(cache.heldBytes).toBe(41);
  });

  it("lets a body go once a smaller compressed form is made, and counts only the compressed form", async () => {
    cache.clear();
    const text = Buffer.from("x".repeat(90));
    const loaded = await cache.get("text", async () => text);
    await cache.get("small", bytes(5));
    expect(cache.heldBytes).toBe(95);
    const gzipped = await loaded.encodedAs("gzip");
    expect(gzipped.length).toBeLessThan(text.length);
    expect(cache.heldBytes).toBe(5 + gzipped.length);
    expect(loaded.bytes).toBe(gzipped.length);
    // Both stay, and the body is still answered whole (decoded from the gzip form), as are its other forms.
    expect(cache.peek("text")).toBe(loaded);
    expect(cache.peek("small")).toBeDefined();
    expect(loaded.body.equals(text)).toBe(true);
    expect(loaded.length).toBe(90);
    const brotli = await loaded.encodedAs("br");
    expect(brotliDecompressSync(brotli).equals(text)).toBe(true);
    expect(cache.heldBytes).toBe(5 + gzipped.length + brotli.length);
  });

  it("keeps a body whose compressed form is no smaller and counts both, up to exactly its budget", async () => {
    cache.clear();
    // Random bytes do not compress: the gzip form is no smaller than the body, which stays.
    const noise = randomBytes(20);
    const loaded = await cache.get("noise", async () => noise);
    const gzipped = await loaded.encodedAs("gzip");
    expect(gzipped.length).toBeGreaterThanOrEqual(noise.length);
    expect(loaded.bytes).toBe(20 + gzipped.length);
    expect(loaded.body).toBe(noise);
    await cache.get("fill", bytes(BUDGET - loaded.bytes));
    expect(cache.heldBytes).toBe(BUDGET);
    expect(cache.peek("noise")).toBe(loaded);
    expect(cache.peek("fill")).toBeDefined();
  });

  it("drops the least recently used answer when a compressed form that replaces nothing takes it one byte past its budget", async () => {
    cache.clear();
    const noise = randomBytes(20);
    const gzippedLength = (await (await cache.get("probe", async () => noise)).encodedAs("gzip")).length;
    cache.clear();
    const loaded = await cache.get("noise", async () => noise);
    await cache.get("fill", bytes(BUDGET - 20 - gzippedLength + 1));
    expect(cache.heldBytes).toBe(BUDGET - gzippedLength + 1);
    await loaded.encodedAs("gzip");
    expect(cache.peek("noise")).toBeUndefined();
    expect(cache.peek("fill")).toBeDefined();
    expect(cache.heldBytes).toBe(BUDGET - 20 - gzippedLength + 1);
  });

  it("answers, but does not keep, an answer bigger than the whole budget", async () => {
    cache.clear();
    let loads = 0;
    const big = async () => {
      loads += 1;
      return Buffer.alloc(BUDGET + 1);
    };
    expect((await cache.get("big", big)).body).toHaveLength(BUDGET + 1);
    expect(cache.peek("big")).toBeUndefined();
    await cache.get("big", big);
    expect(loads).toBe(2);
    expect(cache.heldBytes).toBe(0);
  });
});

describe("the last good answers kept while LISTEN is down (the same PAGE_CACHE_MB budget)", () => {
  const BUDGET = 100;
  let cache: CatalogCache;
  beforeAll(async () => {
    // Nothing listens on port 1: LISTEN never connects, as in a database outage.
    cache = new CatalogCache("postgres://postgres@127.0.0.1:1/none", pino({ level: "silent" }), BUDGET);
    await cache.start();
  });
  afterAll(() => cache.close());
  const bytes = (count: number) => async () => Buffer.alloc(count, "a");

  it("keeps every answer read fresh as its key's last good one, never as a current one", async () => {
    const first = await cache.get("a", bytes(10));
    expect(cache.peek("a")).toBeUndefined();
    expect(cache.lastGood("a")).toBe(first);
    const second = await cache.get("a", bytes(20));
    expect(cache.lastGood("a")).toBe(second);
    expect(cache.lastGoodHeldBytes).toBe(20);
    // A failed read keeps the last good answer.
    await expect(cache.get("a", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(cache.lastGood("a")).toBe(second);
  });

  it("holds up to exactly its budget, and drops the oldest one byte past it", async () => {
    await cache.get("a", bytes(40));
    await cache.get("b", bytes(60));
    expect(cache.lastGoodHeldBytes).toBe(BUDGET);
    await cache.get("c", bytes(1));
    expect(cache.lastGood("a")).toBeUndefined();
    expect(cache.lastGood("b")).toBeDefined();
    expect(cache.lastGood("c")).toBeDefined();
    expect(cache.lastGoodHeldBytes).toBe(61);
  });
});
