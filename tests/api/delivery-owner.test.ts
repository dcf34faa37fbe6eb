import { createHmac } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_SIDE_MM, MAX_WEIGHT_GRAMS } from "#domain/limits.js";
import { DEFAULT_BOX_SIZES } from "#domain/parcels.js";
import { auditLog, orders, products, shipments } from "#server/platform/db/schema.js";
import { insertOrder, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { waitFor } from "../helpers/wait.js";

/**
 * The owner's side of delivery (docs/decisions/053): the boxes and each size's packed parcel in the
 * admin, a courier's re-weigh recorded against what was booked and what the customer paid, the
 * monthly delivery-cost report, and the dashboard's count of delivery problems.
 */
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAsAdmin(t)).cookie;
});
afterAll(() => t.close());
beforeEach(() => t.app.delivery.emulator?.reset());

const emulator = () => {
  const found = t.app.delivery.emulator;
  if (!found) throw new Error("no courier emulator");
  return found;
};
type Body = Record<string, unknown>;
const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: Body, cookie = admin) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

const box = { code: "xl", name: "Extra large box", lengthMm: 900, widthMm: 600, heightMm: 500, maxWeightGrams: 30_000 };

describe("the owner's boxes", () => {
  it("lists the defaults until the first change, which starts from them; adds, changes and removes, each audited", async () => {
    const first = (await call("GET", "/api/admin/delivery/boxes")).json() as { boxes: Body[]; usingDefaults: boolean };
    expect(first).toEqual({ boxes: DEFAULT_BOX_SIZES.map((size) => ({ ...size })), usingDefaults: true });

    const added = await call("POST", "/api/admin/delivery/boxes", box);
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({ ...box, code: "XL" });
    const listed = (await call("GET", "/api/admin/delivery/boxes")).json() as { boxes: Body[]; usingDefaults: boolean };
    expect(listed.usingDefaults).toBe(false);
    expect(listed.boxes.map((row) => row.code)).toEqual(["S", "M", "L", "XL"]);

    const again = await call("POST", "/api/admin/delivery/boxes", { ...box, code: "XL" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: "ALREADY_EXISTS", message: expect.stringMatching(/XL/) });

    const changed = await call("PUT", "/api/admin/delivery/boxes/xl", { ...box, code: "XL", maxWeightGrams: 28_000 });
    expect(changed.statusCode).toBe(200);
    expect((await call("PUT", "/api/admin/delivery/boxes/NOPE", box)).statusCode).toBe(404);
    const renamedOntoAnother = await call("PUT", "/api/admin/delivery/boxes/XL", { ...box, code: "M" });
    expect(renamedOntoAnother.json()).toMatchObject({ code: "ALREADY_EXISTS" });

    expect((await call("DELETE", "/api/admin/delivery/boxes/S")).statusCode).toBe(204);
    expect((await call("DELETE", "/api/admin/delivery/boxes/S")).statusCode).toBe(404);
    const actions = await t.db
      .select({
        action: auditLog.action,
        subjectId: auditLog.subjectId,
        before: auditLog.before,
        after: auditLog.after,
      })
      .from(auditLog)
      .where(eq(auditLog.subjectType, "delivery_box"))
      .orderBy(auditLog.id);
    expect(actions).toEqual([
      { action: "delivery_box.created", subjectId: "XL", before: null, after: { ...box, code: "XL" } },
      {
        action: "delivery_box.updated",
        subjectId: "XL",
        before: { ...box, code: "XL" },
        after: { ...box, code: "XL", maxWeightGrams: 28_000 },
      },
      { action: "delivery_box.deleted", subjectId: "S", before: DEFAULT_BOX_SIZES[0], after: null },
    ]);
  });

  it("keeps at least one box", async () => {
    const { boxes } = (await call("GET", "/api/admin/delivery/boxes")).json() as { boxes: { code: string }[] };
    for (const row of boxes.slice(1))
      expect((await call("DELETE", `/api/admin/delivery/boxes/${row.code}`)).statusCode).toBe(204);
    const last = await call("DELETE", `/api/admin/delivery/boxes/${boxes[0]?.code}`);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({
      code: "DELIVERY_BOX_LAST",
      message: expect.stringMatching(/at least one box/),
    });
    // Put the defaults back for the tests after.
    for (const size of DEFAULT_BOX_SIZES) {
      if (size.code !== boxes[0]?.code) await call("POST", "/api/admin/delivery/boxes", { ...size });
    }
  });

  it("refuses measures at the edges with a message naming the field, and customers", async () => {
    const refused = async (patch: Body, pattern: RegExp) => {
      const response = await call("POST", "/api/admin/delivery/boxes", { ...box, code: "EDGE", ...patch });
      expect(response.statusCode, JSON.stringify(patch)).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED", message: expect.stringMatching(pattern) });
    };
    await refused({ lengthMm: 0 }, /length must be more than 0/);
    await refused({ widthMm: -5 }, /width must be more than 0/);
    await refused({ heightMm: MAX_SIDE_MM + 1 }, /height must be at most 2000/);
    await refused({ maxWeightGrams: MAX_WEIGHT_GRAMS + 1 }, /most weight must be at most 70000/);
    await refused({ lengthMm: 10.5 }, /whole number/);
    await refused({ lengthMm: "big" }, /number/);
    await refused({ code: "a b" }, /code must be letters/);
    await refused({ name: "" }, /name is required/);
    const atTheEdge = await call("POST", "/api/admin/delivery/boxes", {
      ...box,
      code: "EDGE",
      lengthMm: MAX_SIDE_MM,
      maxWeightGrams: MAX_WEIGHT_GRAMS,
      heightMm: 1,
    });
    expect(atTheEdge.statusCode).toBe(201);
    expect((await call("DELETE", "/api/admin/delivery/boxes/EDGE")).statusCode).toBe(204);

    const customer = (await signIn(t)).cookie;
    expect((await call("GET", "/api/admin/delivery/boxes", undefined, customer)).statusCode).toBe(403);
    expect((await call("POST", "/api/admin/delivery/boxes", box, customer)).statusCode).toBe(403);
  });
});

