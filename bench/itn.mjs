#!/usr/bin/env node
// 3. Payment notification: valid, signed COMPLETE ITNs for distinct pending orders through
// POST /api/payfast/notify, with the server confirmation answered locally by the built-in PayFast
// emulator (local mode, as in development), versus the same number of POSTs of the same bodies to
// a trivial route of a bare Fastify instance in a process of its own (bench/lib/bare.mjs). The
// orders hold their stock as create-order leaves them, so each payment also turns a hold into a
// sale. No bar on speed; it must be error-free, and every order must end up paid with its stock
// sold.
import { createHash, randomUUID } from "node:crypto";
import { fromDist, importPg, log, main, onCleanup, startDatabase } from "./lib/harness.mjs";
import { failuresOf, load } from "./lib/load.mjs";
import { emit, fmt, row, verdict } from "./lib/report.mjs";
import { startTarget } from "./lib/target-client.mjs";

const BENCH = "payment notification";
const CONNECTIONS = 32;
const WARMUP_ITNS = 200;
const MEASURED_ITNS = 1_000;
/** Units per size: the orders' holds never come near it. */
const PLENTY = 1_000_000;
const rows = [];

/**
 * `count` pending orders of one customer, inserted directly as create-order leaves them: one line
 * each, its unit held (spread over every size, each given plenty first, so that paying turns a
 * hold into a sale as it does in the shop). Returns [{ id, totalCents }].
 */
async function pendingOrders(client, count) {
  const { rows: users } = await client.query(
    `insert into users (username, email, password_hash, full_name)
     values ('bench-itn-' || $1::text, 'bench-itn-' || $1::text || '@example.co.za', 'x', 'Lerato Payer')
     returning id`,
    [randomUUID().slice(0, 8)],
  );
  await client.query("begin");
  try {
    await client.query("update product_stock set quantity = greatest(quantity, $1)", [PLENTY]);
    const { rows: orders } = await client.query(
      `with size as (
         select row_number() over (order by product_id, size) - 1 as i, product_id, size, products.name, products.vat_class
         from product_stock join products on products.id = product_id
       ), new_order as (
         select n, gen_random_uuid() as id, 20_000 + n as subtotal_cents from generate_series(1, $2::int) as n
       ), line as (
         select new_order.*, size.product_id, size.size, size.name, size.vat_class
         from new_order join size on size.i = new_order.n % (select count(*) from size)
       ), placed as (
         insert into orders (id, user_id, stock_state, subtotal_cents, delivery_fee_cents, total_cents, customer_email,
           delivery_name, delivery_phone, delivery_address, delivery_city, delivery_province, delivery_zip_code,
           delivery_vat_rate_bp)
         select id, $1, 'held', subtotal_cents, 7_500, subtotal_cents + 7_500, 'lerato@example.co.za', 'Lerato Payer',
           '082 123 4567', '1 Long Street', 'Cape Town', 'Western Cape', '8001', vat_rate('standard', current_date)
         from line
         returning id, total_cents
       ), items as (
         insert into order_items (order_id, product_id, position, name, size, quantity, unit_price_cents, vat_class, vat_rate_bp)
         select id, product_id, 0, name, size, 1, subtotal_cents, vat_class, vat_rate(vat_class, current_date) from line
       ), held as (
         update product_stock set held = product_stock.held + units.n
         from (select product_id, size, count(*)::int as n from line group by product_id, size) units
         where product_stock.product_id = units.product_id and product_stock.size = units.size
       )
       select * from placed`,
      [users[0].id, count],
    );
    await client.query("commit");
    return orders.map((order) => ({ id: order.id, totalCents: order.total_cents }));
  } catch (error) {
    await client.query("rollback");
    throw error;
  }
}

/**
 * A COMPLETE ITN per order, built and signed as PayFast (and our emulator) sends it; each one is
 * also recorded as sent by the emulator, so its validate endpoint answers VALID for it.
 */
async function signedItns(client, orders, firstPaymentId) {
  const { signItnFields, parseItn } = await fromDist("server/payfast/signature.js");
  const { loadConfig } = await fromDist("server/platform/config.js");
  const { centsToDecimal } = await fromDist("domain/money.js");
  const { merchantId, passphrase } = loadConfig({}).payfast;
  const bodies = orders.map((order, index) => {
    const feeCents = -Math.round(order.totalCents * 0.023);
    return signItnFields(
      [
        ["m_payment_id", order.id],
        ["pf_payment_id", String(firstPaymentId + index)],
        ["payment_status", "COMPLETE"],
        ["item_name", `Snug & Dry order ${order.id.slice(-8)}`],
        ["item_description", "2 x Baby Nappies Value Pack (Size 3)"],
        ["amount_gross", centsToDecimal(order.totalCents)],
        ["amount_fee", centsToDecimal(feeCents)],
        ["amount_net", centsToDecimal(order.totalCents + feeCents)],
        ...[1, 2, 3, 4, 5].map((n) => [`custom_str${n}`, ""]),
        ...[1, 2, 3, 4, 5].map((n) => [`custom_int${n}`, ""]),
        ["name_first", "Lerato"],
        ["name_last", "Payer"],
        ["email_address", "lerato@example.co.za"],
        ["merchant_id", merchantId],
      ],
      passphrase,
    );
  });
  const hashes = bodies.map((body) => createHash("sha256").update(parseItn(body).paramString, "utf8").digest("hex"));
  await client.query("insert into payfast_emulator_notifications (param_hash) select unnest($1::text[])", [hashes]);
  return bodies;
}

