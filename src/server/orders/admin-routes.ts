import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  adminOrderDetail as adminOrderDetailAnswer,
  adminOrderListQuery,
  adminOrderPage,
  orderRangeQuery,
  orderSummary as orderSummaryAnswer,
} from "#domain/schemas/admin-orders.js";
import { uuidParam } from "#domain/schemas/common.js";
import { packingSlipsQuery } from "#domain/schemas/orders.js";
import { packingSlipsPdf } from "../documents/packing-slips.js";
import { notFound } from "../platform/errors.js";
import { adminOrderDetail, listAdminOrderPage, orderSummary } from "./admin-queries.js";
import { paidOrdersOfDay, shopDetails } from "./document-data.js";

/** A status move that marks the order paid (the admin guard's step-up: routes.ts). */
/**
 * /api/admin/orders: pages of orders (searched, filtered), the pending ones awaiting payment, one
 * order with its payments and e-mails, and a range's figures (the status machine's moves are
 payments/admin-order-moves.ts), and
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
      const detail = await adminOrderDetail(app.db, request.params.id, app.config.shop.name);
      if (!detail) throw notFound("Order not found");
      return detail;
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
