import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "#server/platform/db/embedded.js";
import { completeItn } from "../helpers/payfast.js";
import { type AppProcess, AUTH_LIMITS_OFF, ORDER_LIMITS_OFF, sleep, startApp } from "./helpers/app-process.js";
import { call } from "./helpers/http.js";
import {
  attachToShopCluster,
  cleanUpShopDataDir,
  createFreshDatabase,
  externalPostgres,
  makeTempDir,
  withClient,
} from "./helpers/postgres.js";
import {
  buyableProducts,
  type CartLine,
  type Customer,
  orderBody,
  randomCart,
  registerCustomer,
  startValidator,
} from "./helpers/shop.js";

/**
 * Crash safety: 200 shoppers place orders and pay them (signed ITNs to /api/payfast/notify)
 * while the app process is killed with SIGKILL and restarted, twice. Nothing a shopper was told
 * is lost, and nothing is half-written: every order answered 200 exists with all its lines, no
 * order has no lines, and no order is paid without an accepted ITN or an admin's confirmation.
 */

const SHOPPERS = 200;
const CUSTOMERS = 20;
const KILLS = 2;
const STOCKED = 100_000;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const external = await externalPostgres();

/** A small seeded generator, so a failing run can be replayed. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Ledger {
  /** Orders whose create-order answered 200, with the lines the shopper sent. */
  confirmed: Map<string, CartLine[]>;
  /** Orders whose ITN was answered 200 "accepted". */
  /** Orders whose valid COMPLETE ITN was answered 200: each must now be paid by that ITN. */
  paidByItn: Set<string>;
  /** Every HTTP status seen, and every network failure, by kind. */
  statuses: Map<string, number>;
}

