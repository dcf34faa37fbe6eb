#!/usr/bin/env node
// 1. Catalogue read: GET /api/products of the real app versus a bare Fastify route in the same
// process that sends the same bytes from memory, at 64 connections, on the seeded catalogue and
// with 2,000 generated products. Also: a revalidation with the ETag is a 304 that reads nothing
// from the database, and a catalogue write makes the next read fresh.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { importPg, log, main, startDatabase } from "./lib/harness.mjs";
import { appAgainstBare, BROWSER_HEADERS, failuresOf, load } from "./lib/load.mjs";
import { emit, fmt, row, verdict } from "./lib/report.mjs";
import { startTarget } from "./lib/target-client.mjs";

const BENCH = "catalogue";
const CONNECTIONS = 64;
const RATIO_BAR = 0.8;
const P99_BAR_MS = 25;
const GENERATED = 2_000;
const rows = [];

function decode(body, encoding) {
  if (encoding === "br") return brotliDecompressSync(body);
  if (encoding === "gzip") return gunzipSync(body);
  return body;
}

/**
 * Adds `count` products spread over the seeded categories, shaped like the seeded ones, with
 * their stock: 50 of each size, but every 50th product sold out, Size 5 of every 7th sold out and
 * Size 1 of every 11th down to 3 (the public sees "Only 3 left").
 */
async function generateProducts(client, count) {
  await client.query(
    `with generated as materialized (
       select n, gen_random_uuid() as id, '["Size 1","Size 2","Size 3","Size 4","Size 5"]'::jsonb as sizes
       from generate_series(1, $1::int) as n
     ), product as (
       insert into products (id, name, category_id, price_cents, image, description, sizes, size_images, promo_text)
       select
         id,
         'Generated pack ' || lpad(n::text, 4, '0'),
         (select id from categories order by name offset (n % 5) limit 1),
         4_999 + (n * 37) % 60_000,
         '/images/products/baby-nappies-value-pack.svg',
         'Soft, breathable and leak-guarded for up to 12 hours. A generated product of the benchmark catalogue, number ' || n || '.',
         sizes,
         case when n % 4 = 0 then '{"Size 3":"/images/products/baby-nappies-value-pack-size-3.svg"}'::jsonb else '{}'::jsonb end,
         case when n % 9 = 0 then 'Buy 2, save R50' end
       from generated
     )
     insert into product_stock (product_id, size, quantity)
     select generated.id, size.name,
       case
         when n % 50 = 0 then 0
         when n % 7 = 0 and size.name = 'Size 5' then 0
         when n % 11 = 0 and size.name = 'Size 1' then 3
         else 50
       end
     from generated cross join lateral jsonb_array_elements_text(generated.sizes) as size(name)`,
    [count],
  );
}

/** Bare route versus the app, alternated five times; the round with the median ratio (lib/load.mjs). */
async function compare(target, label, headers) {
  const capture = await target.capture("/api/products", headers);
  if (capture.status !== 200) throw new Error(`GET /api/products answered ${capture.status}`);
  const encoding = capture.headers["content-encoding"];
  const products = JSON.parse(decode(Buffer.from(await bytesOf(target, headers)), encoding).toString("utf8"));
  log(
    `${label}: ${products.length} products, ${fmt.kb(capture.bytes)} on the wire (${encoding ?? "identity"}), ` +
      `${fmt.kb(JSON.stringify(products).length)} of JSON`,
  );
  const { app, bare, failures, ratio, cpu, rounds } = await appAgainstBare({
    target,
    label,
    appPath: "/api/products",
    barePath: "/bare/api/products",
    headers,
    connections: CONNECTIONS,
  });
  const cpuNote = `${rounds}; server CPU per request: app ${Math.round(cpu.app)} us, bare ${Math.round(cpu.bare)} us`;
  rows.push(
    row({
      bench: BENCH,
      name: `GET /api/products, ${label}: req/s`,
      measured: fmt.rps(app.rps),
      baseline: fmt.rps(bare.rps),
      ratio,
      bar: `ratio >= ${RATIO_BAR}`,
      status: verdict(ratio >= RATIO_BAR && failures.length === 0),
      note: `${cpuNote}${failures.length ? `; failures: ${failures.join("; ")}` : ""}`,
    }),
    row({
      bench: BENCH,
      name: `GET /api/products, ${label}: p99 @${CONNECTIONS}`,
      measured: fmt.ms(app.p99),
      baseline: fmt.ms(bare.p99),
      ratio: bare.p99 > 0 ? app.p99 / bare.p99 : null,
      bar: `< ${P99_BAR_MS} ms`,
      status: verdict(app.p99 < P99_BAR_MS),
    }),
  );
  return products;
}

