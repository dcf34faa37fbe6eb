import { asc, eq } from "drizzle-orm";
import { trackingUrl } from "../../domain/couriers.js";
import { orderNumber } from "../../domain/order-status.js";
import { includedVatCents } from "../../domain/pricing.js";
import type { Database, Transaction } from "../db/client.js";
import { orderItems, orders } from "../db/schema.js";
import { greetsByName } from "./greeting.js";
import type { EmailDelivery, EmailLine } from "./messages.js";
import { enqueueEmail } from "./outbox.js";

async function orderWithLines(tx: Database | Transaction, orderId: string) {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error(`order ${orderId} not found`);
  const items = await tx
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position));
  const lines: EmailLine[] = items.map((item) => ({
    name: item.name,
    size: item.size,
    quantity: item.quantity,
    unitPriceCents: item.unitPriceCents,
  }));
  const delivery: EmailDelivery = {
    name: order.deliveryName,
    phone: order.deliveryPhone,
    address: order.deliveryAddress,
    city: order.deliveryCity,
    province: order.deliveryProvince,
    zipCode: order.deliveryZipCode,
  };
  // What every message about an order names.
  const greetByName = await greetsByName(tx, order.userId, order.customerEmail);
  const about = {
    orderId,
    orderNumber: orderNumber(orderId),
    customerName: order.deliveryName,
    greetByName,
    lines,
    delivery,
  };
  return { order, about };
}

/**
 * The order confirmation, written in the transaction that makes the order paid (an ITN,
 * reconciliation, or an admin's Mark as Paid): one per order, whatever proved the payment and
 * however often.
 */
export async function enqueueOrderConfirmation(tx: Database | Transaction, orderId: string, shopName: string) {
  const { order, about } = await orderWithLines(tx, orderId);
  await enqueueEmail(
    tx,
    {
      kind: "order_confirmation",
      eventKey: orderId,
      to: order.customerEmail,
      data: {
        ...about,
        subtotalCents: order.subtotalCents,
        deliveryFeeCents: order.deliveryFeeCents,
        totalCents: order.totalCents,
        vatCents: includedVatCents(order.totalCents),
        paidAt: (order.paidAt ?? new Date()).toISOString(),
      },
    },
    shopName,
  );
}

/** The shipped message, written with Mark as Shipped: one per order. */
export async function enqueueOrderShipped(tx: Database | Transaction, orderId: string, shopName: string) {
  const { order, about } = await orderWithLines(tx, orderId);
  await enqueueEmail(
    tx,
    {
      kind: "order_shipped",
      eventKey: orderId,
      to: order.customerEmail,
      data: {
        ...about,
        courier: order.courier,
        trackingNumber: order.trackingNumber,
        trackingUrl: trackingUrl(order.courier, order.trackingNumber),
      },
    },
    shopName,
  );
}
