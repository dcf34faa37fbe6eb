import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { uuidParam } from "#domain/schemas/common.js";
import { invoiceQuery, order, type Refund } from "#domain/schemas/orders.js";
import { requireSelfOrAdmin, requireUser } from "../auth/guards.js";
import { creditNotePdf } from "../documents/credit-note.js";
import { invoicePdf } from "../documents/invoice.js";
import { notFound } from "../platform/errors.js";
import { countOrderAttempt } from "./attempts.js";
import { cancelOrderByPerson, cannotCancel } from "./cancel.js";
import { invoicedOrder } from "./document-data.js";
import { creditNoteDownload, documentIssuer, invoiceDownload } from "./issued-documents.js";
import { findOrder, listOrdersForUser } from "./queries.js";

/**
 * An order as its customer sees it: only refunds that were made, and never PayFast's own words
 * about a refused one (an admin's matter, docs/security.md).
 */
function asCustomerSees<T extends { refunds: Refund[] }>(found: T): T {
  return {
    ...found,
    refunds: found.refunds
      .filter((refund) => refund.status === "completed")
      .map((refund) => ({ ...refund, payfastMessage: null })),
  };
}

/**
 * GET /api/orders/:id, POST /api/orders/:id/cancel, the invoice and credit notes, and GET
 * /api/users/:id/orders: the customer's orders once placed (placing one is checkout/).
 */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  // An order carries a name, a phone number and an address: no shared cache may keep it.
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.get("/orders/:id", { schema: { params: uuidParam, response: { 200: order } } }, async (request) => {
    const user = requireUser(request);
    const found = await findOrder(app.db, request.params.id);
    // Another customer's order answers as a missing one does: the answer does not say which ids exist.
    if (!found || (found.userId !== user.id && !user.isAdmin)) throw notFound("Order not found");
    return user.isAdmin ? found : asCustomerSees(found);
  });

  // The shopper left PayFast without paying (the /cancel page), or an admin cancels: the holds go at once.
  app.post(
    "/orders/:id/cancel",
    { schema: { params: uuidParam, response: { 200: order } } },
    async (request, reply) => {
      const user = requireUser(request);
      await countOrderAttempt(app, request, reply, "cancel-order", user.id);
      const found = await findOrder(app.db, request.params.id);
      const own = found?.userId === user.id;
      // As GET: another customer's order is "not found", never "not yours".
      if (!found || (!own && !user.isAdmin)) throw notFound("Order not found");
      if (!(await cancelOrderByPerson(app.db, request, found.id, own ? "shopper" : "admin"))) {
        const now = await findOrder(app.db, found.id);
        throw cannotCancel(now?.status ?? found.status);
      }
      request.log.info({ orderId: found.id }, "order cancelled");
      const cancelled = await findOrder(app.db, found.id);
      if (!cancelled) throw notFound("Order not found");
      return user.isAdmin ? cancelled : asCustomerSees(cancelled);
    },
  );

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

  // The documents as issued (issued-documents.ts): a download after the first is marked "Copy".
  app.get(
    "/orders/:id/invoice.pdf",
    { schema: { params: uuidParam, querystring: invoiceQuery } },
    async (request, reply) => {
      const found = await ownOrderWithInvoice(request, request.params.id);
      const issued = await invoiceDownload(app.db, found, documentIssuer(app.config), request.query.number);
      if (!issued) throw notFound("No invoice with this number for this order");
      return pdf(reply, issued.data.number, await invoicePdf(issued.data, { copy: issued.copy }));
    },
  );

  app.get(
    "/orders/:id/refunds/:refundId/credit-note.pdf",
    { schema: { params: uuidParam.extend({ refundId: z.uuid({ message: "refundId must be a valid id" }) }) } },
    async (request, reply) => {
      const found = await ownOrderWithInvoice(request, request.params.id);
      const issued = await creditNoteDownload(app.db, found, request.params.refundId, documentIssuer(app.config));
      if (!issued) throw notFound("No credit note: the refund is not this order's, or not completed");
      return pdf(reply, issued.data.number, await creditNotePdf(issued.data, { copy: issued.copy }));
    },
  );

  app.get(
    "/users/:id/orders",
    { schema: { params: uuidParam, response: { 200: z.array(order) } } },
    async (request) => {
      const user = requireSelfOrAdmin(request, request.params.id);
      const orders = await listOrdersForUser(app.db, request.params.id);
      return user.isAdmin ? orders : orders.map(asCustomerSees);
    },
  );
};