/** The raw body the bare route serves (what the app sent). */
async function bytesOf(target, headers) {
  const http = await import("node:http");
  const url = new URL(`${target.bareUrl}/bare/api/products`);
  return new Promise((resolve, reject) => {
    http
      .get({ host: url.hostname, port: url.port, path: url.pathname, headers }, (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => resolve(Buffer.concat(chunks)));
      })
      .on("error", reject);
  });
}

/** A burst of revalidations: all 304, and not one statement reaches PostgreSQL. */
async function revalidation(target, headers) {
  const first = await fetch(`${target.appUrl}/api/products`, { headers });
  await first.arrayBuffer();
  const etag = first.headers.get("etag");
  if (!etag) throw new Error("GET /api/products sent no ETag");
  // Only what the requests send counts: the background jobs' statements are set apart.
  await target.reset({ requestsOnly: true });
  const burst = await load({
    label: "revalidation (If-None-Match)",
    url: `${target.appUrl}/api/products`,
    connections: CONNECTIONS,
    headers: { ...headers, "if-none-match": etag },
    amount: 5_000,
    warmupSeconds: 0,
  });
  const stats = await target.stats();
  await target.reset();
  const only304 = failuresOf(burst, [304]) === "" && (burst.statusCodes["304"]?.count ?? 0) === burst.total;
  rows.push(
    row({
      bench: BENCH,
      name: "If-None-Match revalidation: SQL statements",
      measured: `${stats.statements} in ${burst.total.toLocaleString("en-US")} req`,
      baseline: "",
      bar: "0, all 304",
      status: verdict(stats.statements === 0 && only304),
      note:
        `${only304 ? `${fmt.rps(burst.rps)}, p99 ${fmt.ms(burst.p99)}` : `not all 304: ${failuresOf(burst)}`}; ` +
        `${stats.background.statements} statements of the background jobs meanwhile, not counted`,
    }),
  );
  return etag;
}

