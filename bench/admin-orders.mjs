#!/usr/bin/env node
// 9. Admin at 200,000 orders: the admin's order list, its searches and the CSV export, measured
// on a shop with about 1,000 orders and on one with 200,000 (the same 1,000 plus two years more
// from `npm run seed:orders`'s generator), seeded in the same run and measured alternately. Each
// route's p95 at 200,000 must stay within 2x of its p95 at 1,000, and the export's memory flat:
// the server's RSS is sampled while it streams every order, at both sizes.
//
// The month exported is the last 30 days, which the large shop's extra two years end before: the
// same orders at both sizes, so the comparison shows what the other 199,000 rows cost (a scan
// would grow 200-fold; an index range does not). A busy month of the large shop is exported too,
// and printed, for its throughput.
import { fromDist, importPg, log, main, onCleanup, peakRssOf, rssOf, sleep, startDatabase } from "./lib/harness.mjs";
import { emit, fmt, row, verdict } from "./lib/report.mjs";
import { startTarget } from "./lib/target-client.mjs";

const BENCH = "admin orders";
const SMALL = 1_000;
const LARGE = 200_000;
const WORKERS = 2;
const ROUNDS = 3;
const RATIO_BAR = 2;
/**
 * A streamed export holds a batch of rows, plus garbage the collector has not reclaimed yet; loading
 * the 200,000 rows and their CSV at once grew a process's RSS by about 260 MB (measured while
 * writing decision 010). Measured as how far the export raises the server's peak RSS (VmHWM) above
 * the peak its earlier requests reached, what a container's memory limit has to allow for; not over
 * the RSS just before, which moves with how far V8 has shrunk an idle heap (decision 010 has the readings).
 */
const RSS_GROWTH_BAR_MB = 64;
const DAY_MS = 86_400_000;
const rows = [];

/**
 * What is measured at each size: a name and the path (from the probes found in the data). The
 * Dashboard's row (issue 15) joins this list: { name: "dashboard", path: () => "/api/admin/dashboard" }.
 */
const ROUTES = [
  { name: "order list, first page", path: () => "/api/admin/orders", requests: 150 },
  {
    name: "order list, page 20 (by cursor)",
    path: (probe) => `/api/admin/orders?cursor=${probe.deepCursor}`,
    requests: 150,
  },
  {
    name: "search by e-mail fragment",
    path: (probe) => `/api/admin/orders?q=${encodeURIComponent(probe.emailFragment)}`,
    requests: 150,
  },
  { name: "search by order number", path: (probe) => `/api/admin/orders?q=${probe.number}`, requests: 150 },
  { name: "CSV of a month", path: (probe) => `/api/admin/orders.csv?${probe.month}`, requests: 60 },
  { name: "dashboard", path: () => "/api/admin/dashboard", requests: 150 },
];

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function timed(url, cookie) {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie, "accept-encoding": "gzip, deflate, br" } });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
  return { ms: performance.now() - started, bytes };
}

/** `requests` requests from WORKERS concurrent clients (after a warm-up of 10): p50, p95, bytes. */
async function measure(url, cookie, requests) {
  for (let i = 0; i < 10; i++) await timed(url, cookie);
  const times = [];
  let bytes = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (next++ < requests) {
        const result = await timed(url, cookie);
        times.push(result.ms);
        bytes = result.bytes;
      }
    }),
  );
  return { p50: percentile(times, 50), p95: percentile(times, 95), bytes };
}

/**
 * The server's memory while one export of every order streams: its RSS just before and at its
 * highest (sampled every 10 ms), and its peak RSS since it started (VmHWM) before and after.
 */
async function exportMemory(target, cookie) {
  const priorPeak = await peakRssOf(target.pid);
  const before = await rssOf(target.pid);
  let peak = before;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = Math.max(peak, await rssOf(target.pid));
      await sleep(10);
    }
  })();
  const { ms, bytes } = await timed(`${target.appUrl}/api/admin/orders.csv`, cookie);
  done = true;
  await sampler;
  // The kernel updates VmHWM lazily: a sample can read a little above it.
  const rise = Math.max(await peakRssOf(target.pid), peak) - priorPeak;
  return { before, peak, priorPeak, rise, ms, bytes };
}

