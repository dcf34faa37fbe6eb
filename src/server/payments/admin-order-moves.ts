import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { uuidParam } from "#domain/schemas/common.js";
import { adminOrder, orderStatusInput } from "#domain/schemas/orders.js";
import { documentIssuer } from "../orders/issued-documents.js";
import { conflict } from "../platform/errors.js";
import { moveOrderForward } from "./move-order.js";

const marksPaid = (request: FastifyRequest) =>
  (request.body as { status?: string } | undefined)?.status === "completed";

/**
 * /api/admin/orders/:id/status and /confirm-payment: the status machine's moves forward (Mark as
 * Paid, Mark as Shipped, a payment confirmed in Payment Verification), in payments/ because Mark as
 * Paid books a payment as PayFast's notification does (mark-paid.ts).
 */
export const adminOrderMoveRoutes: FastifyPluginAsyncZod = async (app) => {
  const context = { db: app.db, issuer: documentIssuer(app.config) };
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
};