/** After a catalogue write, the next read (even one revalidating the old ETag) shows it. */
async function freshness(target, databaseUrl, headers) {
  const checks = [];
  const pg = await importPg();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const read = async (etag) => {
      const response = await fetch(`${target.appUrl}/api/products`, {
        headers: { ...headers, ...(etag ? { "if-none-match": etag } : {}) },
      });
      const text = await response.text();
      return {
        status: response.status,
        etag: response.headers.get("etag"),
        names: text ? JSON.parse(text).map((p) => p.name) : [],
      };
    };

    // (a) through the admin API, as an admin would.
    const admin = await adminSession(target, client);
    let before = await read();
    if (admin) {
      const response = await fetch(`${target.appUrl}/api/admin/products`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: admin },
        body: JSON.stringify({
          name: "Bench fresh product A",
          category: "baby",
          price: "99.99",
          image: "/images/products/baby-nappies-value-pack.svg",
          description: "Made by the benchmark",
          sizes: "Size 1, Size 2",
          stock: { "Size 1": 20, "Size 2": 20 },
        }),
      });
      await response.arrayBuffer();
      const after = await read(before.etag);
      checks.push({
        how: "POST /api/admin/products",
        ok: response.status === 201 && after.status === 200 && after.names.includes("Bench fresh product A"),
        detail: `write ${response.status}, next read ${after.status}`,
      });
    } else {
      checks.push({ how: "POST /api/admin/products", ok: null, detail: "no admin login available yet" });
    }

    // (b) another instance's write: a row changed behind this instance's back, then NOTIFY.
    before = await read();
    await client.query(
      `insert into products (name, category_id, price_cents, image, sizes)
       select 'Bench fresh product B', id, 1234, '/images/products/baby-nappies-value-pack.svg', '["One size"]'::jsonb
       from categories where name = 'extras'`,
    );
    await client.query(`select pg_notify('catalog_changed', '')`);
    let after = null;
    const started = performance.now();
    while (performance.now() - started < 2_000) {
      after = await read(before.etag);
      if (after.status === 200 && after.names.includes("Bench fresh product B")) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const waited = performance.now() - started;
    checks.push({
      how: "another instance's write (NOTIFY)",
      ok: after?.status === 200 && after.names.includes("Bench fresh product B"),
      detail: `seen after ${fmt.ms(waited)}`,
    });
  } finally {
    await client.end();
  }
  const decided = checks.filter((check) => check.ok !== null);
  rows.push(
    row({
      bench: BENCH,
      name: "a catalogue write makes the next read fresh",
      measured: checks
        .map((check) => `${check.how}: ${check.ok === null ? "n/a" : check.ok ? "fresh" : "STALE"}`)
        .join("; "),
      baseline: "",
      bar: "fresh",
      status: verdict(decided.length > 0 && decided.every((check) => check.ok)),
      note: checks.map((check) => `${check.how}: ${check.detail}`).join("; "),
    }),
  );
}

/** An admin's session cookie (the admin is made directly in the database), or null without the accounts API. */
async function adminSession(target, client) {
  let hashPassword;
  try {
    ({ hashPassword } = await import(new URL("../dist/server/auth/passwords.js", import.meta.url).href));
  } catch {
    return null;
  }
  const password = "bench-admin-password";
  await client.query(
    `insert into users (username, email, password_hash, full_name, is_admin)
     values ('bench-admin', 'bench-admin@example.co.za', $1, 'Bench Admin', true)
     on conflict do nothing`,
    [await hashPassword(password)],
  );
  const response = await fetch(`${target.appUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "bench-admin", password }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) return null;
  const sid = response.headers.getSetCookie().find((cookie) => cookie.startsWith("sid="));
  return sid ? sid.split(";")[0] : null;
}

await main(
  async () => {
    const database = await startDatabase("catalog");
    const target = await startTarget({ databaseUrl: database.url, label: "catalog" });
    const headers = { ...BROWSER_HEADERS, accept: "application/json" };

    const seeded = await compare(target, "seeded", headers);
    await revalidation(target, headers);
    await freshness(target, database.url, headers);

    const pg = await importPg();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await generateProducts(client, GENERATED);
    } finally {
      await client.end();
    }
    await target.catalogChanged();
    const large = await compare(target, `+${GENERATED.toLocaleString("en-US")} generated`, headers);
    if (large.length < seeded.length + GENERATED)
      throw new Error(`expected ${seeded.length + GENERATED} products, got ${large.length}`);
    // The generated stock reached the answer: one sold out, one with few left.
    const generated = (n) => large.find((product) => product.name === `Generated pack ${String(n).padStart(4, "0")}`);
    if (!generated(50)?.outOfStock || generated(11)?.sizeLowStock?.["Size 1"] !== 3)
      throw new Error("the generated products' stock is not what GET /api/products shows");
    emit(rows);
  },
  async (error) => {
    rows.push(
      row({
        bench: BENCH,
        name: "catalogue read",
        measured: "error",
        bar: "runs",
        status: "fail",
        note: String(error?.message ?? error),
      }),
    );
    emit(rows);
  },
);
