#!/usr/bin/env node
// 12. A shop of 5,000 products: the same measurements on the starter catalogue (33 products) and,
// in the same run on the same database, after `npm run seed:products`'s generator has filled it to
// 5,000:
// - the HTML of / and of a product page, gzip bytes on the wire (each under 60 KB at 5,000 and
//   within 1.5x of its size at 33);
// - the server's RSS after visiting every product page once, and its peak (VmHWM), of the shop
//   started as `npm start` starts it, fresh for each size (both under 300 MB at 5,000);
// - search p95 against the search the storefront uses (SEARCH_PATH; under 30 ms at 5,000);
// - rendered pages from the page cache against a bare route sending the same bytes (as bench 10;
//   ratio at or above 0.8 at both sizes).
import http from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import {
  freePort,
  fromDist,
  importPg,
  log,
  logPath,
  main,
  peakRssOf,
  rssOf,
  sleep,
  spawnServer,
  startDatabase,
  waitFor200,
} from "./lib/harness.mjs";
import { appAgainstBare, BROWSER_HEADERS } from "./lib/load.mjs";
import { emit, fmt, row, verdict } from "./lib/report.mjs";
import { startTarget } from "./lib/target-client.mjs";

const BENCH = "catalogue size";
const LARGE = 5_000;
/** The product page measured at both sizes: a starter product, so it is the same page. */
const PRODUCT_SLUG = "snug-and-dry-baby-nappies-value-pack";
const HTML_BAR = 60 * 1024;
const HTML_GROWTH_BAR = 1.5;
const RSS_BAR = 300 * 1024 * 1024;
const SEARCH_P95_BAR_MS = 30;
const RATIO_BAR = 0.8;
const CONNECTIONS = 64;
/**
 * Visiting every product page stops at this time, or at this RSS (the machine is shared: an
 * unbounded page cache of multi-megabyte pages would take gigabytes); either fails the row. The
 * time allows a loaded 2-core machine, where the 5,000 renders took up to 11 minutes (94 s idle).
 */
const VISIT_DEADLINE_MS = 600_000;
const VISIT_RSS_STOP = 1024 * 1024 * 1024;
const VISIT_CONCURRENCY = 4;

/**
 * The storefront's search: a paged endpoint taking q (and category, sort, cursor). While the shop
 * has none (404), the search is the browser filtering the whole catalogue, so what it waits for is
 * FALLBACK_SEARCH_PATH (which ignores `search`). Change SEARCH_PATH to the endpoint that lands.
 */
const SEARCH_PATH = "/api/products/search";
const FALLBACK_SEARCH_PATH = "/api/products";
const SEARCH_QUERIES = ["pampers", "huggies gold", "size 4", "tena pants", "pads", "jumbo pack", "wipes", "kotex"];
/** Shop by size (decision 048), each with a search: sent as `q=...&` these, by the same clients. */
const SEARCH_FILTERS = ["weight=7.5", "absorbency=4&sort=price", "size=M", "category=baby&weight=12&sort=unit"];
const SEARCH_REQUESTS = 300;
const SEARCH_WORKERS = 2;

