import { createHmac } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emails, orders, shipmentEvents, shipments } from "#server/platform/db/schema.js";
import { insertOrder, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { withSubjects } from "../helpers/outbox.js";
import { waitFor } from "../helpers/wait.js";

/**
 * Waybills and tracking against the courier emulator (docs/decisions/051, round 2): booking with
 * the chosen service, the label kept, signed webhooks applied once and never backwards, the hourly
 * poll, the delivery e-mails and the tracking page's signed link.
 */
let t: TestApp;
let admin: string;
let lockerCode: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAsAdmin(t)).cookie;
  const points = await t.app.inject({ method: "GET", url: "/api/delivery/points?service=locker&near=2196" });
  lockerCode = (points.json() as { points: { code: string }[] }).points[0]?.code ?? "";
});
afterAll(() => t.close());
beforeEach(() => t.app.delivery.emulator?.reset());

const emulator = () => {
  const found = t.app.delivery.emulator;
  if (!found) throw new Error("no courier emulator");
  return found;
};

async function paidOrder(service: "door_economy" | "locker" = "door_economy", userId: string | null = null) {
  const id = await insertOrder(t, { status: "completed", userId });
  await t.db
    .update(orders)
    .set({
      deliveryService: service,
      deliveryZipCode: "2196",
      ...(service === "locker" ? { deliveryPointCode: lockerCode, deliveryPointName: "A locker" } : {}),
    })
    .where(eq(orders.id, id));
  return id;
}

const createWaybill = (id: string) =>
  t.app.inject({ method: "POST", url: `/api/admin/orders/${id}/waybill`, headers: { cookie: admin } });

async function shipmentOf(orderId: string) {
  const [row] = await t.db.select().from(shipments).where(eq(shipments.orderId, orderId));
  if (!row) throw new Error("no shipment");
  return row;
}

const eventsOf = async (shipmentId: string) =>
  t.db
    .select()
    .from(shipmentEvents)
    .where(eq(shipmentEvents.shipmentId, shipmentId))
    .orderBy(shipmentEvents.occurredAt);

const deliveryMails = (orderId: string) =>
  t.db
    .select()
    .from(emails)
    .where(
      and(
        eq(emails.kind, "delivery_update"),
        inArray(emails.eventKey, [
          `${orderId}:out_for_delivery`,
          `${orderId}:ready_for_collection`,
          `${orderId}:delivered`,
          `${orderId}:failed_attempt`,
          `${orderId}:lost`,
        ]),
      ),
    );

