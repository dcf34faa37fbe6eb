import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOrder, orderStatus, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  ({ cookie } = await signInAsAdmin(t));
});
afterAll(() => t.close());

const patchStatus = (id: string, status: unknown, headers = { cookie }) =>
  t.app.inject({ method: "PATCH", url: `/api/admin/orders/${id}/status`, headers, payload: { status } });
const confirmPayment = (id: string) =>
  t.app.inject({ method: "PATCH", url: `/api/admin/orders/${id}/confirm-payment`, headers: { cookie } });

describe("admin access", () => {
  it("answers 401 to a request without a session", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/admin/orders" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: expect.any(String), code: "NOT_LOGGED_IN" });
  });

  it("answers 403 to a signed-in customer", async () => {
    const customer = await signIn(t);
    for (const url of ["/api/admin/orders", "/api/admin/orders/preparing", "/api/admin/users"]) {
      const response = await t.app.inject({ method: "GET", url, headers: { cookie: customer.cookie } });
      expect(response.statusCode).toBe(403);
    }
    const id = await insertOrder(t);
    const moved = await patchStatus(id, "completed", { cookie: customer.cookie });
    expect(moved.statusCode).toBe(403);
    expect((await orderStatus(t, id))?.status).toBe("pending");
  });
});

describe("GET /api/admin/orders", () => {
  it("answers a page of orders newest first with their lines and delivery details", async () => {
    const older = await insertOrder(t, { status: "processed", createdAt: new Date(Date.now() - 86_400_000) });
    const newer = await insertOrder(t, { status: "completed", customerEmail: "newer@example.co.za" });
    const response = await t.app.inject({ method: "GET", url: "/api/admin/orders", headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const { orders, nextCursor } = response.json() as { orders: { id: string; createdAt: string }[]; nextCursor: null };
    expect(nextCursor).toBeNull();
    const ids = orders.map((order) => order.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    const created = orders.map((order) => Date.parse(order.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(orders.find((order) => order.id === newer)).toMatchObject({
      status: "completed",
      customerEmail: "newer@example.co.za",
      deliveryProvince: "Gauteng",
      items: [expect.objectContaining({ quantity: 2, price: expect.stringMatching(/^\d+\.\d{2}$/) })],
      total: expect.stringMatching(/^\d+\.\d{2}$/),
    });
  });
});

describe("GET /api/admin/orders/preparing", () => {
  it("answers a page of only the pending orders and is never cached", async () => {
    const pending = await insertOrder(t);
    const paid = await insertOrder(t, { status: "completed" });
    const response = await t.app.inject({ method: "GET", url: "/api/admin/orders/preparing", headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const { orders } = response.json() as { orders: { id: string; status: string }[] };
    expect(orders.map((order) => order.id)).toContain(pending);
    expect(orders.map((order) => order.id)).not.toContain(paid);
    expect(orders.every((order) => order.status === "pending")).toBe(true);
  });
});

describe("PATCH /api/admin/orders/:id/status", () => {
  it("marks a pending order as paid, by the admin, and answers the updated order", async () => {
    const id = await insertOrder(t);
    const response = await patchStatus(id, "completed");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id, status: "completed", paidAt: expect.any(String) });
    const row = await orderStatus(t, id);
    expect(row).toMatchObject({ status: "completed", paidBy: "admin" });
    expect(row?.paidAt).toBeInstanceOf(Date);
  });

  it("marks a paid order as shipped and records when", async () => {
    const id = await insertOrder(t, { status: "completed" });
    const response = await patchStatus(id, "processed");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id, status: "processed" });
    expect((await orderStatus(t, id))?.shippedAt).toBeInstanceOf(Date);
  });

  it.each([
    ["pending", "processed"],
    ["pending", "pending"],
    ["completed", "pending"],
    ["completed", "completed"],
    ["processed", "completed"],
    ["processed", "pending"],
    ["processed", "processed"],
  ] as const)("refuses to move an order from %s to %s with 409", async (from, to) => {
    const id = await insertOrder(t, { status: from });
    const response = await patchStatus(id, to);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: `Cannot move an order from ${from} to ${to}`,
      code: "ORDER_STATUS_CONFLICT",
    });
    expect((await orderStatus(t, id))?.status).toBe(from);
  });

  it("refuses an unknown status with 400 naming the field", async () => {
    const id = await insertOrder(t);
    for (const status of ["shipped", "", 3, null]) {
      const response = await patchStatus(id, status);
      expect(response.statusCode).toBe(400);
      expect((response.json() as { message: string }).message).toMatch(/status/);
    }
    const missing = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${id}/status`,
      headers: { cookie },
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect((missing.json() as { message: string }).message).toMatch(/status/);
  });

  it("answers 404 for an unknown order and 400 for an id that is not a UUID", async () => {
    const unknown = await patchStatus(randomUUID(), "completed");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: "Order not found", code: "NOT_FOUND" });
    const malformed = await patchStatus("not-a-uuid", "completed");
    expect(malformed.statusCode).toBe(400);
    expect((malformed.json() as { message: string }).message).toMatch(/id/);
  });

  it("makes exactly one transition of 50 concurrent requests and refuses the rest with 409", async () => {
    const id = await insertOrder(t);
    const responses = await Promise.all(Array.from({ length: 50 }, () => patchStatus(id, "completed")));
    const codes = responses.map((response) => response.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(49);
    expect((await orderStatus(t, id))?.status).toBe("completed");
  });
});

describe("PATCH /api/admin/orders/:id/confirm-payment", () => {
  it("moves a pending order to completed, paid by the admin", async () => {
    const id = await insertOrder(t);
    const response = await confirmPayment(id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id, status: "completed", paidAt: expect.any(String) });
    expect(await orderStatus(t, id)).toMatchObject({ status: "completed", paidBy: "admin" });
    const preparing = await t.app.inject({ method: "GET", url: "/api/admin/orders/preparing", headers: { cookie } });
    expect((preparing.json() as { orders: { id: string }[] }).orders.map((order) => order.id)).not.toContain(id);
  });

  it("refuses with 409 an order that is no longer pending", async () => {
    for (const status of ["completed", "processed"] as const) {
      const id = await insertOrder(t, { status });
      const response = await confirmPayment(id);
      expect(response.statusCode).toBe(409);
      expect((response.json() as { message: string }).message).toContain(status);
      expect((await orderStatus(t, id))?.status).toBe(status);
    }
  });

  it("confirms a payment once when it is confirmed many times at once", async () => {
    const id = await insertOrder(t);
    const responses = await Promise.all(Array.from({ length: 20 }, () => confirmPayment(id)));
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(1);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(19);
  });

  it("answers 404 for an unknown order", async () => {
    const response = await confirmPayment(randomUUID());
    expect(response.statusCode).toBe(404);
  });
});
