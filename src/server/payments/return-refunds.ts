import { and, eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { formatRand } from "#domain/money.js";
import {
  COOLING_OFF_REASONS,
  canMoveRequest,
  RETURN_REASON_LABELS,
  RETURN_STATUS_LABELS,
  returnReferenceText,
  WHOLE_ORDER_REASONS,
} from "#domain/returns.js";
import { uuidParam } from "#domain/schemas/common.js";
import { adminReturnRequest, refundReturnInput } from "#domain/schemas/returns.js";
import { recordAudit } from "../platform/audit.js";
import { orders, refunds, returnRequestLines, returnRequests } from "../platform/db/schema.js";
import { badRequest, conflict, HttpError, notFound } from "../platform/errors.js";
import { findReturnRequest } from "../returns/queries.js";
import { type RefundContext, refundContextOf, refundOrder } from "./refunds.js";

/**
 * POST /api/admin/returns/:id/refund: a return request refunded through PayFast, as an order's
 * refund is (in payments/ with every refund; the rest of the request's steps are returns/routes.ts).
 * Pays money: stepped up by the admin guard (moneyMove).
 */
export const adminReturnRefundRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    "/returns/:id/refund",
    {
      schema: { params: uuidParam, body: refundReturnInput, response: { 200: adminReturnRequest } },
      config: { moneyMove: true },
    },
    async (request) => {
      const { id } = request.params;
      const found = await findReturnRequest(app.db, id);
      if (!found) throw notFound("Request not found");
      const subject = { type: "order" as const, id: found.orderId };
      const context = refundContextOf(app, request.log);
      try {
        await refundReturnRequest(context, request, id, request.body.amountCents, (tx, done) =>
          recordAudit(tx, request, {
            action: "order.refunded",
            subject,
            after: {
              amountCents: done.amountCents,
              reason: found.reference,
              restock: done.restock,
              status: done.orderStatus,
            },
          }),
        );
      } catch (error) {
        // A refusal changes nothing but is still an admin's action, as for a refund from the order.
        if (error instanceof HttpError && error.code !== "RETURN_STATUS_CONFLICT" && error.statusCode !== 404) {
          await recordAudit(app.db, request, {
            action: "order.refund_refused",
            subject,
            after: {
              reference: found.reference,
              amountCents: request.body.amountCents ?? null,
              refusal: error.message,
            },
          });
        }
        throw error;
      }
      request.log.info({ orderId: found.orderId, reference: found.reference }, "return refunded");
      app.mail.wake();
      const answer = await findReturnRequest(app.db, id);
      if (!answer) throw notFound("Request not found");
      return answer;
    },
  );
};

/**
 * Refund a return request through the order's refund flow (refunds.ts), which completes it
 * (returns/settle-refund.ts) once PayFast has refunded. The amount of an ECTA cancellation (changed mind,
 * wrong size, a cancelled or unfillable order) is the server's: the whole payment where the whole
 * order goes back, delivery included. A defect's refund defaults to its lines' price; a
 * complaint's needs an amount. The refund credits the units the request names (fitRefundToUnits in
 * src/domain/refund-lines.ts), so its credit note reverses their own VAT rates. The refund index
 * allows one refund per request.
 */
export async function refundReturnRequest(
  context: RefundContext,
  request: FastifyRequest,
  id: string,
  amountCents: number | undefined,
  onCompleted: Parameters<typeof refundOrder>[4],
): Promise<string> {
  const [row] = await context.db.select().from(returnRequests).where(eq(returnRequests.id, id));
  if (!row) throw notFound("Request not found");
  const reference = returnReferenceText(row.number);
  if (!canMoveRequest(row.status, "refunded")) {
    throw conflict(
      `${reference} is ${RETURN_STATUS_LABELS[row.status].toLowerCase()}: it cannot be refunded now.`,
      "RETURN_STATUS_CONFLICT",
    );
  }
  const [order] = await context.db.select().from(orders).where(eq(orders.id, row.orderId));
  if (!order) throw notFound("Order not found");
  const [{ cents: refunded = 0 } = {}] = await context.db
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.orderId, order.id), eq(refunds.status, "completed")));
  const left = Math.max(order.totalCents - refunded, 0);
  const fixed = WHOLE_ORDER_REASONS.includes(row.reason) || COOLING_OFF_REASONS.includes(row.reason);
  const offered = WHOLE_ORDER_REASONS.includes(row.reason) ? left : Math.min(row.offeredRefundCents, left);
  if (fixed && amountCents !== undefined && amountCents !== offered) {
    throw conflict(
      `The refund of ${reference} is fixed by law at ${formatRand(offered)} (everything paid for what comes back, delivery included when the whole order does).`,
      "RETURN_AMOUNT_FIXED",
    );
  }
  const amount = amountCents ?? offered;
  if (amount <= 0) throw badRequest("Give the amount to refund (amountCents).", "VALIDATION_FAILED");
  if (!request.user) throw new HttpError(401, "Please log in to continue", "NOT_LOGGED_IN");
  // Its credit note credits the units the request names (docs/decisions/036), at their own VAT rates.
  const units = await context.db
    .select({ orderItemId: returnRequestLines.orderItemId, quantity: returnRequestLines.quantity })
    .from(returnRequestLines)
    .where(eq(returnRequestLines.requestId, row.id));
  await refundOrder(
    context,
    order.id,
    {
      amountCents: amount,
      reason: `${reference}: ${RETURN_REASON_LABELS[row.reason]}`.slice(0, 255),
      // A cancelled order's goods never left: the whole order goes back on the shelf (once).
      restock: row.reason === "cancellation",
      returnRequestId: row.id,
      returnUnits: units,
    },
    request.user.id,
    onCompleted,
  );
  return order.id;
}
