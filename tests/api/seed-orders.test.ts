import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedOrders } from "#server/cli/seed-orders.js";
import { signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function withClient<T>(work: (client: import("pg").PoolClient) => Promise<T>): Promise<T> {
  const client = await t.pool.connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}

describe("npm run seed:orders", () => {
  it("writes realistic orders over two years, every status, each priced from its lines, the same for the same seed", async () => {
    const end = new Date("2026-06-30T10:00:00Z");
    const added = await withClient((client) => seedOrders(client, { orders: 600, seed: 7, end }));
    expect(added.orders).toBe(600);
    const { rows: statuses } = await t.pool.query<{ status: string }>(
      "select distinct status from orders order by status",
    );
    expect(statuses.map((row) => row.status)).toEqual(["cancelled", "completed", "pending", "processed"]);
    const { rows: span } = await t.pool.query<{ oldest: Date; newest: Date }>(
      "select min(created_at) as oldest, max(created_at) as newest from orders",
    );
    expect(span[0]?.newest.getTime()).toBeLessThanOrEqual(end.getTime());
    expect(end.getTime() - (span[0]?.oldest.getTime() ?? 0)).toBeGreaterThan(700 * 86_400_000);
    const { rows: wrong } = await t.pool.query(
      `select o.id from orders o join order_items i on i.order_id = o.id
       group by o.id having o.subtotal_cents <> sum(i.quantity * i.unit_price_cents)
         or o.total_cents <> o.subtotal_cents + o.delivery_fee_cents
         or count(*) not between 1 and 4
         or o.delivery_fee_cents <> case when o.subtotal_cents >= 50000 then 0 else 7500 end`,
    );
    expect(wrong).toEqual([]);

    const before = await t.pool.query("select id from orders order by id");
    const again = await withClient((client) => seedOrders(client, { orders: 600, seed: 7, end }));
    expect(again.orders).toBe(600);
    expect((await t.pool.query("select id from orders order by id")).rows).toEqual(before.rows);
  });

  it("writes orders the admin API answers, found by their customer's e-mail", async () => {
    const { cookie } = await signInAsAdmin(t);
    const { rows } = await t.pool.query<{ id: string; customer_email: string }>(
      "select id, customer_email from orders order by created_at desc limit 1",
    );
    const seeded = rows[0];
    if (!seeded) throw new Error("no seeded order");
    const view = await t.app.inject({ method: "GET", url: `/api/admin/orders/${seeded.id}`, headers: { cookie } });
    expect(view.statusCode).toBe(200);
    const found = await t.app.inject({
      method: "GET",
      url: `/api/admin/orders?q=${encodeURIComponent(seeded.customer_email)}`,
      headers: { cookie },
    });
    expect((found.json() as { orders: { id: string }[] }).orders.map((order) => order.id)).toContain(seeded.id);
  });
});
