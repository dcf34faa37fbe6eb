#!/usr/bin/env node
// 13. Nappy plans' charging round (issue 40, docs/decisions/050 "Charging"): 1,000 card plans due
// on the same day, each with its own PayFast token, charged by the shop's charging round against
// the built-in PayFast emulator (local mode, its Subscriptions API over HTTP, as in development).
// Two rounds run at once in the app's process, as two instances' jobs would: the unique key on
// (plan, delivery date) must let each box be charged once. Bars: all 1,000 paid in under a minute,
// and no token charged twice (the emulator's own payments are counted, not the shop's records).
import { randomUUID } from "node:crypto";
import { fromDist, importPg, log, main, onCleanup, startDatabase } from "./lib/harness.mjs";
import { emit, row, verdict } from "./lib/report.mjs";
import { startTarget } from "./lib/target-client.mjs";

const BENCH = "nappy plans";
const PLANS = 1_000;
const BAR_MS = 60_000;
/** Units per size: the boxes' orders never come near it. */
const PLENTY = 1_000_000;
const rows = [];

/**
 * `count` active card plans of one customer, due today (South African), each made by an order of its
 * own (plans.created_from_order_id is unique) and holding one line of a size in stock; each with an
 * ACTIVE tokenization agreement at the emulator, which notifies the shop's notify_url.
 */
async function duePlans(client, count, appUrl) {
  const { loadConfig } = await fromDist("server/platform/config.js");
  const { merchantId } = loadConfig({}).payfast;
  const { rows: users } = await client.query(
    `insert into users (username, email, password_hash, full_name)
     values ('bench-plans-' || $1::text, 'bench-plans-' || $1::text || '@example.co.za', 'x', 'Thandi Planner')
     returning id`,
    [randomUUID().slice(0, 8)],
  );
  await client.query("begin");
  try {
    await client.query("update product_stock set quantity = greatest(quantity, $1)", [PLENTY]);
    const { rows: made } = await client.query(
      `with size as (
         select row_number() over (order by product_id, size) - 1 as i, product_id, size
         from product_stock where quantity > held
       ), new_plan as (
         select n, gen_random_uuid() as plan_id, gen_random_uuid() as order_id, gen_random_uuid()::text as token
         from generate_series(1, $2::int) as n
       ), first_order as (
         insert into orders (id, user_id, status, stock_state, subtotal_cents, delivery_fee_cents, total_cents,
           customer_email, delivery_name, delivery_phone, delivery_address, delivery_city, delivery_province,
           delivery_zip_code, delivery_vat_rate_bp)
         select order_id, $1, 'cancelled', 'released', 30_000, 0, 30_000, 'thandi@example.co.za', 'Thandi Planner',
           '082 123 4567', '1 Long Street', 'Cape Town', 'Western Cape', '8001', vat_rate('standard', current_date)
         from new_plan
       ), tokens as (
         insert into payfast_emulator_tokens (token, merchant_id, subscription_type, status, item_name, email_address, notify_url)
         select token, $3, 2, 'ACTIVE', 'Snug & Dry nappy plan', 'thandi@example.co.za', $4 from new_plan
       ), plan as (
         insert into plans (id, user_id, status, mode, cadence_weeks, next_date, customer_email, delivery_name,
           delivery_phone, delivery_address, delivery_city, delivery_province, delivery_zip_code, payfast_token,
           token_stored_at, created_from_order_id)
         select plan_id, $1, 'active', 'card', 4, (now() at time zone 'Africa/Johannesburg')::date,
           'thandi@example.co.za', 'Thandi Planner', '082 123 4567', '1 Long Street', 'Cape Town', 'Western Cape',
           '8001', token, now(), order_id
         from new_plan
         returning id
       ), line as (
         insert into plan_lines (plan_id, product_id, size, quantity)
         select new_plan.plan_id, size.product_id, size.size, 1
         from new_plan join size on size.i = new_plan.n % (select count(*) from size)
       )
       select count(*)::int as plans from plan`,
      [users[0].id, count, merchantId, `${appUrl}/api/payfast/notify`],
    );
    await client.query("commit");
    return made[0].plans;
  } catch (error) {
    await client.query("rollback");
    throw error;
  }
}

await main(async () => {
  const database = await startDatabase("plans");
  const target = await startTarget({
    databaseUrl: database.url,
    env: { PAYFAST_MODE: "local" },
    label: "plans",
  });
  const pg = await importPg();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  onCleanup(() => client.end());

  const made = await duePlans(client, PLANS, target.appUrl);
  log(`${made} card plans due today, each with its own token at the emulator`);

  // Two charging rounds at once, as two instances' jobs would run them.
  const started = performance.now();
  const answer = await target.chargePlans(2);
  const ms = performance.now() - started;
  log(`charging rounds: ${JSON.stringify(answer.summaries)} in ${Math.round(ms)} ms`);

  const { rows: counted } = await client.query(
    `select (select count(*)::int from plan_charges where status = 'paid') as paid_boxes,
            (select count(*)::int from plan_charges) as charge_rows,
            (select count(*)::int from payfast_emulator_payments where token is not null) as payments,
            (select count(distinct token)::int from payfast_emulator_payments where token is not null) as tokens_charged,
            (select count(*)::int from plans where next_date > (now() at time zone 'Africa/Johannesburg')::date) as moved_on`,
  );
  const {
    paid_boxes: paidBoxes,
    charge_rows: chargeRows,
    payments,
    tokens_charged: tokensCharged,
    moved_on: movedOn,
  } = counted[0];
  const allPaid = paidBoxes === PLANS && movedOn === PLANS;
  rows.push(
    row({
      bench: BENCH,
      name: `${PLANS.toLocaleString("en-US")} card plans due at once, two charging rounds in parallel`,
      measured: `${(ms / 1000).toFixed(1)} s`,
      bar: `< ${BAR_MS / 1000} s, every box paid`,
      status: verdict(ms < BAR_MS && allPaid),
      note: `${paidBoxes} boxes paid of ${chargeRows} charge rows; ${movedOn} plans moved to their next date`,
    }),
    row({
      bench: BENCH,
      name: "cards charged twice for one box (the emulator's own payments)",
      measured: String(payments - tokensCharged),
      bar: "0",
      status: verdict(payments === tokensCharged && tokensCharged === PLANS),
      note: `${payments} payments taken on ${tokensCharged} tokens`,
    }),
  );
  emit(rows);
});