function itnRequests(bodies) {
  let next = 0;
  return [
    {
      method: "POST",
      setupRequest: (request) => {
        request.headers = { ...request.headers, "content-type": "application/x-www-form-urlencoded" };
        request.body = bodies[next++ % bodies.length];
        return request;
      },
    },
  ];
}

await main(
  async () => {
    const database = await startDatabase("itn");
    const target = await startTarget({ databaseUrl: database.url, env: { PAYFAST_MODE: "local" }, label: "itn" });
    const pg = await importPg();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    onCleanup(() => client.end());
    const warmOrders = await pendingOrders(client, WARMUP_ITNS);
    const orders = await pendingOrders(client, MEASURED_ITNS);
    const warmBodies = await signedItns(client, warmOrders, 1_000_000);
    const bodies = await signedItns(client, orders, 2_000_000);

    // One by hand first: an accepted ITN, or the benchmark would measure rejections.
    const probe = await fetch(`${target.appUrl}/api/payfast/notify`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: warmBodies[0],
    });
    const probeText = await probe.text();
    // The answer does not say what became of it: the record does.
    const { rows: probed } = await client.query(
      "select outcome from payfast_itns where order_id = $1 order by id desc limit 1",
      [warmOrders[0].id],
    );
    if (probe.status !== 200 || probed[0]?.outcome !== "accepted") {
      throw new Error(
        `POST /api/payfast/notify answered ${probe.status} (${probed[0]?.outcome ?? "no record"}): ${probeText.slice(0, 300)}`,
      );
    }

    const common = { connections: CONNECTIONS, warmupSeconds: 0 };
    await load({
      ...common,
      url: `${target.appUrl}/api/payfast/notify`,
      amount: WARMUP_ITNS - 1,
      requests: itnRequests(warmBodies.slice(1)),
    });
    await load({
      ...common,
      url: `${target.bareUrl}/bare/post`,
      amount: WARMUP_ITNS,
      requests: itnRequests(warmBodies),
    });

    const baseline = await load({
      ...common,
      label: "baseline bare POST",
      url: `${target.bareUrl}/bare/post`,
      amount: MEASURED_ITNS,
      requests: itnRequests(bodies),
    });
    await target.reset();
    const cpuBefore = (await target.stats()).cpuMicros;
    const app = await load({
      ...common,
      label: "app POST /api/payfast/notify",
      url: `${target.appUrl}/api/payfast/notify`,
      amount: MEASURED_ITNS,
      requests: itnRequests(bodies),
    });
    const stats = await target.stats();
    log(
      `  server: ${Math.round((stats.cpuMicros - cpuBefore) / MEASURED_ITNS)} us CPU per ITN; pool waiting avg ${stats.poolWaitingAvg.toFixed(1)}; ` +
        `event loop delay mean ${stats.loopDelayMeanMs.toFixed(1)} ms, p99 ${stats.loopDelayP99Ms.toFixed(1)} ms`,
    );
    for (const entry of stats.byText.slice(0, 6)) {
      log(`  ${entry.count} x ${(entry.ms / entry.count).toFixed(1)} ms  ${entry.text.slice(0, 100)}`);
    }

    const { rows: paid } = await client.query(
      `select count(*)::int as n from orders
       where id = any($1::uuid[]) and status = 'completed' and paid_by = 'itn' and stock_state = 'sold'`,
      [orders.map((order) => order.id)],
    );
    const { rows: outcomes } = await client.query(
      "select outcome, count(*)::int as n from payfast_itns where order_id = any($1::uuid[]) group by outcome order by outcome",
      [orders.map((order) => order.id)],
    );
    const failures = failuresOf(app);
    const allPaid = paid[0].n === MEASURED_ITNS;
    log(
      `orders paid by ITN, stock sold: ${paid[0].n}/${MEASURED_ITNS}; recorded: ${outcomes.map((o) => `${o.outcome} ${o.n}`).join(", ")}`,
    );
    const perItn = stats.statements / MEASURED_ITNS;
    const kinds = Object.entries(stats.byKind)
      .map(([kind, n]) => `${kind} ${(n / MEASURED_ITNS).toFixed(2)}`)
      .join(", ");

    rows.push(
      row({
        bench: BENCH,
        name: `POST /api/payfast/notify: ITNs/s @${CONNECTIONS}`,
        measured: fmt.rps(app.rps),
        baseline: fmt.rps(baseline.rps),
        ratio: app.rps / baseline.rps,
        bar: "printed",
        status: "info",
        note: `${MEASURED_ITNS} distinct pending orders; validate answered by the local emulator; ${perItn.toFixed(2)} SQL statements per ITN (${kinds}), the emulator's look-up included`,
      }),
      row({
        bench: BENCH,
        name: "POST /api/payfast/notify: p99",
        measured: fmt.ms(app.p99),
        baseline: fmt.ms(baseline.p99),
        ratio: baseline.p99 > 0 ? app.p99 / baseline.p99 : null,
        bar: "printed",
        status: "info",
      }),
      row({
        bench: BENCH,
        name: "ITNs: errors; orders paid",
        measured: `${failures || "0 errors"}; ${paid[0].n}/${MEASURED_ITNS} paid, stock sold`,
        baseline: "",
        bar: "0 errors, all paid",
        status: verdict(!failures && allPaid),
      }),
    );
    emit(rows);
  },
  async (error) => {
    rows.push(
      row({
        bench: BENCH,
        name: "payment notification",
        measured: "error",
        bar: "runs",
        status: "fail",
        note: String(error?.message ?? error),
      }),
    );
    emit(rows);
  },
);
