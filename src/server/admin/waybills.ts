import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uuidParam } from "#domain/schemas/common.js";
import { SHIPMENT_STATE_LABELS } from "#domain/tracking.js";
import { shipments } from "../db/schema.js";
import { createTodaysWaybills, createWaybill } from "../delivery/waybills.js";
import { notFound } from "../errors.js";

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

  app.post("/orders/waybills", async (request) => createTodaysWaybills(context(), request));

  app.get("/orders/:id/shipment", { schema: { params: uuidParam } }, async (request) => {
    const [shipment] = await app.db
      .select({
        waybillNumber: shipments.waybillNumber,
        trackingReference: shipments.trackingReference,
        vendor: shipments.vendor,
        state: shipments.state,
        chargedCents: shipments.chargedCents,
        createdAt: shipments.createdAt,
      })
      .from(shipments)
      .where(eq(shipments.orderId, request.params.id));
    if (!shipment) return { shipment: null };
    return { shipment: { ...shipment, stateLabel: SHIPMENT_STATE_LABELS[shipment.state] } };
  });

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
