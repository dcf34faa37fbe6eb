#!/usr/bin/env node
// 2. Order creation: POST /api/create-order with valid carts from 50 logged-in customers at 32
// connections, versus a baseline that does the same work in one raw transaction through the same
// `pg` driver (holds every line's units if all of them are there, inserts the order and its lines),
// at the same concurrency over a pool of the app's size. Also counts the SQL statements each order
// costs the app. Every size is given far more stock than the run can sell, so the benchmark
// measures orders, not refusals (stock running out is bench/stock.mjs's subject).
import { randomUUID } from "node:crypto";
import { fromDist, importPg, log, main, onCleanup, sleep, startDatabase } from "./lib/harness.mjs";
import { failuresOf, load } from "./lib/load.mjs";
import { emit, fmt, row, verdict } from "./lib/report.mjs";
import { cartOrder, customerHeaders, orderableProducts, random, signUpCustomers } from "./lib/shop.mjs";
import { startTarget } from "./lib/target-client.mjs";

const BENCH = "orders";
const CUSTOMERS = 50;
const CONNECTIONS = 32;
const SECONDS = 6;
const RATIO_BAR = 0.5;
const P99_BAR_MS = 100;
// What the design needs (place-order.ts): the session, the rate limit's count (auth/rate-limit.ts),
// the cart's products, then one statement that locks the holder's and the stock rows, checks the
// caps and the stock, and writes the holds, the order and its lines.
const STATEMENTS_BAR = 4;
/** Units per size before each run: a run's ~10,000 orders of ~5 units over 79 sizes never come near it. */
const PLENTY = 1_000_000;
/** The baseline's statements per order: begin, the hold, the order, its lines, commit. */
const BASELINE_STATEMENTS = 5;
const rows = [];

/** The app under autocannon: every request is the next customer's cart, with that customer's cookie. */
async function appRun(target, carts) {
  let next = 0;
  let before = null;
  const summary = await load({
    label: "app POST /api/create-order",
    url: target.appUrl,
    connections: CONNECTIONS,
    durationSeconds: SECONDS,
    requests: [
      {
        method: "POST",
        path: "/api/create-order",
        setupRequest: (request) => {
          const cart = carts[next++ % carts.length];
          request.headers = { ...request.headers, "content-type": "application/json", ...cart.headers };
          request.body = cart.json;
          return request;
        },
      },
    ],
    beforeMeasure: async () => {
      await target.reset();
      before = await target.stats();
    },
  });
  const stats = await target.stats();
  const cpuPerOrder = (stats.cpuMicros - before.cpuMicros) / Math.max(summary.total, 1);
  log(
    `  server: ${Math.round(cpuPerOrder)} us CPU per order; pool waiting avg ${stats.poolWaitingAvg.toFixed(1)}, max ${stats.poolWaitingMax}; event loop delay mean ${stats.loopDelayMeanMs.toFixed(1)} ms, p99 ${stats.loopDelayP99Ms.toFixed(1)} ms`,
  );
  for (const entry of stats.byText.slice(0, 4)) {
    log(`  ${entry.count} x ${(entry.ms / entry.count).toFixed(1)} ms  ${entry.text.slice(0, 100)}`);
  }
  return { summary, cpuPerOrder };
}

/**
 * Exactly how many statements one order costs: `count` orders one after another (nothing else
 * runs), counted by the server's wrapped `pg` client.
 */
async function statementsPerOrder(target, carts, count = 20) {
  // Requests autocannon left in flight finish first, so none of their statements is counted; the
  // jobs' statements (pg-boss's polls, a job's run) are set apart by the server.
  await sleep(1_000);
  await target.reset({ requestsOnly: true });
  for (let i = 0; i < count; i++) {
    const cart = carts[(i * 7) % carts.length];
    const response = await fetch(`${target.appUrl}/api/create-order`, {
      method: "POST",
      headers: { "content-type": "application/json", ...cart.headers },
      body: cart.json,
    });
    const text = await response.text();
    if (response.status !== 200) {
      throw new Error(`POST /api/create-order answered ${response.status}: ${text.slice(0, 300)}`);
    }
  }
  const stats = await target.stats();
  await target.reset();
  return {
    perOrder: stats.statements / count,
    background: stats.background.statements,
    kinds: Object.entries(stats.byKind)
      .map(([kind, n]) => `${kind} ${(n / count).toFixed(2)}`)
      .join(", "),
  };
}

/**
 * Gives every size PLENTY units and no holds, so each round starts from the same stock. The rows
 * are locked in the order create-order locks them, so that an order still in flight from the
 * last run waits instead of deadlocking.
 */
