import { stringify } from "csv-stringify/sync";
import { and, eq, inArray, isNotNull, notInArray } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { centsToDecimal } from "#domain/money.js";
import {
  CUSTOMER_REASONS,
  DEADLINE_LABELS,
  deliveryDay,
  RETURN_REASON_LABELS,
  RETURN_STATUS_LABELS,
  returnWindows,
} from "#domain/returns.js";
import { businessDaysBetween, daysBetween, saDay } from "#domain/sa-calendar.js";
import { uuidParam } from "#domain/schemas/common.js";
import { adminOrder } from "#domain/schemas/orders.js";
import {
  type AdminReturnRequest,
  acceptReturnInput,
  adminReturnListQuery,
  adminReturnRequest,
  createReturnInput,
  declineReturnInput,
  exchangeReturnInput,
  markDeliveredInput,
  orderReturns,
  receiveReturnInput,
  resolveReturnInput,
  returnRequest,
} from "#domain/schemas/returns.js";
import { requireUser } from "../auth/guards.js";
import { requireFreshSecondFactor } from "../auth/two-factor.js";
import { asText } from "../orders/admin-export.js";
import { findAdminOrder } from "../orders/queries.js";
import { orderItems, orders, refunds, returnRequests } from "../platform/db/schema.js";
import { notFound } from "../platform/errors.js";
import type { ShopApp } from "../platform/feature.js";
import { findReturnRequest, forCustomer, listReturnRequests, unitsAskedBack } from "./queries.js";
import {
  acceptReturnRequest,
  createReturnRequest,
  declineReturnRequest,
  exchangeReturnRequest,
  markDelivered,
  receiveReturnRequest,
  resolveReturnRequest,
} from "./requests.js";

const OPEN = ["requested", "accepted", "received"] as const;

/**
 * The customer's side (docs/returns.md): GET/POST /api/orders/{id}/returns (what may be asked
 * today, and asking it) and GET /api/returns (the signed-in customer's requests, for the order
 * history). Another customer's order answers 404, so order ids cannot be probed.
 */
export const returnRoutes: FastifyPluginAsyncZod = async (app) => {
  // Requests carry a customer's words about their order: no shared cache may keep them.
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });
  app.get(
    "/orders/:id/returns",
    { schema: { params: uuidParam, response: { 200: orderReturns } } },
    async (request) => {
      const user = requireUser(request);
      const [order] = await app.db.select().from(orders).where(eq(orders.id, request.params.id));
      if (!order || order.userId !== user.id) throw notFound("Order not found");
      const windows = returnWindows(order, saDay(new Date()));
      const [items, asked, requests] = await Promise.all([
        app.db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(orderItems.position),
        unitsAskedBack(app.db, order.id),
        listReturnRequests(app.db, eq(returnRequests.orderId, order.id)),
      ]);
      return {
        orderId: order.id,
        orderStatus: order.status,
        deliveryDay: deliveryDay(order),
        deliveryRecorded: order.deliveredAt !== null,
        sentOn: order.status === "processed" ? saDay(order.shippedAt ?? order.paidAt ?? order.createdAt) : null,
        windows: CUSTOMER_REASONS.map((reason) => windows[reason]),
        lines: items.map((item) => ({
          lineId: item.id,
          name: item.name,
          size: item.size,
          bought: item.quantity,
          available: Math.max(item.quantity - (asked.get(item.id) ?? 0), 0),
        })),
        requests: requests.map(forCustomer),
      };
    },
  );

  app.post(
    "/orders/:id/returns",
    { schema: { params: uuidParam, body: createReturnInput, response: { 201: returnRequest } } },
    async (request, reply) => {
      const user = requireUser(request);
      const id = await createReturnRequest(app.db, request, user, request.params.id, request.body);
      app.mail.wake();
      const created = await findReturnRequest(app.db, id);
      if (!created) throw notFound("Request not found");
      request.log.info({ orderId: request.params.id, reference: created.reference }, "return requested");
      return reply.code(201).send(forCustomer(created));
    },
  );

  app.get("/returns", { schema: { response: { 200: z.array(returnRequest) } } }, async (request) => {
    const user = requireUser(request);
    const mine = app.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, user.id));
    return (await listReturnRequests(app.db, inArray(returnRequests.orderId, mine))).map(forCustomer);
  });
};

const REGISTER_COLUMNS = [
  "Reference",
  "Order number",
  "Customer",
  "E-mail",
  "Reason",
  "Opened by",
  "Customer's words",
  "Requested (SA date)",
  "Deadline",
  "Deadline (last day)",
  "Status",
  "Decided (SA date)",
  "Closed (SA date)",
  "Decision or outcome",
  "Refunded (R)",
  "Days taken",
  "Business days taken",
  "Within deadline",
];

/**
 * The admin's side, inside /api/admin (the admin guard covers it): the Requests list, each step,
 * Mark as delivered, and the complaints register as CSV (every request, its dates, what was
 * decided and how long it took: what the CGSO asks to see).
 */
