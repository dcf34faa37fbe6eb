import { z } from "zod";
import { DELIVERY_SERVICES } from "../delivery.js";
import { SHIPMENT_STATES } from "../tracking.js";

/** One tracking event as the courier reported it (kept once: src/server/delivery/tracking.ts). */
export const trackingEvent = z.object({
  at: z.string(),
  state: z.enum(SHIPMENT_STATES),
  label: z.string(),
  message: z.string(),
  location: z.string().nullable(),
});
export type TrackingEvent = z.infer<typeof trackingEvent>;

/** GET /api/orders/{id}/tracking: the parcel as its customer follows it (the tracking page). */
export const orderTracking = z.object({
  orderNumber: z.string(),
  option: z.object({
    service: z.enum(DELIVERY_SERVICES),
    label: z.string(),
    pointName: z.string().nullable(),
    pointAddress: z.string().nullable(),
  }),
  expectedDay: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  shipment: z
    .object({
      waybillNumber: z.string(),
      state: z.enum(SHIPMENT_STATES),
      stateLabel: z.string(),
      /** What happens after a problem (another attempt, back to the shop); null when all is well. */
      nextStep: z.string().nullable(),
      /** The locker's PIN, only while the parcel is ready for collection. */
      lockerPin: z.string().nullable(),
    })
    .nullable(),
  events: z.array(trackingEvent),
});
export type OrderTracking = z.infer<typeof orderTracking>;

/** GET /api/admin/orders/{id}/shipment: the waybill, where the parcel is, and its timeline. */
export const adminShipmentAnswer = z.object({
  shipment: z
    .object({
      waybillNumber: z.string(),
      trackingReference: z.string(),
      vendor: z.enum(["shiplogic", "tcg_locker"]),
      courierName: z.string(),
      state: z.enum(SHIPMENT_STATES),
      stateLabel: z.string(),
      nextStep: z.string().nullable(),
      /** What the courier charged at booking (its quote). */
      chargedCents: z.number().int().nullable(),
      /** What it charges after re-weighing the parcel; null while it has not (decision 053). */
      finalChargedCents: z.number().int().nullable(),
      reweighedGrams: z.number().int().nullable(),
      reweighedAt: z.string().nullable(),
      /** The delivery fee the customer paid, to set the courier's charge against. */
      customerPaidCents: z.number().int(),
      createdAt: z.string(),
      events: z.array(trackingEvent),
    })
    .nullable(),
});
export type AdminShipmentAnswer = z.infer<typeof adminShipmentAnswer>;

/** POST /api/admin/orders/waybills: each order booked, or why not. */
export const todaysWaybillsAnswer = z.object({
  created: z.array(z.object({ orderId: z.string(), waybillNumber: z.string() })),
  failed: z.array(z.object({ orderId: z.string(), message: z.string() })),
});
export type TodaysWaybillsAnswer = z.infer<typeof todaysWaybillsAnswer>;
