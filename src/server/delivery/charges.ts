import { and, eq, or, sql } from "drizzle-orm";
import type { Database } from "../platform/db/client.js";
import { shipments } from "../platform/db/schema.js";
import type { CourierApi, CourierVendor } from "./courier-api.js";

/** A courier's re-weigh of a parcel: which shipment, what it weighed, when. */
export interface Reweigh {
  reference: string;
  weightGrams: number;
  at: Date;
}

/**
 * A `parcel-dimension-changes` webhook body (docs/decisions/053; fields of sonnenglas/shiplogic-php-sdk's
 * ParcelDimensionChangePayload: `shipment_tracking_reference`, `weight_kg`, `event_time`), or null when
 * the body is not one. It carries no amount: the charge is asked for afterwards.
 */
export function reweighOf(payload: Record<string, unknown>): Reweigh | null {
  const reference = payload.shipment_tracking_reference;
  const weightKg = payload.weight_kg;
  if (typeof reference !== "string" || !reference || typeof weightKg !== "number") return null;
  if (!Number.isFinite(weightKg) || weightKg <= 0 || weightKg > 1_000) return null;
  const at = typeof payload.event_time === "string" ? new Date(payload.event_time) : new Date();
  return {
    reference: reference.slice(0, 60),
    weightGrams: Math.round(weightKg * 1000),
    at: Number.isNaN(at.getTime()) ? new Date() : at,
  };
}

/**
 * A re-weigh recorded against its shipment: the courier is asked what it charges now (its `rate`), and
 * the shipment keeps it beside what it charged at booking (`charged_cents`), so the admin's order page
 * and the delivery-cost report show the difference. Duplicated or late webhooks are harmless: the
 * charge is always the courier's latest, the weight the latest re-weigh's. Answers false for a
 * shipment the shop does not know; a courier that does not answer throws (the webhook is then retried).
 */
export async function recordReweigh(
  ctx: { db: Database; api: CourierApi },
  vendor: CourierVendor,
  reweigh: Reweigh,
): Promise<boolean> {
  const [shipment] = await ctx.db
    .select({ id: shipments.id, trackingReference: shipments.trackingReference })
    .from(shipments)
    .where(
      and(
        eq(shipments.vendor, vendor),
        or(eq(shipments.trackingReference, reweigh.reference), eq(shipments.waybillNumber, reweigh.reference)),
      ),
    );
  if (!shipment) return false;
  const chargeCents = await ctx.api.shipmentCharge(vendor, shipment.trackingReference);
  const newer = sql`(${shipments.reweighedAt} is null or ${shipments.reweighedAt} <= ${reweigh.at.toISOString()}::timestamptz)`;
  await ctx.db
    .update(shipments)
    .set({
      finalChargedCents: chargeCents === null ? sql`${shipments.finalChargedCents}` : chargeCents,
      reweighedGrams: sql`case when ${newer} then ${reweigh.weightGrams}::int else ${shipments.reweighedGrams} end`,
      reweighedAt: sql`case when ${newer} then ${reweigh.at.toISOString()}::timestamptz else ${shipments.reweighedAt} end`,
    })
    .where(eq(shipments.id, shipment.id));
  return true;
}