describe("a product size's packed parcel", () => {
  it("is set in the product's form, kept for listed sizes only, left alone when left out, and audited", async () => {
    const listed = (await call("GET", "/api/admin/products")).json() as Body[];
    const product = listed.find((row) => (row.sizes as string[]).length >= 2) as Body;
    const [size, other] = product.sizes as string[];
    const form = {
      name: product.name,
      category: product.category,
      price: product.price,
      image: product.image,
      description: product.description,
      sizes: product.sizes,
    };
    const pack = { weightGrams: 2_250, lengthMm: 410, widthMm: 260, heightMm: 160 };
    const saved = await call("PUT", `/api/admin/products/${product.id}`, {
      ...form,
      sizeParcels: { [size as string]: pack, Gone: pack },
    });
    expect(saved.statusCode).toBe(200);
    expect((saved.json() as Body).sizeParcels).toEqual({ [size as string]: pack });
    const [row] = await t.db
      .select({ sizeParcels: products.sizeParcels })
      .from(products)
      .where(eq(products.id, product.id as string));
    expect(row?.sizeParcels).toEqual({ [size as string]: pack });
    // Left out: the product keeps its own.
    const kept = await call("PUT", `/api/admin/products/${product.id}`, form);
    expect((kept.json() as Body).sizeParcels).toEqual({ [size as string]: pack });
    const [audit] = await t.db
      .select({ before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, "product.updated"), eq(auditLog.subjectId, product.id as string)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit?.after).toMatchObject({ sizeParcels: { [size as string]: pack } });

    const refused = async (parcel: Body, pattern: RegExp) => {
      const response = await call("PUT", `/api/admin/products/${product.id}`, {
        ...form,
        sizeParcels: { [other as string]: parcel },
      });
      expect(response.statusCode, JSON.stringify(parcel)).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED", message: expect.stringMatching(pattern) });
    };
    await refused({ ...pack, weightGrams: 0 }, /weight must be more than 0/);
    await refused({ ...pack, heightMm: MAX_SIDE_MM + 1 }, /height must be at most 2000/);
    await refused({ ...pack, weightGrams: MAX_WEIGHT_GRAMS + 1 }, /weight must be at most 70000/);
    await refused({ weightGrams: 500 }, /length must be a number/);
  });
});

async function bookedDoorOrder() {
  const id = await insertOrder(t, { status: "completed" });
  await t.db.update(orders).set({ deliveryService: "door_economy", deliveryZipCode: "2196" }).where(eq(orders.id, id));
  const booked = await call("POST", `/api/admin/orders/${id}/waybill`);
  expect(booked.statusCode).toBe(200);
  const [shipment] = await t.db.select().from(shipments).where(eq(shipments.orderId, id));
  if (!shipment) throw new Error("no shipment");
  return { id, shipment };
}

const shipmentOf = async (orderId: string) =>
  (await t.db.select().from(shipments).where(eq(shipments.orderId, orderId)))[0];

