import { randomInt } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canMoveOrder, nextOrderStatus, ORDER_STATUSES, type OrderStatus } from "#domain/order-status.js";
import { signItnFields } from "#server/payfast/signature.js";
import { PAYFAST_SANDBOX } from "#server/platform/config.js";
import { insertOrder, orderStatus, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

/**
 * Walks the order status machine (src/domain/order-status.ts, docs/decisions/028) through the
 * real routes: from every status, each mover asks for its move the way it does in the shop, and
 * the table decides. A person's request the table allows works; every other is a 409 and leaves
 * the order as it was. A payment and the expiry job answer no one: a move the table refuses
 * leaves the status as it was.
 */

/** Stands in for PayFast's /eng/query/validate: every notification is PayFast's. */
const validator = http.createServer((_, response) => response.writeHead(200).end("VALID"));

let t: TestApp;
let admin: { cookie: string };
let shopper: LoggedInUser;
beforeAll(async () => {
  await new Promise<void>((resolve) => validator.listen(0, "127.0.0.1", resolve));
  const { port } = validator.address() as AddressInfo;
  t = await buildTestApp({ PAYFAST_VALIDATE_URL: `http://127.0.0.1:${port}/eng/query/validate` });
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t);
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => validator.close(resolve));
});

const orderIn = (status: OrderStatus) => insertOrder(t, { status, userId: shopper.user.id });
const statusOf = async (id: string) => (await orderStatus(t, id))?.status;
const totalOf = async (id: string) => (await orderStatus(t, id))?.totalCents ?? 0;

describe("an admin's Mark as Paid and Mark as Shipped (PATCH /api/admin/orders/:id/status)", () => {
  const pairs = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as const));
  it.each(pairs)("from %s to %s: as the table says", async (from, to) => {
    const id = await orderIn(from);
    const response = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${id}/status`,
      headers: { cookie: admin.cookie },
      payload: { status: to },
    });
    if (nextOrderStatus(from) === to) {
      expect(canMoveOrder(from, to, "admin")).toBe(true);
      expect(response.statusCode).toBe(200);
      expect(await statusOf(id)).toBe(to);
    } else {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: "ORDER_STATUS_CONFLICT" });
      expect(await statusOf(id)).toBe(from);
    }
  });
});

describe("a cancel", () => {
  it.each(ORDER_STATUSES)("by an admin, from %s: as the table says", async (from) => {
    const id = await orderIn(from);
    const response = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${id}/cancel`,
      headers: { cookie: admin.cookie },
      payload: { reason: "The customer asked us by phone" },
    });
    const allowed = canMoveOrder(from, "cancelled", "admin");
    expect(response.statusCode).toBe(allowed ? 200 : 409);
    expect(await statusOf(id)).toBe(allowed ? "cancelled" : from);
  });

  it.each(ORDER_STATUSES)("by its shopper, from %s: as the table says", async (from) => {
    const id = await orderIn(from);
    const response = await t.app.inject({ method: "POST", url: `/api/orders/${id}/cancel`, headers: shopper.headers });
    const allowed = canMoveOrder(from, "cancelled", "shopper");
    expect(response.statusCode).toBe(allowed ? 200 : 409);
    expect(await statusOf(id)).toBe(allowed ? "cancelled" : from);
  });

  it("by the expiry job, from every status: only a pending order expires", async () => {
    const ids = new Map<OrderStatus, string>();
    for (const from of ORDER_STATUSES) ids.set(from, await insertOrder(t, { status: from, createdAt: new Date(0) }));
    await t.app.expireOrders();
    for (const [from, id] of ids) {
      expect(await statusOf(id)).toBe(canMoveOrder(from, "cancelled", "expiry") ? "cancelled" : from);
    }
  });
});

describe("a payment PayFast proved (POST /api/payfast/notify)", () => {
  it.each(ORDER_STATUSES)("from %s: pays the order only as the table says", async (from) => {
    const id = await orderIn(from);
    const amount = ((await totalOf(id)) / 100).toFixed(2);
    const fields: [string, string][] = [
      ["m_payment_id", id],
      ["pf_payment_id", String(randomInt(1_000_000, 10_000_000))],
      ["payment_status", "COMPLETE"],
      ["item_name", `Snug & Dry order ${id.slice(-8).toUpperCase()}`],
      ["amount_gross", amount],
      ["amount_fee", "-2.30"],
      ["amount_net", amount],
      ["email_address", "thandi@example.co.za"],
      ["merchant_id", PAYFAST_SANDBOX.merchantId],
    ];
    const response = await t.app.inject({
      method: "POST",
      url: "/api/payfast/notify",
      remoteAddress: "127.0.0.1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: signItnFields(fields, PAYFAST_SANDBOX.passphrase),
    });
    expect(response.statusCode).toBe(200);
    expect(await statusOf(id)).toBe(canMoveOrder(from, "completed", "payment") ? "completed" : from);
  });
});

describe("a refund in full (a refund made in PayFast's dashboard, recorded)", () => {
  it.each(ORDER_STATUSES)("from %s: as the table says", async (from) => {
    const id = await orderIn(from);
    const response = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${id}/refunds/record`,
      headers: { cookie: admin.cookie },
      payload: {
        amountCents: await totalOf(id),
        reason: "Refunded in PayFast",
        restock: false,
        refundedOn: "2026-01-05",
        payfastReference: `PF-${id.slice(-8)}`,
      },
    });
    const allowed = canMoveOrder(from, "refunded", "refund");
    expect(response.statusCode, response.body).toBe(allowed ? 200 : 409);
    expect(await statusOf(id)).toBe(allowed ? "refunded" : from);
  });
});