async function runCrashScenario(env: Record<string, string>, databaseUrl: () => Promise<string>) {
  const validator = await startValidator();
  cleanups.push(validator.close);
  const port = await freePort();
  const appEnv = {
    ...env,
    ...AUTH_LIMITS_OFF,
    ...ORDER_LIMITS_OFF,
    PAYFAST_VALIDATE_URL: validator.url,
  };
  let app: AppProcess = await startApp({ env: appEnv, port });
  cleanups.push(() => app.kill());
  const baseUrl = app.url;

  const customers: Customer[] = [];
  for (let index = 0; index < CUSTOMERS; index++) customers.push(await registerCustomer(baseUrl, "crash"));
  // A shop stocked for the rush: this test is about crashes, not about selling out (stock.test.ts is).
  await withClient(await databaseUrl(), (db) =>
    db.query("update product_stock set quantity = $1 where quantity > 0", [STOCKED]),
  );
  const choices = await buyableProducts(baseUrl);
  expect(choices.length).toBeGreaterThan(10);

  const ledger: Ledger = { confirmed: new Map(), paidByItn: new Set(), statuses: new Map() };
  const seen = (kind: string) => ledger.statuses.set(kind, (ledger.statuses.get(kind) ?? 0) + 1);
  const seed = Date.now() % 1_000_000;
  let shopping = true;
  let itnCounter = 0;

  const shopper = async (index: number) => {
    const random = seededRandom(seed + index);
    const customer = customers[index % customers.length] as Customer;
    while (shopping) {
      const lines = randomCart(choices, random);
      try {
        const created = await call(baseUrl, "POST", "/api/create-order", {
          body: orderBody(lines, customer),
          cookie: customer.cookie,
          timeoutMs: 20_000,
        });
        const refusal = created.json as { message?: unknown } | null;
        seen(
          `create-order ${created.status}${created.status >= 400 && typeof refusal?.message !== "string" ? " (no message)" : ""}`,
        );
        if (created.status !== 200) {
          await sleep(100 + random() * 200);
          continue;
        }
        const { orderId, payfastData } = created.json as { orderId: string; payfastData: Record<string, string> };
        ledger.confirmed.set(orderId, lines);
        if (random() < 0.25) continue; // Some shoppers never pay.
        const itn = completeItn(orderId, payfastData.amount ?? "", `${seed}${++itnCounter}`, customer.email);
        const copies = random() < 0.1 ? 2 : 1; // PayFast re-sends now and then.
        for (let copy = 0; copy < copies; copy++) {
          const response = await fetch(`${baseUrl}/api/payfast/notify`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: itn,
            signal: AbortSignal.timeout(20_000),
          });
          // The answer never says what became of a notification (that is in the log and the record).
          const answer = (await response.json().catch(() => ({}))) as { message?: unknown };
          seen(`notify ${response.status}${typeof answer.message === "string" ? "" : " (no message)"}`);
          if (response.status === 200) ledger.paidByItn.add(orderId);
        }
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        seen(`network ${cause?.code ?? (error as Error).name}`);
        await sleep(50 + random() * 100);
      }
    }
  };

  const shoppers = Array.from({ length: SHOPPERS }, (_, index) => shopper(index));
  try {
    let ordersAtLastKill = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      await sleep(2_500);
      expect(ledger.confirmed.size, `orders placed before kill ${kill + 1}`).toBeGreaterThan(ordersAtLastKill);
      ordersAtLastKill = ledger.confirmed.size;
      await app.kill();
      // The next process starts at once on the same port; the shoppers keep trying meanwhile.
      app = await startApp({ env: appEnv, port });
    }
    await sleep(2_500);
  } finally {
    shopping = false;
    await Promise.all(shoppers);
  }

  const summary = [...ledger.statuses.entries()].map(([kind, count]) => `${kind}: ${count}`).join(", ");
  console.info(`crash (${env.DATABASE_URL ? "external" : "embedded"} PostgreSQL, seed ${seed}): ${summary}`);
  expect(ledger.confirmed.size, "orders placed").toBeGreaterThan(100);
  expect(ledger.paidByItn.size, "orders paid by ITN").toBeGreaterThan(50);
  // Every answer was a success, or a 503 { message } while the restarted process was swamped by
  // every shopper retrying at once (its pool waits at most 3 s for a connection, then sheds load;
  // nothing was written, and the shopper or PayFast tries again). The only other failures were
  // connections to a dead process.
  for (const kind of ledger.statuses.keys()) {
    expect(kind).toMatch(/^(create-order (200|503)|notify (200|503)|network \w+)$/);
  }

  // The shop is still whole, and the final process serves and stops cleanly.
  expect((await call(baseUrl, "GET", "/api/health")).status).toBe(200);

  await withClient(await databaseUrl(), async (db) => {
    const ids = [...ledger.confirmed.keys()];
    const { rows: found } = await db.query<{ id: string }>("select id from orders where id = any($1::uuid[])", [ids]);
    expect(found.length, "orders answered 200 that exist").toBe(ids.length);

    const { rows: items } = await db.query<{
      order_id: string;
      product_id: string;
      size: string;
      quantity: number;
      unit_price_cents: number;
    }>(
      "select order_id, product_id, size, quantity, unit_price_cents from order_items where order_id = any($1::uuid[])",
      [ids],
    );
    const stored = new Map<string, string[]>();
    for (const item of items) {
      const list = stored.get(item.order_id) ?? [];
      list.push(`${item.product_id}|${item.size}|${item.quantity}|${item.unit_price_cents}`);
      stored.set(item.order_id, list);
    }
    const incomplete = ids.filter((id) => {
      const sent = (ledger.confirmed.get(id) ?? []).map(
        (line) => `${line.productId}|${line.size}|${line.quantity}|${line.unitPriceCents}`,
      );
      return JSON.stringify(sent.sort()) !== JSON.stringify((stored.get(id) ?? []).sort());
    });
    expect(incomplete, "orders answered 200 whose lines differ from the cart").toEqual([]);

    const { rows: empty } = await db.query(
      "select id from orders o where not exists (select 1 from order_items i where i.order_id = o.id)",
    );
    expect(empty, "orders without lines").toEqual([]);

    const { rows: unproven } = await db.query(`
      select o.id, o.status, o.paid_by from orders o
      where o.status <> 'pending'
        and o.paid_by is distinct from 'admin'
        and not exists (select 1 from payfast_itns p where p.order_id = o.id and p.outcome = 'accepted')`);
    expect(unproven, "orders paid without an accepted ITN or an admin's confirmation").toEqual([]);

    const { rows: inconsistent } = await db.query(`
      select p.order_id from payfast_itns p join orders o on o.id = p.order_id
      where p.outcome = 'accepted' and (o.status = 'pending' or o.paid_by <> 'itn' or o.paid_at is null)`);
    expect(inconsistent, "accepted ITNs whose order is not paid by ITN").toEqual([]);

    const { rows: twice } = await db.query(`
      select order_id from payfast_itns where outcome = 'accepted' group by order_id having count(*) > 1`);
    expect(twice, "orders with two accepted ITNs").toEqual([]);

    // Stock is as exact as the orders: every unit held belongs to an unpaid order holding it, and
    // every unit gone was sold to a paid one. A crash cannot leave a hold without its order.
    const { rows: stockLedger } = await db.query<{
      product_id: string;
      size: string;
      quantity: number;
      held: number;
      holding: number;
      sold: number;
    }>(`
      select s.product_id, s.size, s.quantity, s.held,
        coalesce(sum(i.quantity) filter (where o.stock_state = 'held'), 0)::int as holding,
        coalesce(sum(i.quantity) filter (where o.stock_state = 'sold'), 0)::int as sold
      from product_stock s
      left join order_items i on i.product_id = s.product_id and i.size = s.size
      left join orders o on o.id = i.order_id
      where s.quantity + s.held > 0
      group by s.product_id, s.size, s.quantity, s.held`);
    const off = stockLedger.filter((row) => row.held !== row.holding || row.quantity + row.sold !== STOCKED);
    expect(off, "stock rows whose holds or sales do not match the orders").toEqual([]);
    const { rows: mismatched } = await db.query(`
      select id, status, stock_state from orders
      where not ((status = 'pending' and stock_state = 'held') or (status = 'completed' and stock_state = 'sold'))`);
    expect(mismatched, "orders whose stock state does not match their status").toEqual([]);

    const paid = [...ledger.paidByItn];
    const { rows: paidRows } = await db.query<{ id: string }>(
      "select id from orders where id = any($1::uuid[]) and status = 'completed' and paid_by = 'itn'",
      [paid],
    );
    expect(paidRows.length, "orders whose ITN was answered 200 are paid").toBe(paid.length);
  });

  expect(await app.stop()).toEqual({ code: 0, signal: null });
}

describe("crash safety", () => {
  it("loses no confirmed order and pays none without proof when the app is killed under load (embedded PostgreSQL)", async () => {
    const dataDir = await makeTempDir("shop-rel-crash-");
    cleanups.push(() => cleanUpShopDataDir(dataDir));
    await runCrashScenario({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) }, async () => {
      // The last app process stops its PostgreSQL at the end: attach while it still runs.
      const cluster = await attachToShopCluster(dataDir);
      return cluster.url("shop");
    });
  });

  it.skipIf(!external)(
    "loses no confirmed order and pays none without proof when the app is killed under load (external PostgreSQL)",
    async () => {
      const database = await createFreshDatabase(external as string);
      cleanups.push(database.drop);
      await runCrashScenario({ DATABASE_URL: database.url }, async () => database.url);
    },
  );
  if (!external) {
    console.warn("crash safety on an external PostgreSQL: skipped, nothing answers at 127.0.0.1:5432");
  }
});
