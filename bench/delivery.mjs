#!/usr/bin/env node
// 14. Checkout with live delivery rates (issue 41, docs/decisions/051): what the checkout page does
// for each shopper, POST /api/delivery/options with the cart, postal code and province (as soon as
// the postal code is typed), then POST /api/create-order with door economy at the price it showed,
// timed end to end. Two instances of the shop on one database, one with DELIVERY_PRICING=live against
// the built-in courier emulator (COURIER_MODE=local: door rates and the nearest locker's rate asked
// at once, kept per cart and address for create-order), one with DELIVERY_PRICING=flat, alternated.
// Bar: live's p95 within 50 ms of flat's.
import { fromDist, importPg, log, main, onCleanup, startDatabase } from "./lib/harness.mjs";
import { emit, fmt, row, verdict } from "./lib/report.mjs";
import { customerHeaders, orderableProducts, orderFor, random, signUpCustomers } from "./lib/shop.mjs";
import { startTarget } from "./lib/target-client.mjs";

const BENCH = "delivery";
const CUSTOMERS = 20;
/** Shoppers checking out at the same moment (BENCH_DELIVERY_CONCURRENCY): two is a busy minute for a nappy shop. */
const CONCURRENCY = Number(process.env.BENCH_DELIVERY_CONCURRENCY ?? 2);
const SECONDS = 6;
const ROUNDS = 5;
const BAR_MS = 50;
const PLENTY = 1_000_000;
const rows = [];

/**
 * Every checkout asks for a cart and postal code no earlier checkout asked for, so each options
 * request is a real quote (the server keeps quotes 5 minutes): the n-th checkout's postal code is
 * the n-th of 9,998 codes in a scrambled order (7,919 is prime, so none repeats), across metro,
 * regional and outlying zones.
 */
const postalCode = (n) => String(1 + ((n * 7_919) % 9_998)).padStart(4, "0");

async function restock(pool) {
  await pool.query("update product_stock set quantity = $1, held = 0", [PLENTY]);
}

/** One shopper's checkout: the options, then the order at the option's price. Times in ms. */
async function checkout(appUrl, shopper, n, expectSource) {
  const zipCode = postalCode(n);
  const items = shopper.order.lines.map((line) => ({ id: line.id, size: line.size, quantity: line.quantity }));
  const started = performance.now();
  const asked = await fetch(`${appUrl}/api/delivery/options`, {
    method: "POST",
    headers: { "content-type": "application/json", ...shopper.headers },
    body: JSON.stringify({ items, destination: { zipCode, province: "Gauteng" } }),
  });
  const answer = await asked.json();
  const optionsMs = performance.now() - started;
  if (asked.status !== 200) throw new Error(`options ${zipCode}: ${asked.status} ${JSON.stringify(answer)}`);
  const economy = answer.options.find((option) => option.service === "door_economy");
  if (economy?.source !== expectSource) {
    throw new Error(`options ${zipCode}: door economy priced "${economy?.source}", expected "${expectSource}"`);
  }
  const feeCents = Math.round(Number(economy.charge) * 100);
  const { body, totals } = shopper.order;
  const order = {
    ...body,
    deliveryFee: feeCents / 100,
    total: (totals.totalCents - totals.deliveryFeeCents + feeCents) / 100,
    deliveryInfo: { ...body.deliveryInfo, city: "Somewhere", province: "Gauteng", zipCode },
    delivery: { service: "door_economy" },
  };
  const placedAt = performance.now();
  const placed = await fetch(`${appUrl}/api/create-order`, {
    method: "POST",
    headers: { "content-type": "application/json", ...shopper.headers },
    body: JSON.stringify(order),
  });
  const placedAnswer = await placed.json();
  const ended = performance.now();
  if (placed.status !== 200 || !placedAnswer.orderId) {
    throw new Error(`create-order ${zipCode}: ${placed.status} ${JSON.stringify(placedAnswer).slice(0, 300)}`);
  }
  return { totalMs: ended - started, optionsMs, orderMs: ended - placedAt };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
};

/** CONCURRENCY shoppers checking out one after another for `seconds`; the timings of each checkout. */
async function run(target, shoppers, counter, expectSource, seconds) {
  const timings = [];
  const until = performance.now() + seconds * 1_000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const n = counter.next++;
        timings.push(await checkout(target.appUrl, shoppers[n % shoppers.length], n, expectSource));
      }
    }),
  );
  const of = (key) => timings.map((timing) => timing[key]);
  return {
    count: timings.length,
    perSecond: timings.length / seconds,
    p50: percentile(of("totalMs"), 0.5),
    p95: percentile(of("totalMs"), 0.95),
    optionsP95: percentile(of("optionsMs"), 0.95),
    orderP95: percentile(of("orderMs"), 0.95),
  };
}