describe("a courier's re-weigh", () => {
  it("keeps the courier's new charge beside the booked one, and the order page shows both with the customer's fee", async () => {
    const { id, shipment } = await bookedDoorOrder();
    expect(shipment.chargedCents).toBeGreaterThan(0);
    emulator().state.shipments.controls.duplicateWebhooks = true;
    const control = await t.app.inject({
      method: "POST",
      url: "/courier-emulator/control/reweigh",
      payload: { tracking_reference: shipment.trackingReference, weight_kg: 25 },
    });
    expect(control.statusCode).toBe(200);
    const newRate = (control.json() as { rate: number }).rate;
    const after = await waitFor(
      () => shipmentOf(id),
      (row) => row?.finalChargedCents != null,
    );
    expect(after?.finalChargedCents).toBe(Math.round(newRate * 100));
    expect(after?.finalChargedCents).toBeGreaterThan(shipment.chargedCents ?? 0);
    expect(after?.reweighedGrams).toBe(25_000);

    const page = (await call("GET", `/api/admin/orders/${id}/shipment`)).json() as { shipment: Body };
    const [order] = await t.db.select().from(orders).where(eq(orders.id, id));
    expect(page.shipment).toMatchObject({
      chargedCents: shipment.chargedCents,
      finalChargedCents: after?.finalChargedCents,
      reweighedGrams: 25_000,
      reweighedAt: expect.any(String),
      customerPaidCents: order?.deliveryFeeCents,
    });
  });

  it("answers 503 when the courier cannot say what it charges (the webhook is sent again), 404 for an unknown parcel, 401 unsigned", async () => {
    const { id, shipment } = await bookedDoorOrder();
    const send = (payload: Body, signed = true) => {
      const body = JSON.stringify(payload);
      const signature = createHmac("sha256", t.app.config.courier.webhookSecret).update(body).digest("hex");
      return t.app.inject({
        method: "POST",
        url: "/api/delivery/webhooks/shiplogic",
        headers: { "content-type": "application/json", ...(signed ? { "x-shiplogic-signature": signature } : {}) },
        payload: body,
      });
    };
    const reweigh = {
      shipment_id: Number(shipment.vendorShipmentId),
      shipment_tracking_reference: shipment.trackingReference,
      event_type: "parcel-dimension-changes",
      event_time: new Date().toISOString(),
      weight_kg: 30,
    };
    emulator().state.controls.down = true;
    const down = await send(reweigh);
    emulator().state.controls.down = false;
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect((await shipmentOf(id))?.finalChargedCents).toBeNull();
    expect((await send({ ...reweigh, shipment_tracking_reference: "NOPE00" })).statusCode).toBe(404);
    expect((await send(reweigh, false)).statusCode).toBe(401);
    // Delivered again later: the charge is the courier's (unchanged here: the emulator was not re-weighed).
    expect((await send(reweigh)).statusCode).toBe(200);
    expect((await shipmentOf(id))?.finalChargedCents).toBe(shipment.chargedCents);
  });

  it("reaches the shop through the hourly poll when its webhook was lost: the delivered parcel's charge is asked once more", async () => {
    const { id, shipment } = await bookedDoorOrder();
    emulator().state.shipments.controls.loseWebhooks = true;
    try {
      const newRate = emulator().reweigh(shipment.trackingReference, 30);
      if (newRate === null) throw new Error("no re-weigh");
      emulator().advance(shipment.trackingReference, ["collected", "in-transit"]);
      await t.app.pollTracking();
      // In transit: the poll leaves the charge alone (a re-weigh may still come).
      expect((await shipmentOf(id))?.finalChargedCents).toBeNull();
      emulator().advance(shipment.trackingReference, ["out-for-delivery", "delivered"]);
      await t.app.pollTracking();
      const after = await shipmentOf(id);
      expect(after?.state).toBe("delivered");
      expect(after?.finalChargedCents).toBe(Math.round(newRate * 100));
      expect(after?.finalChargedCents).toBeGreaterThan(shipment.chargedCents ?? 0);
      expect(after?.reweighedGrams).toBeNull();
    } finally {
      emulator().state.shipments.controls.loseWebhooks = false;
    }
  });

  it("is refused for a locker parcel by the emulator's control (a locker is priced by its box)", async () => {
    const missing = await t.app.inject({
      method: "POST",
      url: "/courier-emulator/control/reweigh",
      payload: { tracking_reference: "NOPE", weight_kg: 3 },
    });
    expect(missing.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: "POST",
      url: "/courier-emulator/control/reweigh",
      payload: { tracking_reference: "NOPE", weight_kg: 0 },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("the monthly delivery-cost report", () => {
  it("sets what customers paid against what the courier quoted and charged after re-weighs, per month of shipping", async () => {
    const reweighed = await bookedDoorOrder();
    emulator().reweigh(reweighed.shipment.trackingReference, 20);
    const charged = await waitFor(
      () => shipmentOf(reweighed.id),
      (row) => row?.finalChargedCents != null,
    );
    const plain = await bookedDoorOrder();
    const byHand = await insertOrder(t, { status: "processed" });
    // Shipped on the month's first and last South African days; one a minute into the next month.
    await t.db
      .update(orders)
      .set({ shippedAt: new Date("2025-02-28T22:30:00Z") })
      .where(eq(orders.id, reweighed.id));
    await t.db
      .update(orders)
      .set({ shippedAt: new Date("2025-03-31T21:59:00Z") })
      .where(eq(orders.id, plain.id));
    await t.db
      .update(orders)
      .set({ shippedAt: new Date("2025-03-15T10:00:00Z") })
      .where(eq(orders.id, byHand));
    const late = await insertOrder(t, { status: "processed" });
    await t.db
      .update(orders)
      .set({ shippedAt: new Date("2025-03-31T22:01:00Z") })
      .where(eq(orders.id, late));
    const fees = await t.db.select({ id: orders.id, fee: orders.deliveryFeeCents }).from(orders);
    const feeOf = (orderId: string) => fees.find((row) => row.id === orderId)?.fee ?? 0;

    const response = await call("GET", "/api/admin/delivery-costs?from=2025-02&to=2025-04");
    expect(response.statusCode).toBe(200);
    const report = response.json() as { first: string; last: string; months: Body[]; total: Body };
    expect(report.first).toBe("2025-02-01");
    expect(report.last).toBe("2025-04-30");
    const quoted = (reweighed.shipment.chargedCents ?? 0) + (plain.shipment.chargedCents ?? 0);
    const courier = (charged?.finalChargedCents ?? 0) + (plain.shipment.chargedCents ?? 0);
    const paid = feeOf(reweighed.id) + feeOf(plain.id);
    expect(report.months).toEqual([
      expect.objectContaining({ month: "2025-02", ordersShipped: 0 }),
      {
        month: "2025-03",
        ordersShipped: 3,
        withWaybill: 2,
        customersPaidCents: paid,
        quotedCents: quoted,
        adjustmentsCents: (charged?.finalChargedCents ?? 0) - (reweighed.shipment.chargedCents ?? 0),
        courierChargedCents: courier,
        differenceCents: paid - courier,
      },
      expect.objectContaining({ month: "2025-04", ordersShipped: 1, withWaybill: 0, courierChargedCents: 0 }),
    ]);
    expect(report.total).toMatchObject({ month: "total", ordersShipped: 4, courierChargedCents: courier });
    expect((report.months[1]?.adjustmentsCents as number) > 0).toBe(true);

    const csv = await call("GET", "/api/admin/delivery-costs.csv?from=2025-03&to=2025-03");
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    expect(csv.headers["content-disposition"]).toBe(
      'attachment; filename="delivery-costs-2025-03-01-to-2025-03-31.csv"',
    );
    const lines = csv.body.trim().split("\n");
    expect(lines[0]).toBe(
      "Month,Orders shipped,With a waybill,Customers paid (R),Courier quoted (R),Re-weigh adjustments (R),Courier charged (R),Difference (R)",
    );
    expect(lines[1]).toMatch(/^2025-03,3,2,/);
    expect(lines[2]).toMatch(/^Total,3,2,/);
  });

  it("refuses a wrong period with a message", async () => {
    for (const [query, pattern] of [
      ["from=2025-13&to=2025-12", /from must be a month/],
      ["from=2025-05&to=2025-04", /to must not be before from/],
      ["from=2024-01&to=2025-01", /at most 12 months/],
      ["from=2025-01", /to must be a month/],
      ["from=0000-01&to=0000-01", /from must be 2020-01 or later/],
    ] as const) {
      const response = await call("GET", `/api/admin/delivery-costs?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED", message: expect.stringMatching(pattern) });
    }
    expect((await call("GET", "/api/admin/delivery-costs?from=2024-02&to=2025-01")).statusCode).toBe(200);
  });
});

describe("the dashboard", () => {
  it("counts delivery problems not resolved, within Needs attention's total", async () => {
    const dashboard = async () =>
      (await call("GET", "/api/admin/dashboard")).json() as { deliveryProblems: number; needsAttention: number };
    const before = await dashboard();
    const { id, shipment } = await bookedDoorOrder();
    emulator().state.shipments.controls.loseParcels = true;
    emulator().advance(shipment.trackingReference, ["collected", "in-transit"]);
    await waitFor(
      () => shipmentOf(id),
      (row) => row?.state === "lost",
    );
    const lost = await dashboard();
    expect(lost.deliveryProblems).toBe(before.deliveryProblems + 1);
    expect(lost.needsAttention).toBe(before.needsAttention + 1);
    const resolved = await call("POST", `/api/admin/payments/attention/shipment-${shipment.id}/resolve`);
    expect(resolved.statusCode).toBe(204);
    expect((await dashboard()).deliveryProblems).toBe(before.deliveryProblems);
  });
});
