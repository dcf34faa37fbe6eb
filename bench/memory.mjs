#!/usr/bin/env node
// 4. Memory: the resident set size of `node dist/server/main.js` (what `npm start` runs, on its own
// embedded PostgreSQL) after each of three rounds of 50,000 mixed requests, the way a day of
// shoppers mixes them: the catalogue (half of it revalidating), categories, health checks, pages of
// the storefront and its assets, product images, unknown API paths and pages, and failed logins
// (distinct accounts from distinct client addresses behind a trusted proxy, so each one is really
// checked: the rate limiter would otherwise answer 429 cheaply).
import { readFileSync } from "node:fs";
import path from "node:path";
import { DIST, freePort, log, logPath, main, rssOf, sleep, spawnServer, tempDir, waitFor200 } from "./lib/harness.mjs";
import { BROWSER_HEADERS, failuresOf, load } from "./lib/load.mjs";
import { emit, fmt, row, verdict } from "./lib/report.mjs";

const BENCH = "memory";
const ROUNDS = 3;
const REQUESTS_PER_ROUND = 50_000;
const CONNECTIONS = 32;
const RSS_BAR = 200 * 1024 * 1024;
const GROWTH_BAR = 1.1;
const rows = [];

/** The storefront's first-load files, from the built index.html. */
function storefrontAssets() {
  const html = readFileSync(path.join(DIST, "web", "index.html"), "utf8");
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
}

/** 200 requests in the proportions a day of traffic has; every connection cycles through them. */
function mixedRequests(products, etag) {
  const assets = storefrontAssets();
  const images = [...new Set(products.map((product) => product.image))];
  const get = (pathname, headers = {}) => ({
    method: "GET",
    path: pathname,
    headers: { ...BROWSER_HEADERS, ...headers },
  });
  const list = [];
  const add = (count, make) => {
    for (let i = 0; i < count; i++) list.push(make(i));
  };
  let login = 0;
  add(35, () => get("/api/products"));
  add(35, () => get("/api/products", { "if-none-match": etag }));
  add(30, () => get("/api/categories"));
  add(20, () => get("/api/health"));
  add(10, () => get("/"));
  add(5, () => get("/checkout"));
  add(5, (i) => get(`/products/${products[i % products.length].slug}`)); // a shared product link
  add(15, (i) => get(assets[i % assets.length]));
  add(9, (i) => get(images[i % images.length]));
  add(10, (i) => get(`/api/no-such-thing-${i}`));
  // Unknown pages, and made-up product addresses: a 404 page rendered on the server each time.
  add(5, (i) => get(i % 2 ? `/no-such-page-${i}` : `/products/no-such-product-${i}`));
  add(1, () => ({
    method: "POST",
    path: "/api/auth/login",
    setupRequest: (request) => {
      const n = login++;
      request.headers = {
        ...request.headers,
        "content-type": "application/json",
        "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      };
      request.body = JSON.stringify({ username: `nobody-${process.pid}-${n}`, password: "not the password" });
      return request;
    },
  }));
  return list.sort((a, b) => weight(a) - weight(b));
}

// Interleave the kinds instead of sending 35 identical requests in a row.
const order = new Map();
function weight(request) {
  const key = `${request.method} ${request.path}`;
  const seen = order.get(key) ?? 0;
  order.set(key, seen + 1);
  return seen + Math.random() * 0.5;
}

await main(
  async () => {
    const dataDir = tempDir("shop-bench-memory");
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      // The shop behind a reverse proxy on this machine: X-Forwarded-For names the client.
      TRUST_PROXY: "127.0.0.1",
    };
    delete env.DATABASE_URL;
    const server = spawnServer(process.execPath, [path.join(DIST, "server", "main.js")], {
      env,
      logFile: logPath("memory-server.log"),
    });
    await waitFor200(`${baseUrl}/api/health`, { child: server.child, timeoutMs: 120_000 });
    const startRss = await rssOf(server.pid);
    log(`started: RSS ${fmt.mb(startRss)}`);

    const productsResponse = await fetch(`${baseUrl}/api/products`);
    const etag = productsResponse.headers.get("etag");
    const products = await productsResponse.json();
    const requests = mixedRequests(products, etag);

    const rss = [];
    const failures = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const summary = await load({
        label: `round ${round}`,
        url: baseUrl,
        connections: CONNECTIONS,
        amount: REQUESTS_PER_ROUND,
        warmupSeconds: 0,
        requests,
      });
      const bad = failuresOf(summary, [304, 401, 404]);
      if (bad) failures.push(`round ${round}: ${bad}`);
      await sleep(1_000);
      rss.push(await rssOf(server.pid));
      log(
        `after round ${round}: RSS ${fmt.mb(rss.at(-1))} (${Object.entries(summary.statusCodes)
          .map(([code, { count }]) => `${code}: ${count}`)
          .join(", ")})`,
      );
    }
    await server.stop();

    const peak = Math.max(...rss);
    const growth = rss[2] / rss[1];
    rows.push(
      row({
        bench: BENCH,
        name: `server RSS after 3 x ${REQUESTS_PER_ROUND.toLocaleString("en-US")} mixed requests`,
        measured: rss.map(fmt.mb).join(" / "),
        baseline: `${fmt.mb(startRss)} idle`,
        ratio: peak / startRss,
        bar: `< ${fmt.mb(RSS_BAR)}`,
        status: verdict(peak < RSS_BAR && failures.length === 0),
        note: failures.length ? `unexpected answers: ${failures.join("; ")}` : "",
      }),
      row({
        bench: BENCH,
        name: "RSS growth, round 3 / round 2",
        measured: `${growth.toFixed(3)}x`,
        baseline: "",
        ratio: growth,
        bar: `<= ${GROWTH_BAR.toFixed(2)}`,
        status: verdict(growth <= GROWTH_BAR),
      }),
    );
    emit(rows);
  },
  async (error) => {
    rows.push(
      row({
        bench: BENCH,
        name: "memory",
        measured: "error",
        bar: "runs",
        status: "fail",
        note: String(error?.message ?? error),
      }),
    );
    emit(rows);
  },
);