await main(
  async () => {
    const database = await startDatabase("delivery");
    // 20 shoppers place a few hundred orders each in a minute: the order limits are raised far above
    // that, as in the orders benchmark (every check runs, none refuses).
    const env = {
      AUTH_RATE_LIMIT_PER_MINUTE: "100000",
      TRUST_PROXY: "127.0.0.1",
      UNPAID_ORDERS_PER_ACCOUNT: "100000",
      UNPAID_ORDERS_PER_ADDRESS: "100000",
      ORDER_RATE_LIMIT_PER_MINUTE: "1000000",
      COURIER_MODE: "local",
    };
    const flat = await startTarget({
      databaseUrl: database.url,
      env: { ...env, DELIVERY_PRICING: "flat" },
      label: "delivery-flat",
    });
    const live = await startTarget({
      databaseUrl: database.url,
      env: { ...env, DELIVERY_PRICING: "live" },
      label: "delivery-live",
    });
    const pg = await importPg();
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    onCleanup(() => pool.end());
    await restock(pool);
    await Promise.all([flat.catalogChanged(), live.catalogChanged()]);

    log(`signing up ${CUSTOMERS} customers...`);
    const customers = await signUpCustomers(flat.appUrl, CUSTOMERS, { prefix: "bench-delivery" });
    const products = await orderableProducts(flat.appUrl);
    const rng = random(41);
    const shoppers = [];
    for (const customer of customers) {
      // One or two lines of one or two units: a parcel that also fits a locker, so its rate is asked too.
      const lines = [];
      for (let i = 0; i < 1 + Math.floor(rng() * 2); i++) {
        const product = products[Math.floor(rng() * products.length)];
        const size = product.sizes[Math.floor(rng() * product.sizes.length)];
        if (!lines.some((line) => line.id === product.id && line.size === size)) {
          lines.push({ ...product, size, quantity: 1 + Math.floor(rng() * 2) });
        }
      }
      shoppers.push({ order: await orderFor(customer, lines), headers: customerHeaders(customer) });
    }
    const { loadConfig } = await fromDist("server/platform/config.js");
    const timeoutMs = loadConfig({}).courier.timeoutMs;

    const counter = { next: 0 };
    // Warm both (the directory of lockers is read once a day, then kept).
    await run(flat, shoppers, counter, "flat", 2);
    await run(live, shoppers, counter, "live", 2);
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      await restock(pool);
      const flatRun = await run(flat, shoppers, counter, "flat", SECONDS);
      const liveRun = await run(live, shoppers, counter, "live", SECONDS);
      log(
        `round ${round + 1}: flat p95 ${fmt.ms(flatRun.p95)} (${flatRun.count} checkouts), live p95 ${fmt.ms(liveRun.p95)} (${liveRun.count}); ` +
          `options p95 flat ${fmt.ms(flatRun.optionsP95)}, live ${fmt.ms(liveRun.optionsP95)}; ` +
          `create-order p95 flat ${fmt.ms(flatRun.orderP95)}, live ${fmt.ms(liveRun.orderP95)}`,
      );
      rounds.push({ flat: flatRun, live: liveRun, difference: liveRun.p95 - flatRun.p95 });
    }
    // This machine's speed swings within minutes: each live run is paired with the flat run just
    // before it, and the row is the round with the median difference.
    const median = [...rounds].sort((a, b) => a.difference - b.difference)[Math.floor(rounds.length / 2)];
    rows.push(
      row({
        bench: BENCH,
        name: `checkout (options + create-order): p95 @${CONCURRENCY}, live rates vs flat`,
        measured: fmt.ms(median.live.p95),
        baseline: fmt.ms(median.flat.p95),
        ratio: median.flat.p95 > 0 ? median.live.p95 / median.flat.p95 : null,
        bar: `live - flat <= ${BAR_MS} ms`,
        status: verdict(median.difference <= BAR_MS),
        note:
          `median of ${ROUNDS} rounds' differences (${rounds.map((r) => `${r.difference >= 0 ? "+" : ""}${r.difference.toFixed(1)}`).join(", ")} ms); ` +
          `every checkout a new cart and postal code (a real quote, none from the cache), ${CONCURRENCY} at once for ${SECONDS} s; ` +
          `live: ShipLogic door rates and the nearest TCG locker's rate from the emulator, within COURIER_TIMEOUT_MS ${timeoutMs}`,
      }),
      row({
        bench: BENCH,
        name: "POST /api/delivery/options: p95, live vs flat",
        measured: fmt.ms(median.live.optionsP95),
        baseline: fmt.ms(median.flat.optionsP95),
        ratio: median.flat.optionsP95 > 0 ? median.live.optionsP95 / median.flat.optionsP95 : null,
        status: "info",
      }),
      row({
        bench: BENCH,
        name: "POST /api/create-order: p95, live vs flat",
        measured: fmt.ms(median.live.orderP95),
        baseline: fmt.ms(median.flat.orderP95),
        ratio: median.flat.orderP95 > 0 ? median.live.orderP95 / median.flat.orderP95 : null,
        status: "info",
        note: "live's create-order prices from the quote the options request kept (same cart, postal code, province)",
      }),
      row({
        bench: BENCH,
        name: "checkouts per second, live vs flat",
        measured: fmt.rps(median.live.perSecond),
        baseline: fmt.rps(median.flat.perSecond),
        ratio: median.flat.perSecond > 0 ? median.live.perSecond / median.flat.perSecond : null,
        bar: "every checkout 200, priced live / flat",
        status: "pass",
        note: "a refusal, an error or a live quote that fell back to the flat price stops the benchmark with a failed row",
      }),
    );
    emit(rows);
  },
  async (error) => {
    rows.push(
      row({
        bench: BENCH,
        name: "checkout with live rates",
        measured: "error",
        bar: "runs",
        status: "fail",
        note: String(error?.message ?? error),
      }),
    );
    emit(rows);
  },
);