async function restock(pool) {
  const client = await pool.connect();
  try {
    await client.query("begin");
    await client.query("select from product_stock order by product_id, size for update");
    await client.query("update product_stock set quantity = $1, held = 0", [PLENTY]);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The baseline's hold: every line's units in one statement, only where that many are left. The
 * subquery locks the rows in (product_id, size) order, the order every writer of stock uses, so
 * concurrent orders wait for each other instead of deadlocking; the update then holds each line
 * that still fits, and fewer rows than lines means the order is short.
 */
const HOLD_STOCK = `
  update product_stock set held = product_stock.held + line.quantity
  from (
    select locked.product_id, locked.size, wanted.quantity
    from product_stock locked
    join unnest($1::uuid[], $2::text[], $3::int[]) as wanted(product_id, size, quantity) using (product_id, size)
    order by locked.product_id, locked.size
    for update of locked
  ) line
  where product_stock.product_id = line.product_id and product_stock.size = line.size
    and product_stock.quantity - product_stock.held >= line.quantity`;

/**
 * The same orders written by hand, from 32 workers: BEGIN, hold the stock (ROLLBACK when a line
 * is short), INSERT the order, INSERT its lines, COMMIT.
 */
async function baselineRun(pool, carts, seconds) {
  let next = 0;
  const latencies = [];
  let errors = 0;
  let short = 0;
  const insertOne = async () => {
    const cart = carts[next++ % carts.length];
    const started = performance.now();
    const client = await pool.connect();
    try {
      await client.query("begin");
      const held = await client.query(HOLD_STOCK, [
        cart.lines.map((line) => line.id),
        cart.lines.map((line) => line.size),
        cart.lines.map((line) => line.quantity),
      ]);
      if (held.rowCount < cart.lines.length) {
        short += 1;
        throw new Error(`short: ${held.rowCount} of ${cart.lines.length} lines held`);
      }
      const id = randomUUID();
      const info = cart.body.deliveryInfo;
      await client.query(
        `insert into orders (id, user_id, status, subtotal_cents, delivery_fee_cents, total_cents, customer_email,
           delivery_name, delivery_phone, delivery_address, delivery_city, delivery_province, delivery_zip_code,
           delivery_vat_rate_bp, multibuy_discount_cents)
         values ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, vat_rate('standard', current_date), $13)`,
        [
          id,
          cart.customerId,
          cart.totals.subtotalCents,
          cart.totals.deliveryFeeCents,
          cart.totals.totalCents,
          cart.body.customerEmail,
          info.name,
          info.phone,
          info.address,
          info.city,
          info.province,
          info.zipCode,
          cart.totals.multibuyDiscountCents,
        ],
      );
      const values = [];
      const params = [];
      cart.lines.forEach((line, position) => {
        const at = params.length;
        values.push(
          `($${at + 1}::uuid, $${at + 2}::uuid, $${at + 3}::int, $${at + 4}::text, $${at + 5}::text, $${at + 6}::int, $${at + 7}::int, $${at + 8}::int)`,
        );
        params.push(
          id,
          line.id,
          position,
          line.name,
          line.size,
          line.quantity,
          line.unitPriceCents,
          line.multibuyDiscountCents,
        );
      });
      await client.query(
        `insert into order_items (order_id, product_id, position, name, size, quantity, unit_price_cents,
           multibuy_discount_cents, vat_class, vat_rate_bp)
         select line.*, products.vat_class, vat_rate(products.vat_class, current_date)
         from (values ${values.join(", ")}) as line(order_id, product_id, position, name, size, quantity, unit_price_cents,
           multibuy_discount_cents)
         join products on products.id = line.product_id`,
        params,
      );
      await client.query("commit");
    } catch (error) {
      errors += 1;
      await client.query("rollback").catch(() => {});
      if (errors === 1) log(`baseline insert failed: ${error.message}`);
    } finally {
      client.release();
    }
    latencies.push(performance.now() - started);
  };
  const runFor = async (ms) => {
    const until = performance.now() + ms;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < until) await insertOne();
      }),
    );
  };
  await runFor(1_000);
  latencies.length = 0;
  errors = 0;
  short = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await runFor(seconds * 1_000);
  const elapsed = (performance.now() - started) / 1_000;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0;
  const cpuPerOrder = (cpu.user + cpu.system) / Math.max(latencies.length, 1);
  const summary = { rps: latencies.length / elapsed, p99, total: latencies.length, errors, short, cpuPerOrder };
  log(
    `baseline raw transaction: ${Math.round(summary.rps)} orders/s, p99 ${p99.toFixed(1)} ms, errors ${errors} (short ${short}); ` +
      `${Math.round(cpuPerOrder)} us CPU per order in this process`,
  );
  return summary;
}

