import http, { type IncomingHttpHeaders } from "node:http";
import type net from "node:net";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { policyPath } from "#domain/policies.js";
import { loadConfig } from "#server/platform/config.js";
import { EARLY_ANSWER_URL_CHARS, EARLY_ANSWER_URLS } from "#server/platform/http-cache/early-answers.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { sourcePageRenderer } from "../helpers/page-renderer.js";

const PUBLIC_URL = "http://localhost:3000";
const TOKEN = "early-answers-metrics-token-0123456789";

/** The app's log lines, when a test turns its level up. */
const lines: Record<string, unknown>[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    for (const text of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(text));
    done();
  },
});

let t: TestApp;
let base: string;
/** Whether each request the server took was answered before routing. */
let answered: MockInstance<(typeof t.app.earlyAnswers)["answer"]>;
let slug: string;
let category: string;

beforeAll(async () => {
  const pageRenderer = await sourcePageRenderer(loadConfig({ PUBLIC_URL }));
  t = await buildTestApp({ PUBLIC_URL, METRICS_TOKEN: TOKEN }, { pageRenderer, logger: { level: "info", stream } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  answered = vi.spyOn(t.app.earlyAnswers, "answer");
  const products = (await (await fetch(`${base}/api/products`)).json()) as { slug: string; category: string }[];
  slug = products[0]?.slug ?? "";
  category = products[0]?.category ?? "";
});
afterAll(() => t.close());
beforeEach(() => {
  answered.mockClear();
  lines.length = 0;
});

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request over HTTP, its body as sent (fetch would decompress it). */
function raw(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${url}`, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

/** Whether the server's last request was answered before routing. */
const lastWasEarly = () => answered.mock.results.at(-1)?.value as boolean | undefined;

/** An answer's headers but those that differ between any two answers (the date, the request id). */
function comparable({ headers }: Raw) {
  const { date, "x-request-id": id, ...rest } = headers;
  expect(id).toMatch(/^[\w-]+-[0-9a-z]+$/);
  return rest;
}

const BROWSER = { "accept-encoding": "gzip, deflate, br, zstd" };

describe("cached answers given before routing", () => {
  it("answer the second GET of a page or catalogue answer with the route's status, headers and bytes", async () => {
    const urls = [
      "/",
      `/products/${slug}`,
      `/category/${encodeURIComponent(category)}`,
      "/legal",
      policyPath("privacy"),
      "/sitemap.xml",
      "/api/products",
      "/api/categories",
      "/?utm_source=whatsapp",
    ];
    for (const url of urls) {
      for (const headers of [BROWSER, {}, { "accept-encoding": "gzip" }]) {
        const routed = await raw(url, headers);
        const early = await raw(url, headers);
        expect(lastWasEarly(), url).toBe(true);
        expect(early.status, url).toBe(200);
        expect(routed.status, url).toBe(200);
        expect(comparable(early), url).toEqual(comparable(routed));
        expect(early.body.equals(routed.body), url).toBe(true);
        expect(early.headers["x-request-id"]).not.toBe(routed.headers["x-request-id"]);
      }
    }
    // What the browser gets: the page itself, compressed, with the page's security headers.
    const page = await raw(`/products/${slug}`, BROWSER);
    expect(page.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(page.body).toString()).toContain(
      `<link rel="canonical" href="${PUBLIC_URL}/products/${slug}"`,
    );
    expect(page.headers["content-security-policy"]).toContain("default-src 'self'");
    expect((await raw("/api/products", BROWSER)).headers["content-security-policy"]).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });

  it("answer 304 to a browser that has the answer, as the route does", async () => {
    const first = await raw("/?from=304", BROWSER);
    const etag = String(first.headers.etag);
    answered.mockClear();
    const routed = await raw("/?from=304-routed", { ...BROWSER, "if-none-match": etag });
    expect(lastWasEarly()).toBe(false);
    const early = await raw("/?from=304", { ...BROWSER, "if-none-match": `W/${etag}` });
    expect(lastWasEarly()).toBe(true);
    expect(early.status).toBe(304);
    expect(routed.status).toBe(304);
    expect(early.body.length).toBe(0);
    expect(comparable(early)).toEqual(comparable(routed));
  });

  it("leave HEAD, other methods, and URLs no route answered from the cache to Fastify", async () => {
    await raw("/legal", BROWSER);
    const head = await raw("/legal", BROWSER, "HEAD");
    expect(lastWasEarly()).toBe(false);
    expect(head.status).toBe(200);
    expect((await raw("/legal", {}, "POST")).status).toBe(404);
    expect(lastWasEarly()).toBe(false);
    // Not from the cache: each time through the route.
    await raw("/api/products/search?q=nappies");
    await raw("/api/products/search?q=nappies");
    expect(lastWasEarly()).toBe(false);
    await raw("/products/no-such-product");
    expect((await raw("/products/no-such-product")).status).toBe(404);
    expect(lastWasEarly()).toBe(false);
  });

  it("answer what the catalogue holds now: a change sends the next request through the route again", async () => {
    const url = `/products/${slug}`;
    await raw(url);
    await raw(url);
    expect(lastWasEarly()).toBe(true);
    await t.pool.query("update products set price_cents = 987654 where slug = $1", [slug]);
    await t.app.catalogCache.caughtUp();
    const changed = await raw(url);
    expect(lastWasEarly()).toBe(false);
    expect(changed.body.toString()).toContain("R9,876.54");
    const again = await raw(url);
    expect(lastWasEarly()).toBe(true);
    expect(again.body.equals(changed.body)).toBe(true);
  });

  it("leave a compressed form not made yet to the route, which makes it", async () => {
    t.app.catalogCache.clear();
    await raw("/api/categories");
    answered.mockClear();
    const compressed = await raw("/api/categories", { "accept-encoding": "br" });
    expect(lastWasEarly()).toBe(false);
    expect(compressed.headers["content-encoding"]).toBe("br");
    await raw("/api/categories", { "accept-encoding": "br" });
    expect(lastWasEarly()).toBe(true);
  });

  it("count in the request metrics like routed answers, under the route's pattern", async () => {
    const url = `/products/${slug}`;
    await raw(url);
    const count = async () => {
      const text = (await raw("/metrics", { authorization: `Bearer ${TOKEN}` })).body.toString();
      const series = 'shop_http_request_duration_seconds_count{method="GET",route="/products/:slug",status="200"} ';
      return Number(
        text
          .split("\n")
          .find((line) => line.startsWith(series))
          ?.slice(series.length),
      );
    };
    const before = await count();
    for (let i = 0; i < 5; i++) await raw(url);
    expect(answered.mock.results.filter((result) => result.value === true)).toHaveLength(5);
    expect(await count()).toBe(before + 5);
  });

  it("log nothing at info, as routed reads; at debug every request goes through the route and is logged", async () => {
    await raw("/legal");
    await raw("/legal");
    expect(lastWasEarly()).toBe(true);
    expect(lines.filter((line) => line.reqId !== undefined)).toEqual([]);
    t.app.log.level = "debug";
    try {
      const answer = await raw("/legal");
      expect(lastWasEarly()).toBe(false);
      const logged = lines.filter((line) => line.reqId === answer.headers["x-request-id"]);
      expect(logged.map((line) => line.msg)).toEqual(["incoming request", "request completed"]);
    } finally {
      t.app.log.level = "info";
    }
  });

  it(`remember at most ${EARLY_ANSWER_URLS} URLs, forgetting the oldest first`, async () => {
    const url = (n: number) => `/api/categories?n=${n}`;
    const through = async (n: number) => {
      const answer = await fetch(`${base}${url(n)}`);
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    };
    // The first URL alone, then the rest up to the limit sixteen at a time: each goes through the
    // route once, which remembers it, and the URLs earlier tests left are forgotten first.
    await through(0);
    const queue = Array.from({ length: EARLY_ANSWER_URLS - 1 }, (_, n) => n + 1);
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let n = queue.shift(); n !== undefined; n = queue.shift()) await through(n);
      }),
    );
    expect(t.app.earlyAnswers.size).toBe(EARLY_ANSWER_URLS);
    await raw(url(0));
    expect(lastWasEarly()).toBe(true);
    // One more: the oldest (the first URL) is forgotten, the rest are kept.
    await through(EARLY_ANSWER_URLS);
    expect(t.app.earlyAnswers.size).toBe(EARLY_ANSWER_URLS);
    await raw(url(EARLY_ANSWER_URLS));
    expect(lastWasEarly()).toBe(true);
    await raw(url(EARLY_ANSWER_URLS - 1));
    expect(lastWasEarly()).toBe(true);
    await raw(url(0));
    expect(lastWasEarly()).toBe(false);
  }, 60_000);

  it(`remember URLs of up to ${EARLY_ANSWER_URL_CHARS} characters; a longer one is always routed`, async () => {
    const longest = `/legal?ref=${"x".repeat(EARLY_ANSWER_URL_CHARS - "/legal?ref=".length)}`;
    expect(longest).toHaveLength(EARLY_ANSWER_URL_CHARS);
    await raw(longest);
    await raw(longest);
    expect(lastWasEarly()).toBe(true);
    const tooLong = `${longest}y`;
    expect((await raw(tooLong)).status).toBe(200);
    expect((await raw(tooLong)).status).toBe(200);
    expect(lastWasEarly()).toBe(false);
  });

  it("log an answer the system takes longer than a second to take at info, as a routed one", async () => {
    await raw("/api/products");
    lines.length = 0;
    answered.mockClear();
    // The server's side of the next connection does not hand what it writes to the system until
    // released, as when a client does not read and the system's buffers are full.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const connected = new Promise<void>((resolve) =>
      t.app.server.once("connection", (socket: net.Socket) => {
        type Write = (this: net.Socket, ...args: unknown[]) => void;
        const writable = socket as unknown as { _write: Write; _writev?: Write };
        for (const name of ["_write", "_writev"] as const) {
          const write = writable[name];
          if (write) {
            writable[name] = function (this: net.Socket, ...args: unknown[]) {
              void released.then(() => write.apply(this, args));
            };
          }
        }
        resolve();
      }),
    );
    const slow = raw("/api/products");
    await connected;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(lastWasEarly()).toBe(true);
    expect(lines.filter((line) => line.msg === "request completed")).toEqual([]);
    release();
    expect((await slow).status).toBe(200);
    await expect.poll(() => lines.filter((line) => line.msg === "request completed")).toHaveLength(1);
    const [line] = lines.filter((logged) => logged.msg === "request completed");
    expect(line).toMatchObject({ level: 30, method: "GET", url: "/api/products", statusCode: 200 });
    expect(line?.responseTime).toBeGreaterThanOrEqual(1_000);
    expect(line?.reqId).toBe((await slow).headers["x-request-id"]);
  });

  it("stop once the server closes: Fastify answers (503 while it closes)", async () => {
    await raw("/legal");
    await raw("/legal");
    expect(lastWasEarly()).toBe(true);
    t.app.earlyAnswers.close();
    await raw("/legal");
    expect(lastWasEarly()).toBe(false);
  });
});
