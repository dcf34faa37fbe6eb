import { and, eq, gte, isNull, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { TCG_LOCKER_COMPARTMENTS } from "#domain/delivery.js";
import { compartmentFor, type Packing } from "#domain/parcels.js";
import { saDay } from "#domain/sa-calendar.js";
import { recordAudit } from "../platform/audit.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { LOCK_NOT_AVAILABLE, pgErrorCode } from "../platform/db/errors.js";
import { orderItems, orders, shipments } from "../platform/db/schema.js";
import { conflict, notFound } from "../platform/errors.js";
import type { CourierApi, CourierBooking, CourierContact, CourierVendor } from "./courier-api.js";
import { CourierError } from "./courier-http.js";
import type { DeliveryQuotes } from "./options.js";

export interface WaybillContext {
  /** COURIER_MODE=manual: no courier to book with. */
  manual: boolean;
  db: Database;
  api: CourierApi;
  quotes: DeliveryQuotes;
}

/** At most this many orders are booked in one "today's paid orders" run (the rest: run it again). */
export const WAYBILLS_PER_RUN = 50;

const refused = (message: string) => conflict(message, "WAYBILL_REFUSED");

/**
 * "Create waybill" on a paid order (docs/decisions/051, round 2): books the parcel with the service
 * the shopper chose (ShipLogic for the door, TCG Locker echoing the order's rate_revision_id; a stale
 * revision is quoted again and booked once more), fetches the label PDF at once and keeps it (the
 * courier's link expires after 24 hours), and records the waybill, audited. The order moves to
 * shipped when the courier reports it collected (tracking.ts), not here. Pargo counters are booked by
 * hand (manual shipping with a typed tracking number).
 */
export async function createWaybill(ctx: WaybillContext, request: FastifyRequest, orderId: string) {
  refuseWhenManual(ctx);
  // The order stays locked from before the courier is asked until the waybill is kept: a second
  // click (or a second admin) is refused at once rather than booking the parcel twice.
  return ctx.db.transaction(async (tx) => bookLocked(ctx, tx, request, await lockOrder(tx, orderId)));
}

function refuseWhenManual(ctx: WaybillContext) {
  if (ctx.manual) {
    throw refused(
      "This shop ships by hand (COURIER_MODE=manual), so no courier books a waybill: use Mark as Shipped with the courier's name and tracking number.",
    );
  }
}

async function lockOrder(tx: Transaction, orderId: string) {
  try {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update", { noWait: true });
    if (!order) throw notFound("Order not found");
    return order;
  } catch (error) {
    if (pgErrorCode(error) !== LOCK_NOT_AVAILABLE) throw error;
    throw conflict(
      "Someone is creating this order's waybill right now; reload the order in a moment to see it.",
      "WAYBILL_IN_PROGRESS",
    );
  }
}

type OrderRow = typeof orders.$inferSelect;

/** An order booked with its courier, and the locker rate revision it was booked at (the order's own, or quoted again). */
interface Booked {
  vendor: CourierVendor;
  booking: CourierBooking;
  rateRevisionId: string | null;
}

/** The locked order's waybill: refused when it cannot have one, else booked, its label fetched, kept and audited. */
async function bookLocked(ctx: WaybillContext, tx: Transaction, request: FastifyRequest, order: OrderRow) {
  await refuseUnbookable(tx, order);
  const packing = await packOrderItems(ctx, tx, order.id);
  const booked = await bookWithCourier(ctx, order, packing);
  const { vendor, booking } = booked;
  const labelPdf = await ctx.api.labelPdf(vendor, booking.vendorShipmentId).catch((error: unknown) => {
    throw refused(
      `The waybill ${booking.waybillNumber} was booked but its label could not be fetched (${(error as Error).message}).`,
    );
  });
  await keepWaybill(tx, request, order, booked, labelPdf);
  return { orderId: order.id, waybillNumber: booking.waybillNumber, trackingReference: booking.trackingReference };
}

/** Only a paid, unshipped order without a waybill gets one, and not for a Pargo counter (booked by hand). */
async function refuseUnbookable(tx: Transaction, order: OrderRow) {
  if (order.status !== "completed") {
    throw refused(`Only a paid order that has not shipped can get a waybill; this one is ${order.status}.`);
  }
  const [existing] = await tx.select({ id: shipments.id }).from(shipments).where(eq(shipments.orderId, order.id));
  if (existing) throw refused("This order already has a waybill.");
  if (order.deliveryService === "pickup_point") {
    throw refused("Pargo counters are booked in Pargo's own portal: use Mark as Shipped with its tracking number.");
  }
}

/** The order's items packed into the owner's boxes (lines whose product is gone are left out). */
async function packOrderItems(ctx: WaybillContext, tx: Transaction, orderId: string): Promise<Packing> {
  const lines = await tx
    .select({ id: orderItems.productId, size: orderItems.size, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  const { packing } = await ctx.quotes.packCart(
    lines.flatMap((line) => (line.id ? [{ id: line.id, size: line.size, quantity: line.quantity }] : [])),
  );
  return packing;
}

/** Books the parcel with the shopper's service; a courier's refusal or silence is answered as a refused waybill. */
async function bookWithCourier(ctx: WaybillContext, order: OrderRow, packing: Packing): Promise<Booked> {
  const contact = { name: order.deliveryName, mobileNumber: order.deliveryPhone, email: order.customerEmail };
  const reference = order.id.slice(-8).toUpperCase();
  try {
    if (order.deliveryService === "locker") {
      return { vendor: "tcg_locker", ...(await bookLockerParcel(ctx, order, packing, contact, reference)) };
    }
    const booking = await ctx.api.bookDoor({
      from: ctx.quotes.from,
      to: {
        street: order.deliveryAddress,
        suburb: order.deliverySuburb,
        city: order.deliveryCity,
        province: order.deliveryProvince,
        postalCode: order.deliveryZipCode,
      },
      contact,
      boxes: boxesOf(packing),
      level: order.deliveryService === "door_express" ? "express" : "economy",
      reference,
    });
    return { vendor: "shiplogic", booking, rateRevisionId: order.deliveryRateRevisionId };
  } catch (error) {
    if (error instanceof CourierError) {
      throw refused(
        error.kind === "refused"
          ? `The courier refused the booking: ${error.message}`
          : `The courier did not answer (${error.message}); try again shortly.`,
      );
    }
    throw error;
  }
}

/** TCG Locker, echoing the order's rate revision (quoted afresh when it has none, or when the courier finds it stale). */
async function bookLockerParcel(
  ctx: WaybillContext,
  order: OrderRow,
  packing: Packing,
  contact: CourierContact,
  reference: string,
) {
  const terminalId = order.deliveryPointCode;
  const compartment = compartmentFor(packing, TCG_LOCKER_COMPARTMENTS);
  if (!terminalId || !compartment) throw refused("The order has no locker, or no longer fits one.");
  const requote = async () => {
    const rates = await ctx.api.lockerRates(ctx.quotes.from, terminalId);
    const rate = rates.find((candidate) => candidate.boxType === compartment.code);
    if (!rate) throw refused(`The locker offers no ${compartment.code} box any more.`);
    return rate.rateRevisionId;
  };
  let rateRevisionId = order.deliveryRateRevisionId ?? (await requote());
  const book = (revision: string) =>
    ctx.api.bookLocker({
      from: ctx.quotes.from,
      terminalId,
      contact,
      rateRevisionId: revision,
      // The rate's service_level.code for a door-to-locker box (decision 051: unverified).
      serviceLevelCode: `D2L${compartment.code} - ECO`,
      reference,
    });
  try {
    return { booking: await book(rateRevisionId), rateRevisionId };
  } catch (error) {
    // A price change since checkout: TCG Locker refuses the old revision; quote again and book at the new one.
    if (!(error instanceof CourierError && error.status === 409 && /rate_revision_id/.test(error.message))) throw error;
    rateRevisionId = await requote();
    return { booking: await book(rateRevisionId), rateRevisionId };
  }
}

/** The waybill kept with its label, the order's new rate revision if it was quoted again, and the audit. */
async function keepWaybill(
  tx: Transaction,
  request: FastifyRequest,
  order: OrderRow,
  booked: Booked,
  labelPdf: Buffer,
) {
  const { vendor, booking, rateRevisionId } = booked;
  await tx.insert(shipments).values({
    orderId: order.id,
    vendor,
    vendorShipmentId: booking.vendorShipmentId,
    waybillNumber: booking.waybillNumber,
    trackingReference: booking.trackingReference,
    serviceLevelCode: booking.serviceLevelCode,
    chargedCents: booking.chargedCents,
    labelPdf,
    bookedBy: request.user?.id ?? null,
  });
  if (rateRevisionId !== order.deliveryRateRevisionId) {
    await tx.update(orders).set({ deliveryRateRevisionId: rateRevisionId }).where(eq(orders.id, order.id));
  }
  await recordAudit(tx, request, {
    action: "order.waybill_created",
    subject: { type: "order", id: order.id },
    after: {
      courier: vendor,
      waybillNumber: booking.waybillNumber,
      trackingReference: booking.trackingReference,
      chargedCents: booking.chargedCents,
      ...(rateRevisionId ? { rateRevisionId } : {}),
    },
  });
}

function boxesOf(packing: Packing) {
  if (!packing.ok) throw refused("The order is too big for the owner's boxes: book it by hand.");
  return packing.boxes;
}

/**
 * "Create waybills for today's paid orders": every order paid today (South African day) that is
 * paid, not shipped, without a waybill and not for a Pargo counter, one after another (the courier's
 * rate limits), each answered on its own: booked, or why not.
 */
export async function createTodaysWaybills(ctx: WaybillContext, request: FastifyRequest) {
  refuseWhenManual(ctx);
  const startOfDay = new Date(`${saDay()}T00:00:00+02:00`);
  const due = await ctx.db
    .select({ id: orders.id })
    .from(orders)
    .leftJoin(shipments, eq(shipments.orderId, orders.id))
    .where(
      and(
        eq(orders.status, "completed"),
        gte(orders.paidAt, startOfDay),
        isNull(shipments.id),
        sql`${orders.deliveryService} <> 'pickup_point'`,
      ),
    )
    .orderBy(orders.paidAt)
    .limit(WAYBILLS_PER_RUN);
  const created: { orderId: string; waybillNumber: string }[] = [];
  const failed: { orderId: string; message: string }[] = [];
  for (const { id } of due) {
    try {
      const made = await createWaybill(ctx, request, id);
      created.push({ orderId: id, waybillNumber: made.waybillNumber });
    } catch (error) {
      failed.push({ orderId: id, message: (error as Error).message });
    }
  }
  return { created, failed };
}