describe("Create waybill", () => {
  it("books a door order with ShipLogic, keeps the label PDF, and leaves the order paid until the courier collects", async () => {
    const id = await paidOrder();
    const response = await createWaybill(id);
    expect(response.statusCode).toBe(200);
    const shipment = await shipmentOf(id);
    expect(shipment).toMatchObject({ vendor: "shiplogic", state: "booked", serviceLevelCode: "ECO" });
    expect(shipment.waybillNumber).toMatch(/^SLX[0-9A-F]{6}$/);
    const label = await t.app.inject({
      method: "GET",
      url: `/api/admin/orders/${id}/label.pdf`,
      headers: { cookie: admin },
    });
    expect(label.statusCode).toBe(200);
    expect(label.headers["content-type"]).toBe("application/pdf");
    expect(label.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await t.db.select().from(orders).where(eq(orders.id, id)))[0]?.status).toBe("completed");
    expect((await createWaybill(id)).json()).toMatchObject({ code: "WAYBILL_REFUSED" });
  });

  it("books once when two admins press Create waybill at the same moment", async () => {
    const id = await paidOrder();
    const reference = id.slice(-8).toUpperCase();
    emulator().state.controls.delayMs = 150;
    const answers = await Promise.all([createWaybill(id), createWaybill(id)]);
    emulator().state.controls.delayMs = 0;
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    expect(refused?.json()).toMatchObject({ code: "WAYBILL_IN_PROGRESS", message: expect.stringMatching(/right now/) });
    const booked = [...emulator().state.shipments.byId.values()].filter(
      (shipment) => shipment.customerReference === reference,
    );
    expect(booked).toHaveLength(1);
    expect(await t.db.select().from(shipments).where(eq(shipments.orderId, id))).toHaveLength(1);
  });

  it("keeps the label although the courier's link expires after 24 hours (403 from the courier)", async () => {
    const id = await paidOrder();
    await createWaybill(id);
    const shipment = await shipmentOf(id);
    const link = await t.app.inject({
      method: "GET",
      url: `/courier-emulator/shiplogic/shipments/label?id=${shipment.vendorShipmentId}`,
      headers: { authorization: "Bearer emulator-shiplogic-token" },
    });
    const url = (link.json() as { url: string }).url;
    expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(200);
    emulator().state.shipments.controls.clockAheadMs = 24 * 3_600_000 + 1_000;
    const expired = await t.app.inject({ method: "GET", url });
    expect(expired.statusCode).toBe(403);
    expect(expired.body).toMatch(/Request has expired/);
    const kept = await t.app.inject({
      method: "GET",
      url: `/api/admin/orders/${id}/label.pdf`,
      headers: { cookie: admin },
    });
    expect(kept.statusCode).toBe(200);
  });

  it("creates a waybill for ten orders paid today at once", async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, () => paidOrder()));
    const response = await t.app.inject({
      method: "POST",
      url: "/api/admin/orders/waybills",
      headers: { cookie: admin },
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json() as { created: { orderId: string }[]; failed: unknown[] };
    expect(answer.failed).toEqual([]);
    expect(answer.created.map((made) => made.orderId)).toEqual(expect.arrayContaining(ids));
    const rows = await t.db.select().from(shipments).where(inArray(shipments.orderId, ids));
    expect(new Set(rows.map((row) => row.waybillNumber)).size).toBe(10);
  });

  it("refuses a stale locker rate revision at the courier, quotes again and books at the new one", async () => {
    const id = await paidOrder("locker");
    const rates = await t.app.delivery.api.lockerRates(t.app.delivery.quotes.from, lockerCode);
    const old = rates[0]?.rateRevisionId ?? "";
    await t.db.update(orders).set({ deliveryRateRevisionId: old }).where(eq(orders.id, id));
    emulator().staleRevisions();
    const direct = await t.app.inject({
      method: "POST",
      url: "/courier-emulator/tcg-locker/api/v1/shipments",
      headers: { authorization: "Bearer emulator-tcg-locker-key" },
      payload: {
        collection_address: { code: "2196" },
        delivery_address: { terminal_id: lockerCode },
        delivery_contact: { name: "T", mobile_number: "0825550101" },
        service_level_code: "D2LS - ECO",
        rate_revision_id: old,
      },
    });
    expect(direct.statusCode).toBe(409);
    expect(direct.json().message).toMatch(/rate_revision_id .* no longer valid/);
    expect((await createWaybill(id)).statusCode).toBe(200);
    const [order] = await t.db.select().from(orders).where(eq(orders.id, id));
    expect(order?.deliveryRateRevisionId).not.toBe(old);
    expect((await shipmentOf(id)).vendor).toBe("tcg_locker");
  });

  it("refuses a full locker at booking with the courier's reason, and books nothing", async () => {
    const id = await paidOrder("locker");
    emulator().state.controls.fullLockers.add(lockerCode);
    const response = await createWaybill(id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: "WAYBILL_REFUSED",
      message: expect.stringMatching(/no available boxes/),
    });
    expect(await t.db.select().from(shipments).where(eq(shipments.orderId, id))).toEqual([]);
  });
});

