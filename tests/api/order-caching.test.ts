import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimal } from "#domain/money.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { inStockSizes, sizePriceCents, stockedCatalog } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
let shopper: LoggedInUser;
let stranger: LoggedInUser;

beforeAll(async () => {
  t = await buildTestApp();
  [shopper, stranger] = await Promise.all([registerAndLogin(t), registerAndLogin(t)]);
});
afterAll(() => t.close());

async function createOrder(user: LoggedInUser) {
  const catalogue = await stockedCatalog(t.db);
  const product = catalogue.find((candidate) => inStockSizes(candidate).length > 0);
  if (!product) throw new Error("no orderable product in the seed");
  const size = inStockSizes(product)[0] as string;
  const priceCents = sizePriceCents(product, size);
  const fee = priceCents >= 50_000 ? 0 : 7_500;
  return t.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: user.headers,
    payload: {
      subtotal: Number(centsToDecimal(priceCents)),
      deliveryFee: Number(centsToDecimal(fee)),
      total: Number(centsToDecimal(priceCents + fee)),
      items: [{ id: product.id, name: product.name, size, quantity: 1, price: Number(centsToDecimal(priceCents)) }],
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
}

const get = (url: string, user?: LoggedInUser) =>
  t.app.inject({ method: "GET", url, headers: user ? user.headers : {} });

describe("order answers carry a name, a phone and an address, so no cache may keep them", () => {
  it("sends Cache-Control: no-store with a new order, the order and the customer's list of orders", async () => {
    const created = await createOrder(shopper);
    expect(created.statusCode).toBe(200);
    expect(created.headers["cache-control"]).toBe("no-store");
    const { orderId } = created.json() as { orderId: string };

    const one = await get(`/api/orders/${orderId}`, shopper);
    expect(one.statusCode).toBe(200);
    expect(one.headers["cache-control"]).toBe("no-store");

    const list = await get(`/api/users/${shopper.user.id}/orders`, shopper);
    expect(list.statusCode).toBe(200);
    expect(list.headers["cache-control"]).toBe("no-store");
  });

  it("sends no-store with the refusals of those routes too", async () => {
    const created = await createOrder(shopper);
    const { orderId } = created.json() as { orderId: string };
    for (const response of [
      await get(`/api/orders/${orderId}`, stranger),
      await get(`/api/orders/${randomUUID()}`, shopper),
      await get(`/api/users/${shopper.user.id}/orders`),
      await t.app.inject({ method: "POST", url: "/api/create-order", payload: {} }),
    ]) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.headers["cache-control"]).toBe("no-store");
    }
  });
});
