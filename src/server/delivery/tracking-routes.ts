import { createHmac, timingSafeEqual } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import { DELIVERY_SERVICE_LABELS } from "#domain/delivery.js";
import { WEBHOOK_BODY_LIMIT } from "#domain/limits.js";
import { orderNumber } from "#domain/order-status.js";
import type { OrderTracking } from "#domain/schemas/tracking.js";
import { nextStepText, SHIPMENT_STATE_LABELS } from "#domain/tracking.js";
import { orders, shipmentEvents, shipments } from "../platform/db/schema.js";
import { HttpError, notFound } from "../platform/errors.js";
import { recordReweigh, reweighOf } from "./charges.js";
import type { CourierVendor } from "./courier-api.js";
import { CourierError } from "./courier-http.js";
import { trackingEventOf } from "./shipments.js";
import { applyTrackingEvents, timelineEvent } from "./tracking.js";
import { trackingTokenOpens } from "./tracking-links.js";

const VENDORS: Record<string, CourierVendor> = { shiplogic: "shiplogic", "tcg-locker": "tcg_locker" };

/** The shop's check of a webhook's signature: HMAC-SHA256 of the exact body under COURIER_WEBHOOK_SECRET, hex. */
export function webhookSignatureValid(secret: string, body: string, header: unknown): boolean {
  if (typeof header !== "string" || !/^[0-9a-f]{64}$/i.test(header) || !secret) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(body, "utf8").digest("hex"));
  return timingSafeEqual(expected, Buffer.from(header.toLowerCase()));
}

/**
 * POST /api/delivery/webhooks/{shiplogic,tcg-locker}: the couriers' tracking events (decision 051,
 * round 2). The body is read as text and its signature checked before anything is parsed: unsigned or
 * wrongly signed, 401 and nothing changed. Each event is then kept once (tracking.ts); a re-weigh
 * (parcel-dimension-changes, decision 053) records the courier's new charge (charges.ts).
 */
export const trackingWebhookRoutes: FastifyPluginAsync = async (app) => {
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: WEBHOOK_BODY_LIMIT }, (_r, body, done) =>
    done(null, body),
  );
  app.post("/webhooks/:vendor", async (request, reply) => {
    const vendor = VENDORS[(request.params as { vendor: string }).vendor];
    if (!vendor) throw notFound("No such courier");
    const body = typeof request.body === "string" ? request.body : "";
    if (!webhookSignatureValid(app.config.courier.webhookSecret, body, request.headers["x-shiplogic-signature"])) {
      throw new HttpError(401, "The webhook's signature is missing or wrong.", "WEBHOOK_UNSIGNED");
    }
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(body) as Record<string, unknown>;
    } catch {
      throw new HttpError(400, "The webhook's body is not JSON.", "VALIDATION_FAILED");
    }
    // A re-weigh (parcel-dimension-changes): the charge asked again and kept beside the booked one.
    const reweigh = reweighOf(payload);
    if (reweigh) {
      const known = await recordReweigh({ db: app.db, api: app.delivery.api }, vendor, reweigh).catch((error) => {
        if (!(error instanceof CourierError)) throw error;
        throw new HttpError(
          503,
          "The courier did not say what it charges now; send the webhook again.",
          "SERVICE_UNAVAILABLE",
        );
      });
      if (!known) throw notFound(`No shipment with tracking reference ${reweigh.reference}`);
      return reply.status(200).send({ received: 1, new: 1 });
    }
    const reference = payload.short_tracking_reference;
    const events = Array.isArray(payload.tracking_events) ? payload.tracking_events.flatMap(trackingEventOf) : [];
    if (typeof reference !== "string" || events.length === 0) {
      throw new HttpError(
        400,
        "A tracking event needs short_tracking_reference and tracking_events.",
        "VALIDATION_FAILED",
      );
    }
    const added = await applyTrackingEvents(app.tracking, vendor, reference, events, "webhook");
    if (added === null) throw notFound(`No shipment with tracking reference ${reference}`);
    if (added > 0) app.mail.wake();
    return reply.status(200).send({ received: events.length, new: added });
  });
};

/**
 * GET /api/orders/:id/tracking: the order's parcel as its owner sees it (logged in), or anyone with
 * the e-mail's signed link (`?t=`, no login): the chosen option, the timeline, the locker PIN when it
 * is ready. Anyone else: 404, as for an order that does not exist.
 */
export const trackingPageRoutes: FastifyPluginAsync = async (app) => {
  app.get("/orders/:id/tracking", async (request, reply) => {
    const { id } = request.params as { id: string };
    const token = (request.query as { t?: unknown }).t;
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound("Order not found");
    const [order] = await app.db.select().from(orders).where(eq(orders.id, id));
    const ownerAsks = order !== undefined && request.user !== null && request.user?.id === order.userId;
    const linkOpens =
      order !== undefined && typeof token === "string" && trackingTokenOpens(await app.tracking.linkKey(), id, token);
    if (!order || !(ownerAsks || linkOpens)) throw notFound("Order not found");
    const [shipment] = await app.db.select().from(shipments).where(eq(shipments.orderId, id));
    const events = shipment
      ? await app.db
          .select()
          .from(shipmentEvents)
          .where(eq(shipmentEvents.shipmentId, shipment.id))
          .orderBy(asc(shipmentEvents.occurredAt), asc(shipmentEvents.id))
      : [];
    reply.header("cache-control", "no-store");
    return {
      orderNumber: orderNumber(order.id),
      option: {
        service: order.deliveryService,
        label: DELIVERY_SERVICE_LABELS[order.deliveryService],
        pointName: order.deliveryPointName,
        pointAddress: order.deliveryPointAddress,
      },
      expectedDay: order.deliveryExpectedDay,
      deliveredAt: order.deliveredAt?.toISOString() ?? null,
      shipment: shipment
        ? {
            waybillNumber: shipment.waybillNumber,
            state: shipment.state,
            stateLabel: SHIPMENT_STATE_LABELS[shipment.state],
            nextStep: nextStepText(shipment.state, order.deliveryService),
            lockerPin: shipment.state === "ready_for_collection" ? shipment.lockerPin : null,
          }
        : null,
      events: events.map(timelineEvent),
    } satisfies OrderTracking;
  });
};