describe("tracking", () => {
  it("a locker parcel: collected ships the order, and its PIN reaches the customer by e-mail", async () => {
    const id = await paidOrder("locker");
    await createWaybill(id);
    const shipment = await shipmentOf(id);
    emulator().advance(shipment.trackingReference, ["collected", "in-transit", "in-locker"]);
    const ready = await waitFor(
      () => shipmentOf(id),
      (row) => row.state === "ready_for_collection",
    );
    expect(ready.lockerPin).toMatch(/^\d{6}$/);
    const [order] = await t.db.select().from(orders).where(eq(orders.id, id));
    expect(order).toMatchObject({ status: "processed", trackingNumber: shipment.waybillNumber });
    const [mail] = withSubjects(t, await deliveryMails(id));
    expect(mail?.eventKey).toBe(`${id}:ready_for_collection`);
    expect(mail?.subject).toMatch(/ready for collection/);
    expect(mail?.data).toMatchObject({ pin: ready.lockerPin });
  });

  it("duplicated and out-of-order webhooks leave one clean timeline, and delivered records the delivery date", async () => {
    const id = await paidOrder();
    await createWaybill(id);
    const shipment = await shipmentOf(id);
    Object.assign(emulator().state.shipments.controls, { duplicateWebhooks: true, reverseWebhooks: true });
    emulator().advance(shipment.trackingReference);
    // Eight webhooks, newest first: all kept once, whatever order they came in.
    const events = await waitFor(
      () => eventsOf(shipment.id),
      (rows) => rows.length === 4,
    );
    expect((await shipmentOf(id)).state).toBe("delivered");
    expect(events.map((event) => event.state)).toEqual(["collected", "in_transit", "out_for_delivery", "delivered"]);
    const [order] = await t.db.select().from(orders).where(eq(orders.id, id));
    expect(order?.deliveredAt?.toISOString()).toBe(events.at(-1)?.occurredAt.toISOString());
    // Delivered came first: out for delivery (later) wrote nothing.
    expect((await deliveryMails(id)).map((mail) => mail.eventKey)).toEqual([`${id}:delivered`]);
  });

  it("a failed delivery says what happens next", async () => {
    const id = await paidOrder();
    await createWaybill(id);
    const shipment = await shipmentOf(id);
    emulator().state.shipments.controls.failDelivery = true;
    emulator().advance(shipment.trackingReference);
    await waitFor(
      () => shipmentOf(id),
      (row) => row.state === "failed_attempt",
    );
    const mails = await waitFor(
      () => deliveryMails(id),
      (rows) => rows.length === 2,
    );
    const failed = mails.find((mail) => mail.eventKey.endsWith("failed_attempt"));
    expect(failed?.data).toMatchObject({ nextStep: expect.stringMatching(/try again/) });
  });

  it("puts a lost parcel and a failed attempt in the admin's Needs attention until resolved, or until the courier tries again", async () => {
    const attention = async () => {
      const response = await t.app.inject({
        method: "GET",
        url: "/api/admin/payments/attention",
        headers: { cookie: admin },
      });
      expect(response.statusCode).toBe(200);
      return (response.json() as { items: { id: string; kind: string; waybillNumber?: string | null }[] }).items;
    };
    const lostId = await paidOrder();
    await createWaybill(lostId);
    const lost = await shipmentOf(lostId);
    emulator().state.shipments.controls.loseParcels = true;
    emulator().advance(lost.trackingReference, ["collected", "in-transit"]);
    await waitFor(
      () => shipmentOf(lostId),
      (row) => row.state === "lost",
    );
    const item = (await attention()).find((candidate) => candidate.id === `shipment-${lost.id}`);
    expect(item).toMatchObject({ kind: "delivery_lost", waybillNumber: lost.waybillNumber });
    const resolve = (id: string) =>
      t.app.inject({ method: "POST", url: `/api/admin/payments/attention/${id}/resolve`, headers: { cookie: admin } });
    expect((await resolve(`shipment-${lost.id}`)).statusCode).toBe(204);
    expect((await attention()).some((candidate) => candidate.id === `shipment-${lost.id}`)).toBe(false);
    expect((await resolve(`shipment-${lost.id}`)).statusCode).toBe(404);
    expect((await resolve("shipment-nope")).statusCode).toBe(400);

    emulator().state.shipments.controls.loseParcels = false;
    emulator().state.shipments.controls.failDelivery = true;
    const failedId = await paidOrder();
    await createWaybill(failedId);
    const failed = await shipmentOf(failedId);
    emulator().advance(failed.trackingReference, ["collected", "out-for-delivery", "delivered"]);
    await waitFor(
      () => shipmentOf(failedId),
      (row) => row.state === "failed_attempt",
    );
    expect((await attention()).find((candidate) => candidate.id === `shipment-${failed.id}`)?.kind).toBe(
      "delivery_failed_attempt",
    );
    emulator().state.shipments.controls.failDelivery = false;
    emulator().advance(failed.trackingReference, ["out-for-delivery"]);
    await waitFor(
      () => shipmentOf(failedId),
      (row) => row.state === "out_for_delivery",
    );
    expect((await attention()).some((candidate) => candidate.id === `shipment-${failed.id}`)).toBe(false);
  });

  it("catches a lost webhook with the hourly poll", async () => {
    const id = await paidOrder();
    await createWaybill(id);
    const shipment = await shipmentOf(id);
    emulator().state.shipments.controls.loseWebhooks = true;
    emulator().advance(shipment.trackingReference, ["collected", "in-transit"]);
    expect((await shipmentOf(id)).state).toBe("booked");
    await t.app.pollTracking();
    expect((await shipmentOf(id)).state).toBe("in_transit");
    expect((await eventsOf(shipment.id)).map((event) => event.source)).toEqual(["poll", "poll"]);
  });

  it("refuses an unsigned or wrongly signed webhook with 401 and changes nothing", async () => {
    const id = await paidOrder();
    await createWaybill(id);
    const shipment = await shipmentOf(id);
    const body = JSON.stringify({
      short_tracking_reference: shipment.trackingReference,
      tracking_events: [{ id: 1, status: "delivered", date: new Date().toISOString(), message: "" }],
    });
    const post = (headers: Record<string, string>) =>
      t.app.inject({
        method: "POST",
        url: "/api/delivery/webhooks/shiplogic",
        headers: { "content-type": "application/json", ...headers },
        payload: body,
      });
    const unsigned = await post({});
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toEqual({ message: expect.any(String), code: "WEBHOOK_UNSIGNED" });
    const wrong = createHmac("sha256", "not-the-shops-secret-at-all").update(body).digest("hex");
    expect((await post({ "x-shiplogic-signature": wrong })).statusCode).toBe(401);
    expect((await shipmentOf(id)).state).toBe("booked");
    expect(await eventsOf(shipment.id)).toEqual([]);
    const right = createHmac("sha256", t.app.config.courier.webhookSecret).update(body).digest("hex");
    expect((await post({ "x-shiplogic-signature": right })).statusCode).toBe(200);
  });
});