const rows = [];
const pageHeaders = { ...BROWSER_HEADERS, accept: "text/html" };
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** GET with raw bytes (fetch would decompress them); `keep` false drops the body, counting its bytes. */
function rawGet(url, headers, { keep = true } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks = [];
      let bytes = 0;
      response.on("data", (chunk) => {
        bytes += chunk.length;
        if (keep) chunks.push(chunk);
      });
      response.on("end", () =>
        resolve({
          status: response.statusCode,
          headers: response.headers,
          bytes,
          body: keep ? Buffer.concat(chunks) : null,
          ms: performance.now() - started,
        }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

function decode(body, encoding) {
  if (encoding === "br") return brotliDecompressSync(body);
  if (encoding === "gzip") return gunzipSync(body);
  return body;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** A page's HTML as a phone asking for gzip gets it: bytes on the wire, and decoded. */
async function htmlSize(baseUrl, pathname) {
  const response = await rawGet(`${baseUrl}${pathname}`, { ...pageHeaders, "accept-encoding": "gzip" });
  if (response.status !== 200) throw new Error(`GET ${pathname} answered ${response.status}`);
  const encoding = response.headers["content-encoding"];
  if (encoding !== "gzip") throw new Error(`GET ${pathname} was not gzipped (${encoding ?? "identity"})`);
  return { gzip: response.bytes, raw: decode(response.body, encoding).length };
}

/** Bare route versus the app for one page (as bench 10); answers the ratio and the rest for the row. */
async function cachedAgainstBare(target, label, pathname) {
  const capture = await target.capture(pathname, pageHeaders);
  if (capture.status !== 200) throw new Error(`GET ${pathname} answered ${capture.status}`);
  const result = await appAgainstBare({
    target,
    label,
    appPath: pathname,
    barePath: `/bare${pathname}`,
    headers: pageHeaders,
    connections: CONNECTIONS,
  });
  return { ...result, wire: capture.bytes };
}

/** Which search the storefront uses on this build, and a URL for a query. */
async function searchEndpoint(baseUrl) {
  const probe = await rawGet(`${baseUrl}${SEARCH_PATH}?q=pampers`, { ...BROWSER_HEADERS, accept: "application/json" });
  if (probe.status === 200)
    return {
      name: `GET ${SEARCH_PATH}?q=`,
      fallback: false,
      url: (q, filter = "") => `${baseUrl}${SEARCH_PATH}?q=${encodeURIComponent(q)}${filter ? `&${filter}` : ""}`,
    };
  return {
    fallback: true,
    name: `GET ${FALLBACK_SEARCH_PATH} (no ${SEARCH_PATH}: the browser filters the whole catalogue)`,
    url: (q) => `${baseUrl}${FALLBACK_SEARCH_PATH}?search=${encodeURIComponent(q)}`,
  };
}

/** p50/p95 of SEARCH_REQUESTS searches from SEARCH_WORKERS clients cycling through the queries (after a warm-up). */
async function searchLatency(endpoint) {
  const headers = { ...BROWSER_HEADERS, accept: "application/json" };
  const searchUrl = (index) =>
    endpoint.url(SEARCH_QUERIES[index % SEARCH_QUERIES.length], SEARCH_FILTERS[index % (SEARCH_FILTERS.length + 1)]);
  for (let index = 0; index < SEARCH_QUERIES.length * (SEARCH_FILTERS.length + 1); index += 1)
    await rawGet(searchUrl(index), headers, { keep: false });
  const times = [];
  let next = 0;
  let bytes = 0;
  const failures = [];
  await Promise.all(
    Array.from({ length: SEARCH_WORKERS }, async () => {
      while (next < SEARCH_REQUESTS) {
        const url = searchUrl(next++);
        const response = await rawGet(url, headers, { keep: false });
        if (response.status !== 200) failures.push(`${url}: HTTP ${response.status}`);
        times.push(response.ms);
        bytes = Math.max(bytes, response.bytes);
      }
    }),
  );
  return { p50: percentile(times, 50), p95: percentile(times, 95), bytes, failures };
}

/**
 * The node process among `pid`'s descendants running `script` (an argument after node's own flags, as
 * package.json's start passes them; not the shell npm runs it with), or null.
 */
async function descendantRunning(pid, script) {
  const { readFile } = await import("node:fs/promises");
  const read = (file) => readFile(file, "utf8").catch(() => "");
  const children = async (parent) => {
    const { readdir } = await import("node:fs/promises");
    const tasks = await readdir(`/proc/${parent}/task`).catch(() => []);
    const lists = await Promise.all(tasks.map((task) => read(`/proc/${parent}/task/${task}/children`)));
    return lists.join(" ").split(/\s+/).filter(Boolean).map(Number);
  };
  const queue = [pid];
  while (queue.length) {
    const next = queue.shift();
    const [command = "", ...args] = (await read(`/proc/${next}/cmdline`)).split("\0");
    if (path.basename(command).startsWith("node") && args.some((arg) => arg.endsWith(script))) return next;
    queue.push(...(await children(next)));
  }
  return null;
}

/**
 * The shop as an operator starts it, `npm start` (scripts/start.mjs, running dist/ in the same
 * process), fresh on the database: every product page visited once, then the node process's RSS
 * and its peak since it started (VmHWM), read from /proc as `ps` or a container's limit sees them.
 * Stops visiting at VISIT_DEADLINE_MS, or past VISIT_RSS_STOP (RSS sampled every 25 pages).
 */
async function rssAfterVisits(databaseUrl, slugs, label) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    DATABASE_URL: databaseUrl,
  };
  // The default page cache (64 MB), whatever the shell running the benchmark has set.
  delete env.PAGE_CACHE_MB;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const server = spawnServer(npm, ["start", "--silent"], {
    env,
    logFile: logPath(`catalog-size-${label}-server.log`),
  });
  let shop = null;
  try {
    await waitFor200(`${baseUrl}/api/health`, { child: server.child, timeoutMs: 120_000 });
    shop = await descendantRunning(server.pid, "scripts/start.mjs");
    if (!shop) throw new Error("no node process running scripts/start.mjs under npm start");
    const idle = await rssOf(shop);
    const started = performance.now();
    let next = 0;
    let visited = 0;
    let stoppedBy = null;
    const failures = [];
    await Promise.all(
      Array.from({ length: VISIT_CONCURRENCY }, async () => {
        while (next < slugs.length && !stoppedBy) {
          const slug = slugs[next++];
          const response = await rawGet(`${baseUrl}/products/${slug}`, pageHeaders, { keep: false });
          if (response.status !== 200) failures.push(`${slug}: HTTP ${response.status}`);
          visited += 1;
          if (visited % 25 === 0 && (await rssOf(shop)) > VISIT_RSS_STOP)
            stoppedBy ??= `stopped at ${fmt.mb(VISIT_RSS_STOP)} RSS`;
          if (performance.now() - started > VISIT_DEADLINE_MS) stoppedBy ??= `stopped at ${VISIT_DEADLINE_MS / 1000} s`;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await sleep(1_000);
    const after = await rssOf(shop);
    const peak = await peakRssOf(shop);
    log(
      `${label}: visited ${visited} of ${slugs.length} product pages in ${seconds.toFixed(1)} s; ` +
        `RSS of npm start's node (pid ${shop}) ${fmt.mb(idle)} idle, ${fmt.mb(after)} after, peak (VmHWM) ${fmt.mb(peak)}`,
    );
    return { idle, after, peak, visited, seconds, failures, stoppedBy };
  } finally {
    // npm passes SIGTERM on to its script, but the shop is stopped directly, as it would be by its supervisor.
    if (shop) process.kill(shop, "SIGTERM");
    await server.stop();
  }
}

async function productSlugs(databaseUrl) {
  const pg = await importPg();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: products } = await client.query("select slug from products order by slug");
    return products.map((product) => product.slug);
  } finally {
    await client.end();
  }
}

/** Fills the catalogue to `total` products with the seed command's generator. */
async function seedTo(databaseUrl, total, present) {
  const { seedProducts } = await fromDist("server/cli/seed-products.js");
  const pg = await importPg();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    const result = await seedProducts(client, { products: total - present });
    log(`seeded ${result.added} generated products in ${fmt.s(performance.now() - started)}`);
  } finally {
    await client.end();
  }
}

/** Every measurement at the catalogue's current size. */
async function measure(target, databaseUrl) {
  const slugs = await productSlugs(databaseUrl);
  const count = slugs.length;
  log(`--- ${count.toLocaleString("en-US")} products`);
  const productPath = `/products/${PRODUCT_SLUG}`;
  const html = { home: await htmlSize(target.appUrl, "/"), product: await htmlSize(target.appUrl, productPath) };
  log(
    `HTML, gzip: / ${fmt.kb(html.home.gzip)} (${fmt.kb(html.home.raw)} raw), ` +
      `product page ${fmt.kb(html.product.gzip)} (${fmt.kb(html.product.raw)} raw)`,
  );
  const pages = {
    home: await cachedAgainstBare(target, `/ at ${count}`, "/"),
    product: await cachedAgainstBare(target, `/products/{slug} at ${count}`, productPath),
  };
  const endpoint = await searchEndpoint(target.appUrl);
  const search = { endpoint, ...(await searchLatency(endpoint)) };
  log(`search (${endpoint.name}): p50 ${fmt.ms(search.p50)}, p95 ${fmt.ms(search.p95)}, ${fmt.kb(search.bytes)}`);
  const memory = await rssAfterVisits(databaseUrl, slugs, `${count}`);
  return { count, html, pages, search, memory };
}

function htmlRows(label, key, small, large) {
  const at = (size) => size.html[key];
  const growth = at(large).gzip / at(small).gzip;
  rows.push(
    row({
      bench: BENCH,
      name: `HTML of ${label} (gzip) at ${small.count.toLocaleString("en-US")} products`,
      measured: fmt.kb(at(small).gzip),
      bar: "printed",
      status: "info",
      note: `${fmt.kb(at(small).raw)} before compression`,
    }),
    row({
      bench: BENCH,
      name: `HTML of ${label} (gzip) at ${large.count.toLocaleString("en-US")} products`,
      measured: fmt.kb(at(large).gzip),
      baseline: `${fmt.kb(at(small).gzip)} at ${small.count}`,
      ratio: growth,
      bar: `< ${fmt.kb(HTML_BAR)}, <= ${HTML_GROWTH_BAR}x`,
      status: verdict(at(large).gzip < HTML_BAR && growth <= HTML_GROWTH_BAR),
      note: `${fmt.kb(at(large).raw)} before compression`,
    }),
  );
}

function memoryRow(size, bar) {
  const { memory } = size;
  const complete = memory.visited === size.count && memory.failures.length === 0;
  rows.push(
    row({
      bench: BENCH,
      name: `server RSS after visiting every product page once (npm start), ${size.count.toLocaleString("en-US")} products`,
      measured: `${fmt.mb(memory.after)} after, ${fmt.mb(memory.peak)} peak`,
      baseline: `${fmt.mb(memory.idle)} idle`,
      ratio: memory.peak / memory.idle,
      bar: bar ? `both < ${fmt.mb(bar)}` : "printed",
      status: bar ? verdict(memory.after < bar && memory.peak < bar && complete) : complete ? "info" : "fail",
      note:
        `${memory.visited.toLocaleString("en-US")} of ${size.count.toLocaleString("en-US")} pages in ${memory.seconds.toFixed(1)} s` +
        `${memory.stoppedBy ? ` (${memory.stoppedBy})` : ""}, ${VISIT_CONCURRENCY} at a time; ` +
        `peak is VmHWM, the highest RSS since the process started; default PAGE_CACHE_MB` +
        `${memory.failures.length ? `; failures: ${memory.failures.slice(0, 3).join("; ")}` : ""}`,
    }),
  );
}

function searchRow(size, bar) {
  const { search } = size;
  rows.push(
    row({
      bench: BENCH,
      name: `search p95, ${size.count.toLocaleString("en-US")} products${search.endpoint.fallback ? " (no search endpoint: the whole catalogue)" : ""}`,
      measured: fmt.ms(search.p95),
      baseline: "",
      bar: bar ? `< ${bar} ms` : "printed",
      status: bar
        ? verdict(search.p95 < bar && search.failures.length === 0)
        : search.failures.length
          ? "fail"
          : "info",
      note:
        `${search.endpoint.name}; p50 ${fmt.ms(search.p50)}; ${fmt.kb(search.bytes)} on the wire; ` +
        `${SEARCH_REQUESTS} searches from ${SEARCH_WORKERS} clients` +
        `${search.failures.length ? `; failures: ${search.failures.slice(0, 3).join("; ")}` : ""}`,
    }),
  );
}

function pageRows(size) {
  for (const [key, label] of [
    ["home", "/"],
    ["product", "/products/{slug}"],
  ]) {
    const { app, bare, ratio, failures, wire, cpu, rounds } = size.pages[key];
    rows.push(
      row({
        bench: BENCH,
        name: `GET ${label} from the page cache, ${size.count.toLocaleString("en-US")} products: req/s`,
        measured: fmt.rps(app.rps),
        baseline: fmt.rps(bare.rps),
        ratio,
        bar: `ratio >= ${RATIO_BAR}`,
        status: verdict(ratio >= RATIO_BAR && failures.length === 0),
        note:
          `${fmt.kb(wire)} on the wire (br); ${rounds}; p99 ${fmt.ms(app.p99)} (bare ${fmt.ms(bare.p99)}); server CPU per request: ` +
          `app ${Math.round(cpu.app)} us, bare ${Math.round(cpu.bare)} us${failures.length ? `; failures: ${failures.join("; ")}` : ""}`,
      }),
    );
  }
}

await main(
  async () => {
    const database = await startDatabase("catalog-size");
    const target = await startTarget({ databaseUrl: database.url, label: "catalog-size" });
    const small = await measure(target, database.url);
    await seedTo(database.url, LARGE, small.count);
    await target.catalogChanged();
    const large = await measure(target, database.url);
    if (large.count !== LARGE) throw new Error(`expected ${LARGE} products, found ${large.count}`);

    htmlRows("/", "home", small, large);
    htmlRows("a product page", "product", small, large);
    memoryRow(small, null);
    memoryRow(large, RSS_BAR);
    searchRow(small, null);
    searchRow(large, SEARCH_P95_BAR_MS);
    pageRows(small);
    pageRows(large);
    emit(rows);
  },
  async (error) => {
    rows.push(
      row({
        bench: BENCH,
        name: "catalogue size",
        measured: "error",
        bar: "runs",
        status: "fail",
        note: String(error?.message ?? error),
      }),
    );
    emit(rows);
  },
);