await main(
  async () => {
    const database = await startDatabase("orders");
    // Signing up 50 customers from one address needs more than the default 10 attempts a minute.
    // Each customer places ~400 orders in a few seconds here, so the order limits are raised far
    // above that: their checks (the rate limit's count, the caps' row locks and counters) all run
    // and are measured, and none refuses (docs/decisions/020-abuse-limits.md).
    const target = await startTarget({
      databaseUrl: database.url,
      env: {
        AUTH_RATE_LIMIT_PER_MINUTE: "100000",
        TRUST_PROXY: "127.0.0.1",
        UNPAID_ORDERS_PER_ACCOUNT: "100000",
        UNPAID_ORDERS_PER_ADDRESS: "100000",
        ORDER_RATE_LIMIT_PER_MINUTE: "1000000",
      },
      label: "orders",
    });
    log(`signing up ${CUSTOMERS} customers...`);
    const customers = await signUpCustomers(target.appUrl, CUSTOMERS);
    const { loadConfig } = await fromDist("server/platform/config.js");
    const poolSize = loadConfig({}).dbPoolSize;
    const pg = await importPg();
    const pool = new pg.Pool({ connectionString: database.url, max: poolSize });
    onCleanup(() => pool.end());
    // Sold-out and low sizes too: every size of the catalogue can be ordered.
    await restock(pool);
    await target.catalogChanged();
    const products = await orderableProducts(target.appUrl);
    const rng = random(7);
    const carts = [];
    for (const customer of customers) {
      for (let i = 0; i < 4; i++) {
        const order = await cartOrder(customer, products, rng);
        carts.push({
          ...order,
          customerId: customer.id,
          headers: customerHeaders(customer),
          json: JSON.stringify(order.body),
        });
      }
    }
    // Every cart ordered once by hand first: each a 200 with the PayFast form, or the benchmark would
    // measure refusals (a cart priced otherwise than the checkout prices it is refused CART_CHANGED).
    for (const [index, cart] of carts.entries()) {
      const probe = await fetch(`${target.appUrl}/api/create-order`, {
        method: "POST",
        headers: { "content-type": "application/json", ...cart.headers },
        body: cart.json,
      });
      const answer = await probe.json();
      if (probe.status !== 200 || !answer.orderId || !answer.payfastData?.signature) {
        throw new Error(
          `POST /api/create-order of cart ${index} answered ${probe.status}: ${JSON.stringify(answer).slice(0, 300)}`,
        );
      }
    }

    const apps = [];
    const baselines = [];
    for (let round = 0; round < 2; round++) {
      await restock(pool);
      baselines.push(await baselineRun(pool, carts, SECONDS));
      await restock(pool);
      apps.push(await appRun(target, carts));
    }
    const statements = await statementsPerOrder(target, carts);
    const app = apps.reduce((a, b) => (b.summary.rps > a.summary.rps ? b : a));
    const baseline = baselines.reduce((a, b) => (b.rps > a.rps ? b : a));
    const failures = apps.map((run) => failuresOf(run.summary)).filter(Boolean);
    const ratio = app.summary.rps / baseline.rps;
    const { perOrder, kinds, background } = statements;
    rows.push(
      row({
        bench: BENCH,
        name: `POST /api/create-order: orders/s @${CONNECTIONS}`,
        measured: fmt.rps(app.summary.rps),
        baseline: fmt.rps(baseline.rps),
        ratio,
        bar: `ratio >= ${RATIO_BAR}`,
        status: verdict(ratio >= RATIO_BAR),
        note:
          `baseline: raw BEGIN / UPDATE product_stock holding every line where that many are left (ROLLBACK when short) / ` +
          `INSERT order / INSERT lines / COMMIT through pg, pool of ${poolSize}; ` +
          `CPU per order: app server ${Math.round(app.cpuPerOrder)} us, baseline process ${Math.round(baseline.cpuPerOrder)} us`,
      }),
      row({
        bench: BENCH,
        name: "POST /api/create-order: p99",
        measured: fmt.ms(app.summary.p99),
        baseline: fmt.ms(baseline.p99),
        ratio: baseline.p99 > 0 ? app.summary.p99 / baseline.p99 : null,
        bar: `< ${P99_BAR_MS} ms`,
        status: verdict(app.summary.p99 < P99_BAR_MS),
      }),
      row({
        bench: BENCH,
        name: "POST /api/create-order: errors, non-2xx",
        measured: failures.length ? failures.join("; ") : "0",
        baseline: String(baselines.reduce((sum, run) => sum + run.errors, 0)),
        bar: "0",
        status: verdict(failures.length === 0),
        note: "every size restocked to plenty before each run: a 409 OUT_OF_STOCK here is a failure",
      }),
      row({
        bench: BENCH,
        name: "SQL statements per order",
        measured: perOrder.toFixed(2),
        baseline: String(BASELINE_STATEMENTS),
        ratio: perOrder / BASELINE_STATEMENTS,
        bar: `<= ${STATEMENTS_BAR}`,
        status: verdict(perOrder <= STATEMENTS_BAR),
        note:
          `by kind: ${kinds}: session, cart's products, lock + check + hold + order + lines in one statement ` +
          `(the bar is what this design needs: bench/README.md); baseline: begin, update, insert, insert, commit; ` +
          `${background} statements of the background jobs meanwhile, not counted`,
      }),
    );
    emit(rows);
  },
  async (error) => {
    rows.push(
      row({
        bench: BENCH,
        name: "order creation",
        measured: "error",
        bar: "runs",
        status: "fail",
        note: String(error?.message ?? error),
      }),
    );
    emit(rows);
  },
);
