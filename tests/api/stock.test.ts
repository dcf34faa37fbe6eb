import { randomInt } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimal } from "#domain/money.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { createOrderPayload } from "../helpers/orders.js";
import { completeItn } from "../helpers/payfast.js";
import { stockOf } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";
import { waitFor } from "../helpers/wait.js";

// Short holds: an order expires 6 s after it is made, so the expiry job (pg-boss) is seen at work
// (it runs every quarter of the hold), yet 200 shoppers buying at once on a busy machine can still
// pay for what they held.
const HOLD_MINUTES = "0.1";
/** Longer than a hold plus a run of the expiry job, with room for a busy machine. */
const EXPIRY_WAIT_MS = 40_000;
let t: TestApp;
let second: TestApp;
let admin: LoggedInUser;
let shopper: LoggedInUser;

/** Stands in for PayFast's /eng/query/validate: every notification these tests post is VALID. */
const validator = http.createServer((_request, response) => {
  _request.resume().on("end", () => response.writeHead(200, { "content-type": "text/plain" }).end("VALID"));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => validator.listen(0, "127.0.0.1", resolve));
  const env = {
    ORDER_HOLD_MINUTES: HOLD_MINUTES,
    PAYFAST_VALIDATE_URL: `http://127.0.0.1:${(validator.address() as AddressInfo).port}/eng/query/validate`,
  };
  t = await buildTestApp(env);
  // A second instance of the shop on the same database, as behind a load balancer.
  second = await buildTestApp(env, {}, t.databaseUrl);
  [admin, shopper] = await Promise.all([registerAndLogin(t, { admin: true }), registerAndLogin(t)]);
});
afterAll(async () => {
  await second.close();
  await t.close();
  await new Promise((resolve) => validator.close(resolve));
});

interface TestProduct {
  id: string;
  name: string;
  priceCents: number;
}

/** A product with one size and `units` of it, made through the admin API. */
async function productWith(units: number, priceCents = 10_000): Promise<TestProduct> {
  const name = `Stock test nappies ${randomInt(1e9)}`;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/admin/products",
    headers: admin.headers,
    payload: {
      name,
      category: "baby",
      price: centsToDecimal(priceCents),
      image: "/images/products/baby-nappies-value-pack.svg",
      sizes: ["Size 4"],
      stock: { "Size 4": units },
    },
  });
  expect(response.statusCode).toBe(201);
  return { id: (response.json() as { id: string }).id, name, priceCents };
}

/** POST /api/create-order for lines of one product's "Size 4", with the figures the browser shows. */
function buy(product: TestProduct, buyer: LoggedInUser, quantities: number[] = [1], app: TestApp = t) {
  return app.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: buyer.headers,
    payload: createOrderPayload(
      buyer,
      quantities.map((quantity) => ({ ...product, size: "Size 4", quantity })),
    ),
  });
}

async function orderOf(orderId: string, as: LoggedInUser = admin) {
  const response = await t.app.inject({ method: "GET", url: `/api/orders/${orderId}`, headers: as.headers });
  return response.json() as { status: string; cancelReason: string | null; total: string };
}

async function publicProduct(id: string) {
  const products = (await t.app.inject({ method: "GET", url: "/api/products" })).json() as {
    id: string;
    outOfStock: boolean;
    sizeOutOfStock: Record<string, boolean>;
    sizeLowStock: Record<string, number>;
  }[];
  return products.find((product) => product.id === id);
}

const markPaid = (orderId: string) =>
  t.app.inject({ method: "PATCH", url: `/api/admin/orders/${orderId}/confirm-payment`, headers: admin.headers });