describe("the tracking page", () => {
  it("opens for the order's owner, and through the e-mail's signed link without login; nobody else", async () => {
    const owner = await signIn(t);
    const id = await paidOrder("door_economy", owner.id);
    await createWaybill(id);
    const shipment = await shipmentOf(id);
    emulator().advance(shipment.trackingReference, ["collected", "in-transit", "out-for-delivery"]);
    const [mail] = await waitFor(
      () => deliveryMails(id),
      (rows) => rows.length === 1,
    );
    const link = new URL((mail?.data as { trackingUrl?: string } | undefined)?.trackingUrl ?? "http://x/none");
    const byLink = await t.app.inject({ method: "GET", url: `/api/orders/${id}/tracking${link.search}` });
    expect(byLink.statusCode).toBe(200);
    expect(byLink.json()).toMatchObject({ shipment: { state: "out_for_delivery" }, events: [{}, {}, {}] });
    const byOwner = await t.app.inject({
      method: "GET",
      url: `/api/orders/${id}/tracking`,
      headers: { cookie: owner.cookie },
    });
    expect(byOwner.statusCode).toBe(200);
    const stranger = await signIn(t);
    for (const headers of [{}, { cookie: stranger.cookie }]) {
      expect((await t.app.inject({ method: "GET", url: `/api/orders/${id}/tracking`, headers })).statusCode).toBe(404);
    }
    const forged = `${link.searchParams.get("t")?.slice(0, -2)}AA`;
    expect((await t.app.inject({ method: "GET", url: `/api/orders/${id}/tracking?t=${forged}` })).statusCode).toBe(404);
  });
});
