import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { uuidParam } from "../../domain/schemas/common.js";
import { createOrderAnswer, createOrderInput, order } from "../../domain/schemas/orders.js";
import { recordAudit } from "../audit/record.js";
import { requireSelfOrAdmin, requireUser } from "../auth/guards.js";
import type { Transaction } from "../db/client.js";
import { creditNotePdf } from "../documents/credit-note.js";
import { invoicePdf } from "../documents/invoice.js";
import { badRequest, conflict, forbidden, notFound, unauthorized } from "../errors.js";
import { buildCheckoutForm, payfastProcessUrl } from "../payfast/adapter.js";
import { cancelOrder } from "./cancel.js";
import { creditNoteData, invoiceData, invoicedOrder, shopDetails } from "./document-data.js";
import { placeOrder, shortMessage } from "./place-order.js";
import { priceOrder } from "./pricing.js";
import { findOrder, listOrdersForUser, productsForOrderQuery } from "./queries.js";

/**
 * POST /api/create-order, GET /api/orders/:id, POST /api/orders/:id/cancel and GET /api/users/:id/orders.
 * The server is the only authority on prices and stock: every line is re-priced from the
 * database, and held (place-order.ts) before the shopper is sent to pay.
 */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const findProductsForOrder = productsForOrderQuery(app.db);
  // An order carries a name, a phone number and an address: no shared cache may keep it.
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.post(
    "/create-order",
    { schema: { body: createOrderInput, response: { 200: createOrderAnswer } } },
    async (request) => {
      const user = requireUser(request);
      const input = request.body;
      // The body's userId is only a claim (docs/product.md §7); the session says who is ordering.
      if (input.userId && input.userId !== user.id) {
        throw unauthorized("Your session does not match the signed-in user. Please log in again.", "SESSION_MISMATCH");
      }

      const delivery = input.deliveryInfo;
      // PostgreSQL text cannot hold NUL; no real address has one.
      if ([input.customerEmail, ...Object.values(delivery)].some((value) => value?.includes("\u0000"))) {
        throw badRequest("deliveryInfo must not contain NUL characters");
      }

      const products = await findProductsForOrder(input.items.map((item) => item.id));
      const priced = priceOrder(input.items, input, products);
      if (!priced.ok) throw conflict(priced.message, "CART_CHANGED");

      const policies = await app.policies.current();
      const newOrder = {
        id: randomUUID(),
        userId: user.id,
        subtotalCents: priced.subtotalCents,
        deliveryFeeCents: priced.deliveryFeeCents,
        totalCents: priced.totalCents,
        customerEmail: input.customerEmail,
        deliveryName: delivery.name,
        deliveryPhone: delivery.phone,
        deliveryAddress: delivery.address,
        deliveryCity: delivery.city,
        deliveryProvince: delivery.province,
        deliveryZipCode: delivery.zipCode,
        deliverySuburb: delivery.suburb,
        deliveryComplex: delivery.complex,
        deliveryInstructions: delivery.deliveryInstructions,
        deliveryAltPhone: delivery.altPhone,
        companyName: delivery.companyName,
        vatNumber: delivery.vatNumber,
        lines: priced.lines,
        policyVersionIds: {
          terms: policies.terms.id,
          returnPolicy: policies["return-policy"].id,
          privacy: policies.privacy.id,
        },
      };
      const placed = await placeOrder(app.pool, newOrder);
      if (!placed.ok) throw conflict(shortMessage(placed.short), "OUT_OF_STOCK");
      request.log.info({ orderId: newOrder.id, totalCents: newOrder.totalCents }, "order created");

      return {
        orderId: newOrder.id,
        payfastData: buildCheckoutForm({ ...newOrder, items: newOrder.lines }, app.config),
        payfastUrl: payfastProcessUrl(app.config),
      };
    },
  );

  app.get("/orders/:id", { schema: { params: uuidParam, response: { 200: order } } }, async (request) => {
    const user = requireUser(request);
    const found = await findOrder(app.db, request.params.id);
    if (!found) throw notFound("Order not found");
    if (found.userId !== user.id && !user.isAdmin) throw forbidden("You can only see your own orders");
    return found;
  });

  // The shopper left PayFast without paying (the /cancel page), or an admin cancels: the holds go at once.
  app.post("/orders/:id/cancel", { schema: { params: uuidParam, response: { 200: order } } }, async (request) => {
    const user = requireUser(request);
    const found = await findOrder(app.db, request.params.id);
    if (!found) throw notFound("Order not found");
    const own = found.userId === user.id;
    if (!own && !user.isAdmin) throw forbidden("You can only cancel your own orders");
    const reason = own ? "shopper" : "admin";
    const recordCancel = (tx: Transaction) =>
      recordAudit(tx, request, {
        action: "order.cancelled",
        subject: { type: "order", id: found.id },
        before: { status: "pending" },
        after: { status: "cancelled", cancelReason: reason },
      });
    if (!(await cancelOrder(app.db, found.id, reason, { onCancelled: recordCancel }))) {
      const now = await findOrder(app.db, found.id);
      throw conflict(
        `Only an unpaid order can be cancelled; this one is ${now?.status ?? found.status}.`,
        "ORDER_STATUS_CONFLICT",
      );
    }
    request.log.info({ orderId: found.id }, "order cancelled");
    const cancelled = await findOrder(app.db, found.id);
    if (!cancelled) throw notFound("Order not found");
    return cancelled;
  });

  /** The order's owner or an admin; a 404 for anyone else, so order ids cannot be probed. */
  async function ownOrderWithInvoice(request: FastifyRequest, id: string) {
    const user = requireUser(request);
    const found = await invoicedOrder(app.db, id);
    if (!found || (found.userId !== user.id && !user.isAdmin)) {
      throw notFound("No invoice for this order: it is not yours, or not paid yet");
    }
    return found;
  }
  const pdf = (reply: FastifyReply, name: string, body: Buffer) =>
    reply.type("application/pdf").header("content-disposition", `inline; filename="${name}.pdf"`).send(body);

  app.get("/orders/:id/invoice.pdf", { schema: { params: uuidParam } }, async (request, reply) => {
    const found = await ownOrderWithInvoice(request, request.params.id);
    const data = await invoiceData(app.db, found, shopDetails(app.config), app.config.publicUrl);
    return pdf(reply, data.number, await invoicePdf(data));
  });

  app.get(
    "/orders/:id/refunds/:refundId/credit-note.pdf",
    { schema: { params: uuidParam.extend({ refundId: z.uuid({ message: "refundId must be a valid id" }) }) } },
    async (request, reply) => {
      const found = await ownOrderWithInvoice(request, request.params.id);
      const data = await creditNoteData(app.db, found, request.params.refundId, shopDetails(app.config));
      if (!data) throw notFound("No credit note: the refund is not this order's, or not completed");
      return pdf(reply, data.number, await creditNotePdf(data));
    },
  );

  app.get(
    "/users/:id/orders",
    { schema: { params: uuidParam, response: { 200: z.array(order) } } },
    async (request) => {
      requireSelfOrAdmin(request, request.params.id);
      return listOrdersForUser(app.db, request.params.id);
    },
  );
};
