import { asc, notInArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { FINAL_SHIPMENT_STATES } from "#domain/tracking.js";
import { shipments } from "../platform/db/schema.js";
import type { CourierApi } from "./courier-api.js";
import { applyTrackingEvents, type TrackingContext } from "./tracking.js";

/** Open shipments asked about per run, the longest unasked first. */
export const POLL_BATCH = 200;

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
  return { asked: open.length, added };
}