export const adminReturnRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/returns",
    { schema: { querystring: adminReturnListQuery, response: { 200: z.array(adminReturnRequest) } } },
    async (request) => {
      const { status, orderId } = request.query;
      const byStatus =
        status === "open"
          ? inArray(returnRequests.status, [...OPEN])
          : status === "closed"
            ? notInArray(returnRequests.status, [...OPEN])
            : undefined;
      return listReturnRequests(app.db, and(byStatus, orderId ? eq(returnRequests.orderId, orderId) : undefined));
    },
  );

  app.get("/returns/register.csv", async (request, reply) => {
    // Every complainant's name, e-mail and words: a customer export, so a fresh code (step-up).
    requireFreshSecondFactor(request);
    const [all, refunded] = await Promise.all([
      listReturnRequests(app.db, undefined, 100_000),
      app.db
        .select({ requestId: refunds.returnRequestId, amountCents: refunds.amountCents })
        .from(refunds)
        .where(and(isNotNull(refunds.returnRequestId), eq(refunds.status, "completed"))),
    ]);
    const today = saDay(new Date());
    const records = all.map((entry) => registerRecord(entry, refunded, today));
    reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="complaints-register-${today}.csv"`);
    return stringify(records, { header: true, columns: REGISTER_COLUMNS });
  });

  registerStepRoutes(app);
  app.post(
    "/orders/:id/delivered",
    { schema: { params: uuidParam, body: markDeliveredInput, response: { 200: adminOrder } } },
    async (request) => {
      await markDelivered(app.db, request, request.params.id, request.body.deliveredOn);
      const order = await findAdminOrder(app.db, request.params.id);
      if (!order) throw notFound("Order not found");
      return order;
    },
  );
};

/** The register's row for one request: its dates, what was decided, what was refunded, and how long it took. */
function registerRecord(
  entry: AdminReturnRequest,
  refunded: { requestId: string | null; amountCents: number }[],
  today: string,
): string[] {
  const opened = saDay(new Date(entry.createdAt));
  const closed = entry.closedAt ? saDay(new Date(entry.closedAt)) : null;
  const end = closed ?? today;
  const within = closed ? (closed <= entry.deadlineDay ? "Yes" : "No") : today > entry.deadlineDay ? "Overdue" : "Open";
  const refundCents = refunded
    .filter((refund) => refund.requestId === entry.id)
    .reduce((sum, refund) => sum + refund.amountCents, 0);
  return [
    entry.reference,
    entry.orderNumber,
    asText(entry.customerName),
    asText(entry.customerEmail),
    RETURN_REASON_LABELS[entry.reason],
    entry.openedBy === "shop" ? "Shop" : "Customer",
    asText(entry.details),
    opened,
    DEADLINE_LABELS[entry.deadlineKind],
    entry.deadlineDay,
    RETURN_STATUS_LABELS[entry.status],
    entry.decidedAt ? saDay(new Date(entry.decidedAt)) : "",
    closed ?? "",
    asText(entry.decision ?? ""),
    refundCents > 0 ? centsToDecimal(refundCents) : "",
    String(daysBetween(opened, end)),
    String(businessDaysBetween(opened, end)),
    within,
  ];
}

/** Accept, decline, receive, exchange, resolve: each step of a request answers with the request as it now is. */
function registerStepRoutes(app: ShopApp) {
  const shop = { address: app.config.shop.address };
  const answer = async (id: string) => {
    app.mail.wake();
    const found = await findReturnRequest(app.db, id);
    if (!found) throw notFound("Request not found");
    return found;
  };
  const step = { params: uuidParam, response: { 200: adminReturnRequest } };

  app.post("/returns/:id/accept", { schema: { ...step, body: acceptReturnInput } }, async (request) => {
    await acceptReturnRequest(app.db, request, request.params.id, request.body.note || undefined, shop);
    return answer(request.params.id);
  });
  app.post("/returns/:id/decline", { schema: { ...step, body: declineReturnInput } }, async (request) => {
    await declineReturnRequest(app.db, request, request.params.id, request.body.reason);
    return answer(request.params.id);
  });
  app.post("/returns/:id/receive", { schema: { ...step, body: receiveReturnInput } }, async (request) => {
    await receiveReturnRequest(app.db, request, request.params.id, request.body.restock);
    return answer(request.params.id);
  });
  app.post("/returns/:id/exchange", { schema: { ...step, body: exchangeReturnInput } }, async (request) => {
    await exchangeReturnRequest(app.db, request, request.params.id, request.body.note);
    return answer(request.params.id);
  });
  app.post("/returns/:id/resolve", { schema: { ...step, body: resolveReturnInput } }, async (request) => {
    await resolveReturnRequest(app.db, request, request.params.id, request.body.outcome);
    return answer(request.params.id);
  });
}
