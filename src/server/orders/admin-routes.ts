import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  adminOrderDetail as adminOrderDetailAnswer,
  adminOrderListQuery,
  adminOrderPage,
  orderRangeQuery,
  orderSummary as orderSummaryAnswer,
} from "#domain/schemas/admin-orders.js";
import { uuidParam } from "#domain/schemas/common.js";
import { adminOrder, orderStatusInput, packingSlipsQuery } from "#domain/schemas/orders.js";
import { packingSlipsPdf } from "../documents/packing-slips.js";
import { conflict, notFound } from "../platform/errors.js";
import { adminOrderDetail, listAdminOrderPage, orderSummary } from "./admin-queries.js";
import { paidOrdersOfDay, shopDetails } from "./document-data.js";
import { documentIssuer } from "./issued-documents.js";
import { moveOrderForward } from "./move-order.js";

/** A status move that marks the order paid (the admin guard's step-up: routes.ts). */
const marksPaid = (request: FastifyRequest) =>
  (request.body as { status?: string } | undefined)?.status === "completed";

/**
 * /api/admin/orders: pages of orders (searched, filtered), the pending ones awaiting payment, one
 * order with its payments and e-mails, a range's figures, the status machine's moves, and
 * /api/admin/packing-slips.pdf (a slip per order paid on a day, in South African time).
 */
export const adminOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  const listSchema = { querystring: adminOrderListQuery, response: { 200: adminOrderPage } };
  app.get("/orders", { schema: listSchema }, async (request) => listAdminOrderPage(app.db, request.query));

  app.get("/orders/preparing", { schema: listSchema }, async (request) =>
    listAdminOrderPage(app.db, { ...request.query, status: "pending" }),
  );

  app.get(
    "/orders/summary",
    { schema: { querystring: orderRangeQuery, response: { 200: orderSummaryAnswer } } },
    async (request) => orderSummary(app.db, request.query),
  );

  app.get(
    "/orders/:id",
    { schema: { params: uuidParam, response: { 200: adminOrderDetailAnswer } } },
    async (request) => {
      const detail = await adminOrderDetail(app.db, request.params.id);
      if (!detail) throw notFound("Order not found");
      return detail;
    },
  );

  const context = { db: app.db, shopName: app.config.shop.name, issuer: documentIssuer(app.config) };
  app.patch(
    "/orders/:id/status",
    // Mark as Paid books a payment by hand and writes a tax invoice: stepped up; Mark as Shipped is not.
    {
      schema: { params: uuidParam, body: orderStatusInput, response: { 200: adminOrder } },
      config: { moneyMove: marksPaid },
    },
    async (request) => {
      const { status, courier, trackingNumber } = request.body;
      const moved = await moveOrderForward(context, request, request.params.id, status, {
        shipping: { courier, trackingNumber },
      });
      app.mail.wake();
      return moved;
    },
  );

  app.patch(
    "/orders/:id/confirm-payment",
    // Books a payment by hand and writes a tax invoice.
    { schema: { params: uuidParam, response: { 200: adminOrder } }, config: { moneyMove: true } },
    async (request) => {
      const moved = await moveOrderForward(context, request, request.params.id, "completed", {
        action: "order.payment_confirmed",
        refuse: (from) =>
          conflict(`Cannot confirm payment: the order is ${from}, not pending`, "ORDER_STATUS_CONFLICT"),
      });
      app.mail.wake();
      return moved;
    },
  );

  app.get("/packing-slips.pdf", { schema: { querystring: packingSlipsQuery } }, async (request, reply) => {
    const slips = await paidOrdersOfDay(app.db, request.query.date);
    const pdf = await packingSlipsPdf({ shop: shopDetails(app.config), date: request.query.date, orders: slips });
    return reply
      .type("application/pdf")
      .header("content-disposition", `inline; filename="packing-slips-${request.query.date}.pdf"`)
      .send(pdf);
  });
};
