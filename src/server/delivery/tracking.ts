import { and, asc, eq, sql } from "drizzle-orm";
import { orderNumber } from "#domain/order-status.js";
import type { TrackingEvent } from "#domain/schemas/tracking.js";
import {
  movesShipment,
  NOTIFIED_STATES,
  type NotifiedState,
  nextStepText,
  SHIPMENT_STATE_LABELS,
  type ShipmentState,
  shipmentStateOfVendor,
} from "#domain/tracking.js";
import { greetsByName } from "../mail/greeting.js";
import { enqueueEmail } from "../mail/outbox.js";
import { deliveryOptionText } from "../orders/order-emails.js";
import { moveOrderStatus } from "../orders/status.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { orders, shipmentEvents, shipments } from "../platform/db/schema.js";
import type { CourierTrackingEvent, CourierVendor } from "./courier-api.js";
import { signTrackingToken } from "./tracking-links.js";

export interface TrackingContext {
  db: Database;
  publicUrl: string;
  linkKey: () => Promise<Buffer>;
}

/** An event as the tracking page and the admin's order page show it. */
export function timelineEvent(event: typeof shipmentEvents.$inferSelect): TrackingEvent {
  return {
    at: event.occurredAt.toISOString(),
    state: event.state,
    label: SHIPMENT_STATE_LABELS[event.state],
    message: event.message,
    location: event.location,
  };
}

export const COURIER_NAMES: Record<CourierVendor, string> = { shiplogic: "The Courier Guy", tcg_locker: "TCG Locker" };

/**
 * A courier's tracking events for one shipment, from a webhook or the hourly poll (docs/decisions/051,
 * round 2), in one transaction with the shipment locked: each event is kept once (its id), the
 * shipment's state moves to the furthest state seen and never back, whatever order they came in.
 * On the way: "collected" (or anything after it) ships the order; "delivered" records the delivery
 * date (the return windows count from it); out for delivery, ready for collection, delivered and each
 * problem write one e-mail. Answers how many events were new, or null for an unknown shipment.
 */
export async function applyTrackingEvents(
  ctx: TrackingContext,
  vendor: CourierVendor,
  trackingReference: string,
  events: readonly CourierTrackingEvent[],
  source: "webhook" | "poll",
): Promise<number | null> {
  const key = await ctx.linkKey();
  return ctx.db.transaction(async (tx) => {
    const [shipment] = await tx
      .select()
      .from(shipments)
      .where(and(eq(shipments.vendor, vendor), eq(shipments.trackingReference, trackingReference)))
      .for("update");
    if (!shipment) return null;
    if (source === "poll")
      await tx.update(shipments).set({ polledAt: sql`now()` }).where(eq(shipments.id, shipment.id));
    const added = await keepNewEvents(tx, shipment.id, events, source);
    if (added === 0) return 0;
    const { state, stateAt, passed } = await furthestState(tx, shipment);
    const pin = events.find((event) => event.pin)?.pin ?? shipment.lockerPin;
    // A new state is a new problem (or none): a resolved one is not carried over to it.
    const moved = state !== shipment.state;
    await tx
      .update(shipments)
      .set({
        state,
        stateAt,
        lockerPin: pin,
        ...(moved ? { attentionResolvedAt: null, attentionResolvedBy: null } : {}),
      })
      .where(eq(shipments.id, shipment.id));
    if (state === shipment.state) return added;

    const [order] = await tx.select().from(orders).where(eq(orders.id, shipment.orderId)).for("update");
    if (!order) return added;
    await moveOrderAlong(tx, order, shipment, vendor, passed);
    await emailSteps(tx, ctx, key, { order, shipment, state, passed, pin });
    return added;
  });
}

type ShipmentRow = typeof shipments.$inferSelect;
type OrderRow = typeof orders.$inferSelect;
/** A state the shipment moved to, and when it happened. */
type PassedStep = { state: ShipmentState; at: Date };

