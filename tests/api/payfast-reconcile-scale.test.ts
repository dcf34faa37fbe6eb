import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders } from "#server/platform/db/schema.js";
import type { TestApp } from "../helpers/app.js";
import { buildListeningApp, placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { registerAndLogin } from "../helpers/users.js";

/**
 * Reconciliation over a shop with 200,000 unpaid orders: its window is computed by the database,
 * so no list of candidates is spread into Math.min (which threw RangeError past ~125,000).
 */
const UNPAID = 200_000;

let t: TestApp;
beforeAll(async () => {
  t = await buildListeningApp();
});
afterAll(() => t?.close());

describe("reconciliation at scale", () => {
  it(`finds a lost payment among ${UNPAID.toLocaleString("en-ZA")} unpaid orders`, { timeout: 240_000 }, async () => {
    const shopper = await registerAndLogin(t);
    const line = await stockedLine(t, 1);
    const { orderId, payfastData } = await placeTestOrder(t, shopper, [line]);
    // PayFast takes the money; its notification never arrives.
    const lost = await t.app.inject({
      method: "POST",
      url: "/payfast-emulator/eng/complete-lost",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(payfastData).toString(),
    });
    expect(lost.statusCode).toBe(303);
    await t.pool.query("update orders set created_at = now() - interval '20 minutes' where id = $1", [orderId]);

    // One statement (on a connection of its own: the shop's pool times queries out), pending and
    // cancelled orders spread over the last 29 days.
    const bulk = new pg.Client({ connectionString: t.databaseUrl });
    await bulk.connect();
    await bulk.query(
      `insert into orders (status, subtotal_cents, delivery_fee_cents, total_cents, customer_email, delivery_name,
         delivery_phone, delivery_address, delivery_city, delivery_province, delivery_zip_code, cancel_reason,
         cancelled_at, created_at, delivery_vat_rate_bp)
       select case when n % 2 = 0 then 'pending' else 'cancelled' end, 10000, 7500, 17500, 'bulk' || n || '@example.co.za',
         'Bulk Shopper', '082 555 0101', '1 Long Street', 'Cape Town', 'Western Cape', '8001',
         case when n % 2 = 0 then null else 'expired' end, case when n % 2 = 0 then null else now() end,
         now() - interval '10 minutes' - (n % 41760) * interval '1 minute', 1500
       from generate_series(1, $1::int) as n`,
      [UNPAID],
    );
    await bulk.end();

    const { checked, findings } = await t.app.reconcilePayfast();
    expect(checked).toBeGreaterThanOrEqual(UNPAID + 1);
    expect(findings).toEqual([expect.objectContaining({ orderId, outcome: "accepted" })]);
    const [paid] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(paid).toMatchObject({ status: "completed", paidBy: "reconcile" });
  });
});
