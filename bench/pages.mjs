#!/usr/bin/env node
// 9. Rendered pages: GET / and GET /products/{slug} of the real app (rendered on the server, from
// the page cache) versus a bare Fastify route in a process of its own (bench/lib/bare.mjs) that
// sends the same bytes from memory, at 64 connections. Also: a catalogue change renders the page
// again on the next request.
import { importPg, log, main, startDatabase } from "./lib/harness.mjs";
import { appAgainstBare, BROWSER_HEADERS } from "./lib/load.mjs";
import { emit, fmt, row, verdict } from "./lib/report.mjs";
import { startTarget } from "./lib/target-client.mjs";

const BENCH = "pages";
const CONNECTIONS = 64;
const RATIO_BAR = 0.8;
const P99_BAR_MS = 25;
const rows = [];
const headers = { ...BROWSER_HEADERS, accept: "text/html" };

/** Bare route versus the app, alternated five times; the round with the median ratio (lib/load.mjs). */
async function compare(target, label, pathname) {
  const capture = await target.capture(pathname, headers);
  if (capture.status !== 200) throw new Error(`GET ${pathname} answered ${capture.status}`);
  log(`${label}: ${fmt.kb(capture.bytes)} on the wire (${capture.headers["content-encoding"] ?? "identity"})`);
  const { app, bare, failures, ratio, cpu, rounds } = await appAgainstBare({
    target,
    label,
    appPath: pathname,
    barePath: `/bare${pathname}`,
    headers,
    connections: CONNECTIONS,
  });
  rows.push(
    row({
      bench: BENCH,
      name: `GET ${label} (server-rendered, from cache): req/s`,
      measured: fmt.rps(app.rps),
      baseline: fmt.rps(bare.rps),
      ratio,
      bar: `ratio >= ${RATIO_BAR}`,
      status: verdict(ratio >= RATIO_BAR && failures.length === 0),
      note:
        `${fmt.kb(capture.bytes)} on the wire; ${rounds}; server CPU per request: app ${Math.round(cpu.app)} us, ` +
        `bare ${Math.round(cpu.bare)} us${failures.length ? `; failures: ${failures.join("; ")}` : ""}`,
    }),
    row({
      bench: BENCH,
      name: `GET ${label}: p99 @${CONNECTIONS}`,
      measured: fmt.ms(app.p99),
      baseline: fmt.ms(bare.p99),
      ratio: bare.p99 > 0 ? app.p99 / bare.p99 : null,
      bar: `< ${P99_BAR_MS} ms`,
      status: verdict(app.p99 < P99_BAR_MS),
    }),
  );
}

/** A price changed behind the app's back (as another instance would) shows on the page's next request. */
async function freshness(target, databaseUrl, product) {
  const pg = await importPg();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const pathname = `/products/${product.slug}`;
    await (await fetch(`${target.appUrl}${pathname}`)).text();
    await client.query("update products set price_cents = 123456 where id = $1", [product.id]);
    await target.catalogChanged();
    const started = performance.now();
    const html = await (await fetch(`${target.appUrl}${pathname}`)).text();
    const renderMs = performance.now() - started;
    const fresh = html.includes('"price":"1234.56"') && html.includes("R1,234.56");
    rows.push(
      row({
        bench: BENCH,
        name: "a catalogue change renders the product page again",
        measured: fresh ? "fresh" : "stale",
        bar: "fresh",
        status: verdict(fresh),
        note: `render after the change (cache miss): ${fmt.ms(renderMs)}`,
      }),
    );
  } finally {
    await client.end();
  }
}

await main(
  async () => {
    const database = await startDatabase("pages");
    const target = await startTarget({ databaseUrl: database.url, label: "pages" });
    const products = await (await fetch(`${target.appUrl}/api/products`)).json();
    const product = products.find((candidate) => !candidate.outOfStock);
    if (!product) throw new Error("no product in stock");
    await compare(target, "/", "/");
    await compare(target, "/products/{slug}", `/products/${product.slug}`);
    await freshness(target, database.url, product);
    emit(rows);
  },
  async (error) => {
    rows.push(
      row({
        bench: BENCH,
        name: "rendered pages",
        measured: "error",
        bar: "runs",
        status: "fail",
        note: String(error?.message ?? error),
      }),
    );
    emit(rows);
  },
);
