import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compactOrderStats } from "#server/admin/compact-order-stats.js";
import { refunds } from "#server/platform/db/schema.js";
import { insertOrder, type SignedIn, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAsAdmin(t);
});
afterAll(() => t.close());

interface Dashboard {
  figures: Record<string, number | string>;
  revenueByDay: { day: string; revenue: string; orders: number }[];
  ordersByStatus: { status: string; orders: number }[];
  lowStock: { productName: string; size: string; left: number; held: number }[];
  needsAttention: number;
  lateShipments: { orderId: string; paidAt: string; shipBy: string; customerEmail: string }[];
  recentOrders: { id: string; status: string; total: string }[];
}

const dashboard = async () => {
  const response = await t.app.inject({
    method: "GET",
    url: "/api/admin/dashboard",
    headers: { cookie: admin.cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Dashboard;
};

/** The shop's calendar day (South Africa, UTC+2 all year) of a moment. */
const saDay = (date: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Johannesburg" }).format(date);
const DAY = 86_400_000;
const line = (cents: number) => [{ name: "Bamboo Nappies", size: "3", quantity: 1, unitPriceCents: cents }];

describe("GET /api/admin/dashboard", () => {
  it("counts the orders, the paid and shipped ones and their revenue, per status and per day for 30 days", async () => {
    const now = Date.now();
    // R600 orders ship free; R100 ones pay R75 delivery.
    await insertOrder(t, { status: "completed", lines: line(60_000) });
    await insertOrder(t, { status: "processed", lines: line(10_000), createdAt: new Date(now - 3 * DAY) });
    await insertOrder(t, { status: "processed", lines: line(60_000), createdAt: new Date(now - 3 * DAY) });
    await insertOrder(t, { status: "completed", lines: line(60_000), createdAt: new Date(now - 45 * DAY) });
    await insertOrder(t, { status: "pending", lines: line(60_000) });
    await insertOrder(t, { status: "cancelled", lines: line(60_000), createdAt: new Date(now - 3 * DAY) });

    const answer = await dashboard();
    expect(answer.figures).toEqual({
      totalOrders: 6,
      paidOrders: 2,
      shippedOrders: 2,
      pendingOrders: 1,
      cancelledOrders: 1,
      revenue: "1975.00",
    });
    expect(answer.ordersByStatus).toEqual([
      { status: "pending", orders: 1 },
      { status: "completed", orders: 2 },
      { status: "processed", orders: 2 },
      { status: "cancelled", orders: 1 },
      { status: "refunded", orders: 0 },
    ]);
    expect(answer.revenueByDay).toHaveLength(30);
    expect(answer.revenueByDay.at(-1)).toEqual({ day: saDay(new Date()), revenue: "600.00", orders: 1 });
    expect(answer.revenueByDay.at(0)?.day).toBe(saDay(new Date(now - 29 * DAY)));
    const threeDaysAgo = answer.revenueByDay.find((day) => day.day === saDay(new Date(now - 3 * DAY)));
    expect(threeDaysAgo).toEqual({ day: saDay(new Date(now - 3 * DAY)), revenue: "775.00", orders: 2 });
    // The order of 45 days ago is in the revenue but not in the series; the other days show 0.
    const rest = answer.revenueByDay.filter((day) => day !== threeDaysAgo && day !== answer.revenueByDay.at(-1));
    expect(rest.every((day) => day.revenue === "0.00" && day.orders === 0)).toBe(true);
  });

  it("follows an order through its statuses, and folding the counters changes no figure", async () => {
    const before = await dashboard();
    const id = await insertOrder(t, { lines: line(20_000) });
    const patch = (status: string) =>
      t.app.inject({
        method: "PATCH",
        url: `/api/admin/orders/${id}/status`,
        headers: { cookie: admin.cookie },
        payload: { status },
      });
    expect((await patch("completed")).statusCode).toBe(200);
    const paid = await dashboard();
    expect(paid.figures.paidOrders).toBe(Number(before.figures.paidOrders) + 1);
    expect(paid.figures.totalOrders).toBe(Number(before.figures.totalOrders) + 1);
    expect(Number(paid.figures.revenue)).toBeCloseTo(Number(before.figures.revenue) + 275, 2);
    expect((await patch("processed")).statusCode).toBe(200);
    const shipped = await dashboard();
    expect(shipped.figures.shippedOrders).toBe(Number(before.figures.shippedOrders) + 1);
    expect(shipped.figures.paidOrders).toBe(before.figures.paidOrders);

    expect(await compactOrderStats(t.db)).toBeGreaterThan(0);
    expect(await dashboard()).toEqual(shipped);
    const { rows } = await t.pool.query("select count(*)::int as n from order_stat_changes");
    expect(rows[0]).toEqual({ n: 0 });
  });

  it("counts what needs attention: flagged payments not resolved and orders pending over an hour", async () => {
    const before = (await dashboard()).needsAttention;
    await insertOrder(t, { status: "pending", createdAt: new Date(Date.now() - 2 * 3_600_000) });
    await insertOrder(t, { status: "pending" });
    await t.pool.query(
      `insert into payfast_itns (pf_payment_id, amount_gross, source_ip, outcome, raw_body)
       values ('990001', '10.00', '127.0.0.1', 'unknown_order', 'x'), ('990002', '10.00', '127.0.0.1', 'duplicate', 'x')`,
    );
    expect((await dashboard()).needsAttention).toBe(before + 2);
  });

  it("lists under Needs attention the paid orders not shipped 25 days after payment, each with its day-30 deadline (ECTA s46)", async () => {
    const paidDaysAgo = async (days: number, customerEmail: string) => {
      const id = await insertOrder(t, { status: "completed", customerEmail });
      await t.pool.query("update orders set paid_at = now() - make_interval(days => $2) where id = $1", [id, days]);
      return id;
    };
    const late = await paidDaysAgo(28, "late@example.co.za");
    await paidDaysAgo(24, "soon@example.co.za");
    const shipped = await paidDaysAgo(29, "shipped@example.co.za");
    await t.pool.query("update orders set status = 'processed', shipped_at = now() where id = $1", [shipped]);

    const listed = (await dashboard()).lateShipments;
    expect(listed.map((order) => order.customerEmail)).toEqual(["late@example.co.za"]);
    const paidAt = new Date(Date.now() - 28 * DAY);
    expect(listed[0]).toMatchObject({ orderId: late, shipBy: saDay(new Date(paidAt.getTime() + 30 * DAY)) });
  });

  it("lists sizes with 5 or fewer units left to sell, sold out first", async () => {
    const { rows } = await t.pool.query<{ product_id: string; name: string; size: string }>(
      `select s.product_id, p.name, s.size from product_stock s join products p on p.id = s.product_id
       order by p.name, s.size limit 2`,
    );
    const [low, gone] = rows;
    if (!low || !gone) throw new Error("no seeded stock");
    await t.pool.query("update product_stock set quantity = 100");
    await t.pool.query("update product_stock set quantity = 7, held = 3 where product_id = $1 and size = $2", [
      low.product_id,
      low.size,
    ]);
    await t.pool.query("update product_stock set quantity = 0 where product_id = $1 and size = $2", [
      gone.product_id,
      gone.size,
    ]);
    expect((await dashboard()).lowStock).toEqual([
      { productId: gone.product_id, productName: gone.name, size: gone.size, left: 0, held: 0 },
      { productId: low.product_id, productName: low.name, size: low.size, left: 4, held: 3 },
    ]);
  });

  it("shows the five newest orders", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 6; index++)
      ids.push(await insertOrder(t, { createdAt: new Date(Date.now() + index * 1000) }));
    expect((await dashboard()).recentOrders.map((order) => order.id)).toEqual(ids.slice(1).reverse());
  });

  it("takes partial refunds off the revenue, on the day the order was placed", async () => {
    const before = await dashboard();
    const id = await insertOrder(t, { status: "processed", lines: line(60_000) });
    await t.db.insert(refunds).values([
      { orderId: id, amountCents: 12_345, reason: "One pack damaged", status: "completed", creditNoteNumber: 900_001 },
      // Refused or still under way: nothing was given back.
      { orderId: id, amountCents: 1_000, reason: "Refused", status: "failed" },
    ]);
    const after = await dashboard();
    const cents = (rand: string | number) => Math.round(Number(rand) * 100);
    expect(cents(after.figures.revenue as string) - cents(before.figures.revenue as string)).toBe(60_000 - 12_345);
    const today = (answer: Dashboard) => cents(answer.revenueByDay.at(-1)?.revenue ?? "0");
    expect(today(after) - today(before)).toBe(60_000 - 12_345);
  });

  it("is for admins only", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/admin/dashboard" })).statusCode).toBe(401);
    const customer = await signIn(t);
    const refused = await t.app.inject({
      method: "GET",
      url: "/api/admin/dashboard",
      headers: { cookie: customer.cookie },
    });
    expect(refused.statusCode).toBe(403);
  });
});
