import { asc, eq } from "drizzle-orm";
import { trackingUrl } from "#domain/couriers.js";
import { DELIVERY_SERVICE_LABELS, type DeliveryService } from "#domain/delivery.js";
import { orderNumber } from "#domain/order-status.js";
import { invoiceVat } from "#domain/vat.js";
import { greetsByName } from "../mail/greeting.js";
import type { EmailDelivery, EmailLine } from "../mail/messages.js";
import { enqueueEmail } from "../mail/outbox.js";
import type { Database, Transaction } from "../platform/db/client.js";
import { orderItems, orders } from "../platform/db/schema.js";
import { policyVersionLabel, policyVersionsById } from "../policies/publish.js";
import { printedAddress } from "./delivery-address.js";
import { orderPolicyIds } from "./queries.js";

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
    ...printedAddress(order),
    option: deliveryOptionText(order),
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
  const vat = invoiceVat({
    lines: items,
    deliveryFeeCents: order.deliveryFeeCents,
    deliveryVatRateBp: order.deliveryVatRateBp,
    vatRounding: order.vatRounding,
  });
  return { order, about, vat };
}

/**
 * The order confirmation, written in the transaction that makes the order paid (an ITN,
 * reconciliation, or an admin's Mark as Paid): one per order, whatever proved the payment and
 * however often.
 */
export async function enqueueOrderConfirmation(tx: Database | Transaction, orderId: string) {
  const { order, about, vat } = await orderWithLines(tx, orderId);
  const policies = await policyVersionsById(tx, orderPolicyIds(order));
  await enqueueEmail(tx, {
    kind: "order_confirmation",
    eventKey: orderId,
    to: order.customerEmail,
    data: {
      ...about,
      subtotalCents: order.subtotalCents,
      ...(order.multibuyDiscountCents > 0 ? { multibuyDiscountCents: order.multibuyDiscountCents } : {}),
      ...(order.promoCode
        ? {
            promo: {
              code: order.promoCode,
              discountCents: order.discountCents,
              deliveryDiscountCents: order.deliveryDiscountCents,
            },
          }
        : {}),
      deliveryFeeCents: order.deliveryFeeCents,
      totalCents: order.totalCents,
      vatCents: vat.vatCents,
      vatByRate: vat.byRate,
      paidAt: (order.paidAt ?? new Date()).toISOString(),
      policies: [...policies.values()].map((policy) => ({ label: policyVersionLabel(policy), path: policy.path })),
    },
  });
}

/** The shipped message, written with Mark as Shipped: one per order. */
export async function enqueueOrderShipped(tx: Database | Transaction, orderId: string) {
  const { order, about } = await orderWithLines(tx, orderId);
  await enqueueEmail(tx, {
    kind: "order_shipped",
    eventKey: orderId,
    to: order.customerEmail,
    data: {
      ...about,
      courier: order.courier,
      trackingNumber: order.trackingNumber,
      trackingUrl: trackingUrl(order.courier, order.trackingNumber),
    },
  });
}

/** The chosen option in a line: the service, and the locker or pickup point where it goes. */
export function deliveryOptionText(order: {
  deliveryService: DeliveryService;
  deliveryPointName: string | null;
  deliveryPointAddress: string | null;
}): string {
  const label = DELIVERY_SERVICE_LABELS[order.deliveryService];
  const point = [order.deliveryPointName, order.deliveryPointAddress].filter(Boolean).join(", ");
  return point ? `${label}: ${point}` : label;
}
