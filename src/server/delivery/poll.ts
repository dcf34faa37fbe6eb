import { and, asc, eq, gte, isNull, notInArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { FINAL_SHIPMENT_STATES } from "#domain/tracking.js";
import { shipments } from "../platform/db/schema.js";
import type { CourierApi } from "./courier-api.js";
import { applyTrackingEvents, type TrackingContext } from "./tracking.js";

/** Open shipments asked about per run, the longest unasked first. */
export const POLL_BATCH = 200;
/**
 * Door parcels delivered within this long are asked for their final charge (twice the poll's hour, so
 * each is asked once or twice): a re-weigh whose webhook was lost still reaches the cost report.
 */
export const FINAL_CHARGE_WINDOW_HOURS = 2;

/**
 * The hourly tracking poll (job `delivery-tracking`): asks the courier about every shipment not yet
 * delivered, returned or lost, and applies what it answers like a webhook (each event once), so a lost
 * webhook costs at most an hour. A shipment the courier does not answer about waits for the next run.
 */
export async function pollOpenShipments(ctx: TrackingContext & { api: CourierApi; log: FastifyBaseLogger }) {
  const open = await ctx.db
    .select({ vendor: shipments.vendor, reference: shipments.trackingReference })
    .from(shipments)
    .where(notInArray(shipments.state, [...FINAL_SHIPMENT_STATES]))
    .orderBy(asc(sql`coalesce(${shipments.polledAt}, 'epoch')`))
    .limit(POLL_BATCH);
  let added = 0;
  for (const shipment of open) {
    try {
      const events = await ctx.api.tracking(shipment.vendor, shipment.reference);
      added += (await applyTrackingEvents(ctx, shipment.vendor, shipment.reference, events, "poll")) ?? 0;
    } catch (error) {
      ctx.log.warn({ reference: shipment.reference, err: error }, "tracking poll: the courier did not answer");
    }
  }
  await checkFinalCharges(ctx);
  return { asked: open.length, added };
}

/**
 * The courier's charge for door parcels delivered within FINAL_CHARGE_WINDOW_HOURS and never seen
 * re-weighed: a re-weigh's webhook lost (decision 053) shows here as a rate other than the booked
 * one, kept as the final charge (its weight unknown). A courier that does not answer is asked next run.
 */
async function checkFinalCharges(ctx: TrackingContext & { api: CourierApi; log: FastifyBaseLogger }) {
  const delivered = await ctx.db
    .select({ id: shipments.id, reference: shipments.trackingReference, chargedCents: shipments.chargedCents })
    .from(shipments)
    .where(
      and(
        eq(shipments.vendor, "shiplogic"),
        eq(shipments.state, "delivered"),
        isNull(shipments.finalChargedCents),
        gte(shipments.stateAt, sql`now() - make_interval(hours => ${FINAL_CHARGE_WINDOW_HOURS})`),
      ),
    )
    .limit(POLL_BATCH);
  for (const shipment of delivered) {
    try {
      const cents = await ctx.api.shipmentCharge("shiplogic", shipment.reference);
      if (cents === null || cents === shipment.chargedCents) continue;
      await ctx.db
        .update(shipments)
        .set({ finalChargedCents: cents })
        .where(and(eq(shipments.id, shipment.id), isNull(shipments.finalChargedCents)));
    } catch (error) {
      ctx.log.warn({ reference: shipment.reference, err: error }, "tracking poll: the courier did not say its charge");
    }
  }
}
