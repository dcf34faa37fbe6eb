import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimal } from "#domain/money.js";
import { order as orderSchema } from "#domain/schemas/orders.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { inStockSizes, type StockedProduct, sizePriceCents, stockedCatalog } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
let owner: LoggedInUser;
let stranger: LoggedInUser;
let admin: LoggedInUser;
let firstOrderId: string;
let secondOrderId: string;
let product: StockedProduct;
/** What the ordered size costs. */
let unitCents: number;

beforeAll(async () => {
  t = await buildTestApp();
  [owner, stranger, admin] = await Promise.all([
    registerAndLogin(t),
    registerAndLogin(t),
    registerAndLogin(t, { admin: true }),
  ]);
  const catalogue = await stockedCatalog(t.db);
  const found = catalogue.find((candidate) => inStockSizes(candidate).length > 0);
  if (!found) throw new Error("no orderable product in the seed");
  product = found;
  unitCents = sizePriceCents(found, inStockSizes(found)[0] as string);
  firstOrderId = await placeOrder(owner, 1);
  secondOrderId = await placeOrder(owner, 2);
});
afterAll(() => t.close());

async function placeOrder(user: LoggedInUser, quantity: number): Promise<string> {
  const size = inStockSizes(product)[0] as string;
  const subtotal = unitCents * quantity;
  const fee = subtotal >= 50_000 ? 0 : 7_500;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: user.headers,
    payload: {
      subtotal: Number(centsToDecimal(subtotal)),
      deliveryFee: Number(centsToDecimal(fee)),
      total: Number(centsToDecimal(subtotal + fee)),
      items: [{ id: product.id, name: product.name, size, quantity, price: Number(centsToDecimal(unitCents)) }],
      customerEmail: user.user.email,
      userId: user.user.id,
      deliveryInfo: {
        name: user.user.fullName,
        phone: "082 555 0101",
        email: user.user.email,
        address: "12 Jacaranda Street",
        city: "Pretoria",
        province: "Gauteng",
        zipCode: "0181",
        suburb: "Hatfield",
      },
    },
  });
  if (response.statusCode !== 200) throw new Error(`create-order failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { orderId: string }).orderId;
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });

describe("GET /api/orders/:id", () => {
  it("answers the order to its owner in the wire shape of docs/product.md §3", async () => {
    const response = await get(`/api/orders/${firstOrderId}`, owner.headers);
    expect(response.statusCode).toBe(200);
    const order = orderSchema.parse(response.json());
    expect(order).toMatchObject({
      id: firstOrderId,
      userId: owner.user.id,
      status: "pending",
      subtotal: centsToDecimal(unitCents),
      customerEmail: owner.user.email,
      paidAt: null,
      cancelReason: null,
      cancelledAt: null,
      deliveryProvince: "Gauteng",
    });
    expect(order.items).toEqual([
      {
        productId: product.id,
        name: product.name,
        size: expect.any(String),
        quantity: 1,
        price: centsToDecimal(unitCents),
        discount: "0.00",
        multibuyDiscount: "0.00",
        lineId: expect.any(Number),
      },
    ]);
    expect(order).toMatchObject({ promoCode: null, discount: "0.00", deliveryDiscount: "0.00" });
  });

  it("answers the order to an admin", async () => {
    const response = await get(`/api/orders/${firstOrderId}`, admin.headers);
    expect(response.statusCode).toBe(200);
    expect((response.json() as { id: string }).id).toBe(firstOrderId);
  });

  it("answers another customer's order with the very 404 of a missing one, so ids cannot be probed", async () => {
    const theirs = await get(`/api/orders/${firstOrderId}`, stranger.headers);
    const missing = await get(`/api/orders/${randomUUID()}`, stranger.headers);
    expect(theirs.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(theirs.body).toBe(missing.body);
    expect(theirs.json()).toEqual({ message: "Order not found", code: "NOT_FOUND" });
    expect(theirs.headers["content-type"]).toBe(missing.headers["content-type"]);
  });

  it("answers cancelling another customer's order with the same 404, and cancels nothing", async () => {
    const theirs = await t.app.inject({
      method: "POST",
      url: `/api/orders/${firstOrderId}/cancel`,
      headers: stranger.headers,
    });
    const missing = await t.app.inject({
      method: "POST",
      url: `/api/orders/${randomUUID()}/cancel`,
      headers: stranger.headers,
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(missing.body);
    expect((await get(`/api/orders/${firstOrderId}`, owner.headers)).json()).toMatchObject({ status: "pending" });
  });

  it("asks a guest to log in", async () => {
    const response = await get(`/api/orders/${firstOrderId}`);
    expect(response.statusCode).toBe(401);
  });

  it("answers 404 for an unknown order", async () => {
    const response = await get(`/api/orders/${randomUUID()}`, owner.headers);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "Order not found", code: "NOT_FOUND" });
  });

  it("answers 400 for an id that is not a UUID", async () => {
    const response = await get("/api/orders/not-an-id", owner.headers);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: expect.any(String), code: "VALIDATION_FAILED" });
  });
});

describe("GET /api/users/:id/orders", () => {
  it("lists a customer's own orders, newest first", async () => {
    const response = await get(`/api/users/${owner.user.id}/orders`, owner.headers);
    expect(response.statusCode).toBe(200);
    const orders = response.json() as { id: string; items: { quantity: number }[] }[];
    expect(orders.map((order) => order.id)).toEqual([secondOrderId, firstOrderId]);
    expect(orders[0]?.items[0]?.quantity).toBe(2);
  });

  it("answers an empty list for a customer with no orders", async () => {
    const response = await get(`/api/users/${stranger.user.id}/orders`, stranger.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it("lets an admin see any customer's orders", async () => {
    const response = await get(`/api/users/${owner.user.id}/orders`, admin.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(2);
  });

  it("refuses another customer with 403", async () => {
    const response = await get(`/api/users/${owner.user.id}/orders`, stranger.headers);
    expect(response.statusCode).toBe(403);
  });

  it("asks a guest to log in", async () => {
    const response = await get(`/api/users/${owner.user.id}/orders`);
    expect(response.statusCode).toBe(401);
  });

  it("refuses an x-user-id header that disagrees with the session", async () => {
    const response = await get(`/api/users/${owner.user.id}/orders`, {
      cookie: owner.cookie,
      "x-user-id": stranger.user.id,
    });
    expect(response.statusCode).toBe(401);
  });
});
