import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { saDay } from "#domain/sa-calendar.js";
import { uuidParam } from "#domain/schemas/common.js";
import { cancelOrderInput, order, recordRefundInput, refundOrderInput } from "#domain/schemas/orders.js";
import { requireUser } from "../auth/guards.js";
import { cancelOrderByPerson, cannotCancel } from "../orders/cancel.js";
import { findOrder } from "../orders/queries.js";
import { recordAudit } from "../platform/audit.js";
import { badRequest, HttpError, notFound } from "../platform/errors.js";
import type { ShopApp } from "../platform/feature.js";
import { recordDashboardRefund, refundContextOf, refundOrder } from "./refunds.js";

/**
 * /api/admin/orders/{id}/cancel (an unpaid order, with the admin's reason), /refund (through
 * PayFast's Refunds API: payments/refunds.ts), /refunds/record (a refund made in PayFast's
 * dashboard, booked the same way): an admin's cancel and the refunds of an order.
 */
export const adminCancelRefundRoutes: FastifyPluginAsyncZod = async (app) => {
  registerCancelRoute(app);
  registerRefundRoute(app);
  registerRecordedRefundRoute(app);
};

/** An admin cancels an unpaid order; a paid one is refunded instead. */
function registerCancelRoute(app: ShopApp) {
  app.post(
    "/orders/:id/cancel",
    { schema: { params: uuidParam, body: cancelOrderInput, response: { 200: order } } },
    async (request) => {
      const { id } = request.params;
      if (!(await cancelOrderByPerson(app.db, request, id, "admin", request.body.reason))) {
        const now = await findOrder(app.db, id);
        if (!now) throw notFound("Order not found");
        throw cannotCancel(now.status, " Refund a paid order instead.");
      }
      request.log.info({ orderId: id }, "order cancelled by an admin");
      const cancelled = await findOrder(app.db, id);
      if (!cancelled) throw notFound("Order not found");
      return cancelled;
    },
  );
}

/** A refund through PayFast's Refunds API; a refused one is audited too. */
function registerRefundRoute(app: ShopApp) {
  app.post(
    "/orders/:id/refund",
    { schema: { params: uuidParam, body: refundOrderInput, response: { 200: order } }, config: { moneyMove: true } },
    async (request) => {
      const { id } = request.params;
      const admin = requireUser(request);
      const context = refundContextOf(app, request.log);
      const { amountCents, reason, restock, lines, deliveryCents } = request.body;
      try {
        await refundOrder(context, id, request.body, admin.id, (tx, done) =>
          recordAudit(tx, request, {
            action: "order.refunded",
            subject: { type: "order", id },
            after: {
              amountCents: done.amountCents,
              reason,
              restock: done.restock,
              status: done.orderStatus,
              // What its credit note credits (docs/decisions/036): the lines chosen, or spread in proportion.
              vatBasis: done.vatBasis,
              lines: lines ?? null,
              deliveryCents: done.deliveryCents,
            },
          }),
        );
      } catch (error) {
        // A refusal changes nothing but is still an admin's action: who tried, and PayFast's answer.
        if (error instanceof HttpError && error.statusCode !== 404) {
          await recordAudit(app.db, request, {
            action: "order.refund_refused",
            subject: { type: "order", id },
            after: { amountCents, reason, restock, lines, deliveryCents, refusal: error.message },
          });
        }
        throw error;
      }
      app.mail.wake();
      const refunded = await findOrder(app.db, id);
      if (!refunded) throw notFound("Order not found");
      return refunded;
    },
  );
}

/** A refund the owner made in PayFast's dashboard, booked like one made through the API. */
function registerRecordedRefundRoute(app: ShopApp) {
  app.post(
    "/orders/:id/refunds/record",
    // Writes a credit note: a tax document, so stepped up like a refund through PayFast.
    { schema: { params: uuidParam, body: recordRefundInput, response: { 200: order } }, config: { moneyMove: true } },
    async (request) => {
      const { id } = request.params;
      const admin = requireUser(request);
      const { amountCents, reason, refundedOn, payfastReference } = request.body;
      if (refundedOn > saDay()) {
        throw badRequest("refundedOn must not be in the future");
      }
      const context = refundContextOf(app, request.log);
      await recordDashboardRefund(context, id, request.body, admin.id, (tx, done) =>
        recordAudit(tx, request, {
          action: "order.refund_recorded",
          subject: { type: "order", id },
          after: {
            amountCents: done.amountCents,
            reason,
            restock: done.restock,
            status: done.orderStatus,
            madeIn: "payfast_dashboard",
            vatBasis: done.vatBasis,
            payfastReference,
            refundedOn,
          },
        }),
      );
      request.log.info({ orderId: id, amountCents, payfastReference }, "refund made in PayFast recorded by an admin");
      app.mail.wake();
      const recorded = await findOrder(app.db, id);
      if (!recorded) throw notFound("Order not found");
      return recorded;
    },
  );
}