async function signInAdmin(appUrl, client) {
  const account = {
    username: "bench-admin",
    email: "bench-admin@example.co.za",
    password: "bench admin password 1",
    fullName: "Bench Admin",
  };
  const post = (path, body) =>
    fetch(`${appUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const registered = await post("/api/auth/register", account);
  if (registered.status !== 201) throw new Error(`register: HTTP ${registered.status}`);
  await client.query("update users set is_admin = true where username = $1", [account.username]);
  const login = await post("/api/auth/login", { username: account.username, password: account.password });
  const sid = login.headers.getSetCookie().find((cookie) => cookie.startsWith("sid="));
  if (!sid) throw new Error(`login: HTTP ${login.status}, no session`);
  return sid.split(";")[0];
}

/** A shop on its own database holding `seeds` (each `{ orders, seed, end }`), with a signed-in admin. */
async function shopWith(label, seeds, seedOrders) {
  const database = await startDatabase(label);
  const pg = await importPg();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  onCleanup(() => client.end());
  let seedSeconds = 0;
  for (const options of seeds) {
    log(`${label}: seeding ${options.orders.toLocaleString("en-US")} orders...`);
    const started = performance.now();
    await seedOrders(client, options);
    seedSeconds += (performance.now() - started) / 1000;
  }
  // A shop with two years of orders is not in the middle of a bulk load: vacuumed and analysed.
  await client.query("vacuum analyze orders, order_items, users");
  const { rows: counted } = await client.query("select count(*)::int as n from orders");
  const target = await startTarget({ databaseUrl: database.url, label });
  const cookie = await signInAdmin(target.appUrl, client);
  return { label, client, target, cookie, orders: counted[0].n, seedSeconds };
}

await main(
  async () => {
    const { seedOrders } = await fromDist("server/cli/seed-orders.js");
    const now = new Date();
    const monthStart = new Date(now.getTime() - 30 * DAY_MS);
    const first = { orders: SMALL, seed: 1, end: now };
    // The same first 1,000 orders (same seed: same ids), then two years ending before the measured month.
    const small = await shopWith("admin-orders-small", [first], seedOrders);
    const large = await shopWith(
      "admin-orders-large",
      [first, { orders: LARGE - SMALL, seed: 2, end: new Date(monthStart.getTime() - DAY_MS) }],
      seedOrders,
    );

    // Probes chosen on the small shop, asked of both.
    const { rows: picked } = await small.client.query(
      "select id::text as id, customer_email from orders order by created_at desc, id desc offset 25 limit 1",
    );
    let deepCursor = null;
    for (let page = 0; page < 19; page++) {
      const query = deepCursor ? `?cursor=${deepCursor}` : "";
      const response = await fetch(`${small.target.appUrl}/api/admin/orders${query}`, {
        headers: { cookie: small.cookie },
      });
      deepCursor = (await response.json()).nextCursor;
    }
    const probe = {
      number: picked[0].id.slice(-8).toUpperCase(),
      emailFragment: picked[0].customer_email.split("@")[0].slice(2),
      month: `from=${monthStart.toISOString()}&to=${now.toISOString()}`,
      // Page 20 of the small shop's 1,000 orders (its last); the same place in time in the large one.
      deepCursor,
    };
    log(`probes: number ${probe.number}, e-mail fragment "${probe.emailFragment}"`);

    // Small and large alternate, ROUNDS times, each keeping its best run: the machine is shared.
    for (const route of ROUTES) {
      const runs = { small: [], large: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const shop of [small, large]) {
          const result = await measure(`${shop.target.appUrl}${route.path(probe)}`, shop.cookie, route.requests);
          runs[shop === small ? "small" : "large"].push(result);
          log(
            `${shop.label} ${route.name}: p50 ${fmt.ms(result.p50)}, p95 ${fmt.ms(result.p95)}, ${fmt.kb(result.bytes)}`,
          );
        }
      }
      const best = (list) => list.reduce((a, b) => (b.p95 < a.p95 ? b : a));
      const [atSmall, atLarge] = [best(runs.small), best(runs.large)];
      const ratio = atLarge.p95 / atSmall.p95;
      rows.push(
        row({
          bench: BENCH,
          name: `${route.name}: p95 at ${large.orders.toLocaleString("en-US")} orders`,
          measured: fmt.ms(atLarge.p95),
          baseline: `${fmt.ms(atSmall.p95)} at ${small.orders.toLocaleString("en-US")}`,
          ratio,
          bar: `ratio <= ${RATIO_BAR}`,
          status: verdict(ratio <= RATIO_BAR),
          note: `p50 ${fmt.ms(atSmall.p50)} -> ${fmt.ms(atLarge.p50)}; ${WORKERS} concurrent clients, best of ${ROUNDS} alternated runs`,
        }),
      );
    }

    const memory = {
      small: await exportMemory(small.target, small.cookie),
      large: await exportMemory(large.target, large.cookie),
    };
    for (const [size, shop] of [
      ["small", small],
      ["large", large],
    ]) {
      const m = memory[size];
      log(
        `${shop.label} export of every order: ${fmt.mb(m.bytes)} in ${fmt.s(m.ms)}, RSS ${fmt.mb(m.before)} -> peak ${fmt.mb(m.peak)}; peak since start ${fmt.mb(m.priorPeak)} -> ${fmt.mb(m.priorPeak + m.rise)}`,
      );
    }
    const { large: big } = memory;
    rows.push(
      row({
        bench: BENCH,
        name: `CSV of every order: rise in the server's peak RSS while streaming ${large.orders.toLocaleString("en-US")}`,
        measured: fmt.mb(big.rise),
        baseline: `${fmt.mb(memory.small.rise)} for ${small.orders.toLocaleString("en-US")}`,
        ratio: null,
        bar: `<= ${RSS_GROWTH_BAR_MB} MB`,
        status: verdict(big.rise <= RSS_GROWTH_BAR_MB * 1024 * 1024),
        note: `${fmt.mb(big.bytes)} of CSV in ${fmt.s(big.ms)}; peak RSS before it ${fmt.mb(big.priorPeak)}; RSS just before ${fmt.mb(big.before)}, at most ${fmt.mb(big.peak)} during it (growth ${fmt.mb(big.peak - big.before)})`,
      }),
    );

    // A busy month of the large shop, for its throughput.
    const busyTo = new Date(monthStart.getTime() - DAY_MS);
    const busyFrom = new Date(busyTo.getTime() - 30 * DAY_MS);
    const { rows: busyCount } = await large.client.query(
      "select count(*)::int as n from orders where created_at >= $1 and created_at < $2",
      [busyFrom, busyTo],
    );
    const busy = await measure(
      `${large.target.appUrl}/api/admin/orders.csv?from=${busyFrom.toISOString()}&to=${busyTo.toISOString()}`,
      large.cookie,
      20,
    );
    rows.push(
      row({
        bench: BENCH,
        name: `CSV of a busy month of the ${large.orders.toLocaleString("en-US")} (${busyCount[0].n.toLocaleString("en-US")} orders)`,
        measured: fmt.ms(busy.p95),
        bar: "printed",
        status: "info",
        note: `p50 ${fmt.ms(busy.p50)}, ${fmt.kb(busy.bytes)} of CSV; seeding the large shop took ${large.seedSeconds.toFixed(1)} s`,
      }),
    );
    emit(rows);
  },
  async (error) => {
    rows.push(
      row({
        bench: BENCH,
        name: "admin orders",
        measured: "error",
        bar: "runs",
        status: "fail",
        note: String(error?.message ?? error),
      }),
    );
    emit(rows);
  },
);