describe("holds at create-order", () => {
  it("sells exactly 10 of 10 units to 200 shoppers buying at once on two instances, never below zero", async () => {
    const product = await productWith(10);
    const buyers = await Promise.all(Array.from({ length: 200 }, () => registerAndLogin(t)));
    const answers = await Promise.all(buyers.map((buyer, index) => buy(product, buyer, [1], index % 2 ? second : t)));

    const created = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(created).toHaveLength(10);
    expect(refused).toHaveLength(190);
    expect(new Set(refused.map((answer) => answer.json().code))).toEqual(new Set(["OUT_OF_STOCK"]));
    expect(refused[0]?.json().message).toBe(
      `${product.name} (Size 4) is sold out. Please update your cart and try again.`,
    );
    expect(await stockOf(t.db, product.id, "Size 4")).toEqual({ quantity: 10, held: 10 });
    expect(await publicProduct(product.id)).toMatchObject({ outOfStock: true, sizeOutOfStock: { "Size 4": true } });

    // Paying all ten turns the holds into sales: nothing left, nothing held.
    for (const answer of created) expect((await markPaid(answer.json().orderId)).statusCode).toBe(200);
    expect(await stockOf(t.db, product.id, "Size 4")).toEqual({ quantity: 0, held: 0 });
    expect(await publicProduct(product.id)).toMatchObject({ outOfStock: true });
  }, 90_000); // Signing up 200 shoppers (argon2id each) is most of it.

  it("holds every line or none, and says how many are left", async () => {
    const product = await productWith(3);
    const refused = await buy(product, shopper, [4]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: "OUT_OF_STOCK",
      message: `Only 3 left of ${product.name} (Size 4). Please update your cart and try again.`,
    });
    expect(await stockOf(t.db, product.id, "Size 4")).toEqual({ quantity: 3, held: 0 });
    expect(await publicProduct(product.id)).toMatchObject({ sizeLowStock: { "Size 4": 3 }, outOfStock: false });
  });

  it("counts several lines of the same size in one order together", async () => {
    const product = await productWith(5);
    expect((await buy(product, shopper, [2, 4])).statusCode).toBe(409);
    const placed = await buy(product, shopper, [2, 3]);
    expect(placed.statusCode).toBe(200);
    expect(await stockOf(t.db, product.id, "Size 4")).toEqual({ quantity: 5, held: 5 });
    const order = (
      await t.app.inject({ method: "GET", url: `/api/orders/${placed.json().orderId}`, headers: shopper.headers })
    ).json();
    expect(order.items).toEqual([expect.objectContaining({ size: "Size 4", quantity: 5 })]);
  });
});

describe("cancelling", () => {
  it("lets the shopper cancel an unpaid order and releases its hold at once", async () => {
    const product = await productWith(2);
    const orderId = (await buy(product, shopper, [2])).json().orderId as string;
    const cancel = await t.app.inject({
      method: "POST",
      url: `/api/orders/${orderId}/cancel`,
      headers: shopper.headers,
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({ id: orderId, status: "cancelled", cancelReason: "shopper" });
    expect(await stockOf(t.db, product.id, "Size 4")).toEqual({ quantity: 2, held: 0 });
    expect((await buy(product, shopper, [2])).statusCode).toBe(200);

    // Once is enough: a second cancel changes nothing.
    const again = await t.app.inject({
      method: "POST",
      url: `/api/orders/${orderId}/cancel`,
      headers: shopper.headers,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: "ORDER_STATUS_CONFLICT",
      message: "Only an unpaid order can be cancelled; this one is cancelled.",
    });
    expect(await stockOf(t.db, product.id, "Size 4")).toEqual({ quantity: 2, held: 2 });
  });

  it("refuses another shopper, lets an admin cancel (reason: the shop), and never cancels a paid order", async () => {
    const product = await productWith(5);
    const stranger = await registerAndLogin(t);
    const orderId = (await buy(product, shopper)).json().orderId as string;
    const refused = await t.app.inject({
      method: "POST",
      url: `/api/orders/${orderId}/cancel`,
      headers: stranger.headers,
    });
    // Another shopper's order is "not found", as a missing one is (issue 39).
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: "Order not found", code: "NOT_FOUND" });
    expect((await orderOf(orderId)).status).toBe("pending");

    const byAdmin = await t.app.inject({
      method: "POST",
      url: `/api/orders/${orderId}/cancel`,
      headers: admin.headers,
    });
    expect(byAdmin.json()).toMatchObject({ status: "cancelled", cancelReason: "admin" });

    const paidId = (await buy(product, shopper)).json().orderId as string;
    await markPaid(paidId);
    const paid = await t.app.inject({ method: "POST", url: `/api/orders/${paidId}/cancel`, headers: shopper.headers });
    expect(paid.statusCode).toBe(409);
    expect(await stockOf(t.db, product.id, "Size 4")).toEqual({ quantity: 4, held: 0 });
  });
});