/** Keeps each event once (by the courier's event id). Answers how many were new. */
async function keepNewEvents(
  tx: Transaction,
  shipmentId: ShipmentRow["id"],
  events: readonly CourierTrackingEvent[],
  source: "webhook" | "poll",
): Promise<number> {
  const added = await tx
    .insert(shipmentEvents)
    .values(
      events.map((event) => ({
        shipmentId,
        vendorEventId: event.id,
        vendorStatus: event.status,
        state: shipmentStateOfVendor(event.status),
        message: event.message,
        location: event.location,
        occurredAt: new Date(event.date),
        source,
      })),
    )
    .onConflictDoNothing({ target: [shipmentEvents.shipmentId, shipmentEvents.vendorEventId] })
    .returning({ id: shipmentEvents.id });
  return added.length;
}

/** The furthest state of every event kept, in the order they happened (not the order they came), and each state passed on the way. */
async function furthestState(tx: Transaction, shipment: ShipmentRow) {
  const all = await tx
    .select({ state: shipmentEvents.state, occurredAt: shipmentEvents.occurredAt })
    .from(shipmentEvents)
    .where(eq(shipmentEvents.shipmentId, shipment.id))
    .orderBy(asc(shipmentEvents.occurredAt), asc(shipmentEvents.id));
  let state: ShipmentState = shipment.state;
  let stateAt = shipment.stateAt;
  const passed: PassedStep[] = [];
  for (const event of all) {
    if (movesShipment(state, event.state)) {
      state = event.state;
      stateAt = event.occurredAt;
      passed.push({ state, at: event.occurredAt });
    }
  }
  return { state, stateAt, passed };
}

/** "Collected" (or anything after it) ships a paid order; "delivered" records its delivery date, once. */
async function moveOrderAlong(
  tx: Transaction,
  order: OrderRow,
  shipment: ShipmentRow,
  vendor: CourierVendor,
  passed: readonly PassedStep[],
) {
  if (order.status === "completed") {
    await moveOrderStatus(
      tx,
      { orderId: order.id, from: "completed", to: "processed", by: "courier" },
      { shippedAt: sql`now()`, courier: COURIER_NAMES[vendor], trackingNumber: shipment.waybillNumber },
    );
  }
  const delivered = passed.find((step) => step.state === "delivered");
  if (delivered && !order.deliveredAt) {
    await tx.update(orders).set({ deliveredAt: delivered.at }).where(eq(orders.id, order.id));
  }
}

/** One message per step reached, at most one of each kind per order (the outbox's key). */
async function emailSteps(
  tx: Transaction,
  ctx: TrackingContext,
  key: Buffer,
  reached: {
    order: OrderRow;
    shipment: ShipmentRow;
    state: ShipmentState;
    passed: readonly PassedStep[];
    pin: string | null;
  },
) {
  const { order, shipment, state, passed, pin } = reached;
  const greetByName = await greetsByName(tx, order.userId, order.customerEmail);
  const trackingUrl = `${ctx.publicUrl}/orders/${order.id}/tracking?t=${signTrackingToken(key, order.id)}`;
  for (const step of passed) {
    if (!(NOTIFIED_STATES as readonly string[]).includes(step.state)) continue;
    const notified = step.state as NotifiedState;
    // Already delivered: "out for delivery" or "ready" (learnt late, from the poll) would only confuse.
    if (state === "delivered" && (notified === "out_for_delivery" || notified === "ready_for_collection")) continue;
    const nextStep = nextStepText(notified, order.deliveryService);
    await enqueueEmail(tx, {
      kind: "delivery_update",
      eventKey: `${order.id}:${notified}`,
      to: order.customerEmail,
      data: {
        orderId: order.id,
        orderNumber: orderNumber(order.id),
        customerName: order.deliveryName,
        greetByName,
        step: notified,
        option: deliveryOptionText(order),
        waybillNumber: shipment.waybillNumber,
        ...(notified === "ready_for_collection" && pin ? { pin } : {}),
        ...(nextStep ? { nextStep } : {}),
        trackingUrl,
        at: step.at.toISOString(),
      },
    });
  }
}
