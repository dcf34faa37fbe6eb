import { asc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uuidParam } from "#domain/schemas/common.js";
import { adminShipmentAnswer, todaysWaybillsAnswer } from "#domain/schemas/tracking.js";
import { nextStepText, SHIPMENT_STATE_LABELS } from "#domain/tracking.js";
import { orders, shipmentEvents, shipments } from "../platform/db/schema.js";
import { notFound } from "../platform/errors.js";
import { COURIER_NAMES, timelineEvent } from "./tracking.js";
import { createTodaysWaybills, createWaybill } from "./waybills.js";

/**
 * The admin's waybills (delivery/waybills.ts): POST /orders/:id/waybill ("Create waybill"),
 * POST /orders/waybills ("Create waybills for today's paid orders"), GET /orders/:id/shipment (the
 * waybill and where the parcel is), GET /orders/:id/label.pdf (the label kept at booking).
 */
export const adminWaybillRoutes: FastifyPluginAsyncZod = async (app) => {
  const context = () => ({
    manual: app.config.courier.mode === "manual",
    db: app.db,
    api: app.delivery.api,
    quotes: app.delivery.quotes,
  });

  app.post("/orders/:id/waybill", { schema: { params: uuidParam } }, async (request) =>
    createWaybill(context(), request, request.params.id),
  );

  app.post("/orders/waybills", { schema: { response: { 200: todaysWaybillsAnswer } } }, async (request) =>
    createTodaysWaybills(context(), request),
  );

  app.get(
    "/orders/:id/shipment",
    { schema: { params: uuidParam, response: { 200: adminShipmentAnswer } } },
    async (request) => {
      const [found] = await app.db
        .select({ shipment: shipments, service: orders.deliveryService, feeCents: orders.deliveryFeeCents })
        .from(shipments)
        .innerJoin(orders, eq(orders.id, shipments.orderId))
        .where(eq(shipments.orderId, request.params.id));
      if (!found) return { shipment: null };
      const { shipment, service, feeCents } = found;
      const events = await app.db
        .select()
        .from(shipmentEvents)
        .where(eq(shipmentEvents.shipmentId, shipment.id))
        .orderBy(asc(shipmentEvents.occurredAt), asc(shipmentEvents.id));
      return {
        shipment: {
          waybillNumber: shipment.waybillNumber,
          trackingReference: shipment.trackingReference,
          vendor: shipment.vendor,
          courierName: COURIER_NAMES[shipment.vendor],
          state: shipment.state,
          stateLabel: SHIPMENT_STATE_LABELS[shipment.state],
          nextStep: nextStepText(shipment.state, service),
          chargedCents: shipment.chargedCents,
          finalChargedCents: shipment.finalChargedCents,
          reweighedGrams: shipment.reweighedGrams,
          reweighedAt: shipment.reweighedAt?.toISOString() ?? null,
          customerPaidCents: feeCents,
          createdAt: shipment.createdAt.toISOString(),
          events: events.map(timelineEvent),
        },
      };
    },
  );

  app.get("/orders/:id/label.pdf", { schema: { params: uuidParam } }, async (request, reply) => {
    const [shipment] = await app.db
      .select({ pdf: shipments.labelPdf, waybill: shipments.waybillNumber })
      .from(shipments)
      .where(eq(shipments.orderId, request.params.id));
    if (!shipment) throw notFound("This order has no waybill");
    return reply
      .type("application/pdf")
      .header("content-disposition", `attachment; filename="waybill-${shipment.waybill}.pdf"`)
      .send(shipment.pdf);
  });
};