describe("expiry (a pg-boss job, ORDER_HOLD_MINUTES)", () => {
  it("cancels an unpaid order after the hold, reason expired, and releases its stock", async () => {
    const product = await productWith(1);
    const orderId = (await buy(product, shopper)).json().orderId as string;
    expect(await publicProduct(product.id)).toMatchObject({ outOfStock: true });
    const order = await waitFor(
      () => orderOf(orderId, shopper),
      (found) => found.status === "cancelled",
      EXPIRY_WAIT_MS,
    );
    expect(order).toMatchObject({ status: "cancelled", cancelReason: "expired" });
    expect(await stockOf(t.db, product.id, "Size 4")).toEqual({ quantity: 1, held: 0 });
    // The catalogue caches hear of it through PostgreSQL's NOTIFY, a moment after the commit.
    const shown = await waitFor(
      () => publicProduct(product.id),
      (found) => found?.outOfStock === false,
    );
    expect(shown).toMatchObject({ outOfStock: false, sizeLowStock: { "Size 4": 1 } });
  }, 60_000);

  it("honours a payment that arrives after expiry: the order is paid and takes its stock again", async () => {
    const product = await productWith(3);
    const answer = (await buy(product, shopper)).json();
    const orderId = answer.orderId as string;
    await waitFor(
      () => orderOf(orderId),
      (found) => found.status === "cancelled",
      EXPIRY_WAIT_MS,
    );
    expect(await notify(orderId, answer.payfastData.amount)).toBe(200);

    expect(await orderOf(orderId)).toMatchObject({ status: "completed", cancelReason: null });
    expect(await stockOf(t.db, product.id, "Size 4")).toEqual({ quantity: 2, held: 0 });
  }, 60_000);

  it("flags a payment after expiry for the admin when the stock has gone meanwhile", async () => {
    const product = await productWith(1);
    const answer = (await buy(product, shopper)).json();
    const orderId = answer.orderId as string;
    await waitFor(
      () => orderOf(orderId),
      (found) => found.status === "cancelled",
      EXPIRY_WAIT_MS,
    );
    // Someone else buys the last pack and pays for it.
    const other = (await buy(product, admin)).json().orderId as string;
    await markPaid(other);

    expect(await notify(orderId, answer.payfastData.amount)).toBe(200);
    expect(await orderOf(orderId)).toMatchObject({ status: "completed" });
    expect(await stockOf(t.db, product.id, "Size 4")).toEqual({ quantity: 0, held: 0 });
    const attention = (
      await t.app.inject({ method: "GET", url: "/api/admin/payments/attention", headers: admin.headers })
    ).json() as { items: { orderId: string | null; kind: string; label: string }[] };
    expect(attention.items.find((item) => item.orderId === orderId)).toMatchObject({
      kind: "paid_out_of_stock",
      label: "Paid, but out of stock",
    });
  }, 60_000);
});

/** A COMPLETE ITN for the order as PayFast posts it (confirmed VALID by the stand-in above). */
async function notify(orderId: string, amount: string): Promise<number> {
  const pfPaymentId = String(randomInt(1_000_000, 10_000_000));
  const response = await t.app.inject({
    method: "POST",
    url: "/api/payfast/notify",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: completeItn(orderId, amount, pfPaymentId, shopper.user.email),
  });
  return response.statusCode;
}
