import { and, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { centsToDecimal } from "#domain/money.js";
import { ORDER_STATUS_LABELS, orderNumber, UNPAID_STATUSES } from "#domain/order-status.js";
import { uuidParam } from "#domain/schemas/common.js";
import {
  ATTENTION_LABELS,
  type AttentionItem,
  attentionList,
  type CheckOutcome,
  checkPayfastAnswer,
  type DeliveryAttentionKind,
  ITN_ATTENTION_OUTCOMES,
  ITN_FLAGGED_OUTCOMES,
} from "#domain/schemas/payments.js";
import { ATTENTION_STATES, nextStepText, SHIPMENT_STATE_LABELS } from "#domain/tracking.js";
import { COURIER_NAMES } from "../delivery/tracking.js";
import { findAdminOrder } from "../orders/queries.js";
import { PayfastApiError } from "../payfast/api-client.js";
import { openPayfastProblems, trackPayfastProblem } from "../payfast/problems.js";
import { recordAudit } from "../platform/audit.js";
import type { Database } from "../platform/db/client.js";
import { orders, type PayfastProblemKind, payfastItns, shipments } from "../platform/db/schema.js";
import { conflict, HttpError, notFound } from "../platform/errors.js";
import type { ShopApp } from "../platform/feature.js";

/** The problem kinds as the attention list names them. */
const PROBLEM_KINDS: Record<PayfastProblemKind, AttentionItem["kind"]> = {
  api: "payfast_api_down",
  ping: "payfast_ping_failed",
  dns: "payfast_hosts_unresolved",
  plan_charges: "plan_charges_unsettled",
};
/** Booked outcomes (a payment the shop took into its books): an unconfirmed copy of one of them is settled. */
const BOOKED_SQL = sql.raw(["accepted", ...ITN_FLAGGED_OUTCOMES].map((outcome) => `'${outcome}'`).join(", "));

/** An order pending longer than this shows in "Needs attention" (and counts on the dashboard). */
export const PENDING_TOO_LONG = "1 hour";
const LIST_LIMIT = 200;

/**
 * /api/admin/payments/attention: what is wrong between the shop and PayFast (its API not
 * answering, its hosts not resolving), the payments PayFast proved that the shop could not simply
 * book (paid twice, paid after cancel, wrong amount, unknown order, another merchant's), signed
 * notifications the shop could not confirm (until their payment is booked), refunds PayFast's
 * history shows that the shop has not booked, and the orders pending for over an hour (a PENDING
 * payment holds them for days). /api/admin/orders/{id}/check-payfast asks PayFast about one
 * pending or cancelled order now.
 */
export const adminPaymentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get("/payments/attention", { schema: { response: { 200: attentionList } } }, async () => ({
    items: await attentionItems(app.db),
  }));
  registerResolveRoute(app);
  registerCheckPayfastRoute(app);
};

/** Everything on the "Needs attention" list, PayFast's problems first, then payments, waiting orders, parcels. */
async function attentionItems(db: Database): Promise<AttentionItem[]> {
  const flagged = await flaggedPayments(db);
  const waiting = await ordersWaitingTooLong(db);
  const problems = await openPayfastProblems(db);
  const parcels = await parcelsInTrouble(db);
  return [
    ...problems.map(problemItem),
    ...flagged.map(paymentItem),
    ...waiting.map(waitingOrderItem),
    ...parcels.map(parcelItem),
  ];
}

/** The open payment items, newest first: PayFast proved them but the shop could not simply book them. */
function flaggedPayments(db: Database) {
  return db
    .select({
      id: payfastItns.id,
      outcome: payfastItns.outcome,
      orderId: payfastItns.orderId,
      pfPaymentId: payfastItns.pfPaymentId,
      amountGross: payfastItns.amountGross,
      reason: payfastItns.reason,
      receivedAt: payfastItns.receivedAt,
      via: payfastItns.via,
      orderStatus: orders.status,
      orderTotalCents: orders.totalCents,
      orderPfPaymentId: orders.pfPaymentId,
    })
    .from(payfastItns)
    .leftJoin(orders, eq(orders.id, payfastItns.orderId))
    .where(
      and(
        isNull(payfastItns.resolvedAt),
        inArray(payfastItns.outcome, [...ITN_ATTENTION_OUTCOMES]),
        // A notification the shop could not confirm leaves the list once its payment is booked.
        or(
          sql`${payfastItns.outcome} not in ('unconfirmed', 'source_refused')`,
          sql`not exists (select 1 from payfast_itns booked where booked.pf_payment_id = ${payfastItns.pfPaymentId} and booked.outcome in (${BOOKED_SQL}))`,
        ),
      ),
    )
    .orderBy(desc(payfastItns.receivedAt))
    .limit(LIST_LIMIT);
}

/** Orders pending longer than PENDING_TOO_LONG, oldest first. */
function ordersWaitingTooLong(db: Database) {
  return db
    .select({ id: orders.id, createdAt: orders.createdAt, totalCents: orders.totalCents, status: orders.status })
    .from(orders)
    .where(and(eq(orders.status, "pending"), lt(orders.createdAt, sql`now() - ${PENDING_TOO_LONG}::interval`)))
    .orderBy(orders.createdAt)
    .limit(LIST_LIMIT);
}

/** Parcels the courier reported in trouble and nobody has dealt with yet, oldest first. */
function parcelsInTrouble(db: Database) {
  return db
    .select({
      id: shipments.id,
      state: shipments.state,
      stateAt: shipments.stateAt,
      waybillNumber: shipments.waybillNumber,
      vendor: shipments.vendor,
      orderId: orders.id,
      orderStatus: orders.status,
      orderTotalCents: orders.totalCents,
      deliveryService: orders.deliveryService,
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(and(inArray(shipments.state, [...ATTENTION_STATES]), isNull(shipments.attentionResolvedAt)))
    .orderBy(shipments.stateAt)
    .limit(LIST_LIMIT);
}

/** Something wrong between the shop and PayFast: it clears itself once PayFast answers. */
function problemItem(problem: Awaited<ReturnType<typeof openPayfastProblems>>[number]): AttentionItem {
  return {
    id: `problem-${problem.kind}`,
    kind: PROBLEM_KINDS[problem.kind],
    label: ATTENTION_LABELS[PROBLEM_KINDS[problem.kind]],
    orderId: null,
    orderNumber: null,
    orderStatus: null,
    orderTotal: null,
    amountGross: null,
    pfPaymentIds: [],
    since: problem.since.toISOString(),
    detail: problem.detail,
    resolvable: false,
    checkable: false,
  };
}

/** A payment the admin settles by hand, saying where the shop learned of it. */
function paymentItem(row: Awaited<ReturnType<typeof flaggedPayments>>[number]): AttentionItem {
  const kind = row.outcome as (typeof ITN_ATTENTION_OUTCOMES)[number];
  const pfPaymentIds = [
    ...(kind === "paid_twice" && row.orderPfPaymentId ? [row.orderPfPaymentId] : []),
    ...(row.pfPaymentId ? [row.pfPaymentId] : []),
  ];
  const from =
    row.via === "reconcile"
      ? "Found in PayFast's transaction history."
      : kind === "unconfirmed" || kind === "source_refused"
        ? "PayFast's notification, signed with your passphrase."
        : "From PayFast's notification.";
  return {
    id: `payment-${row.id}`,
    kind,
    label: ATTENTION_LABELS[kind],
    orderId: row.orderStatus ? row.orderId : null,
    orderNumber: row.orderStatus && row.orderId ? orderNumber(row.orderId) : null,
    orderStatus: row.orderStatus,
    orderTotal: row.orderTotalCents === null ? null : centsToDecimal(row.orderTotalCents),
    amountGross: row.amountGross,
    pfPaymentIds,
    since: row.receivedAt.toISOString(),
    detail: `${from} ${row.reason ?? ""}`.trim(),
    resolvable: true,
    checkable:
      (kind === "unconfirmed" || kind === "source_refused") &&
      row.orderStatus !== null &&
      UNPAID_STATUSES.includes(row.orderStatus),
  };
}

/** An order with no payment yet: the admin checks with PayFast before confirming it by hand. */
function waitingOrderItem(order: Awaited<ReturnType<typeof ordersWaitingTooLong>>[number]): AttentionItem {
  return {
    id: `order-${order.id}`,
    kind: "pending_over_an_hour",
    label: ATTENTION_LABELS.pending_over_an_hour,
    orderId: order.id,
    orderNumber: orderNumber(order.id),
    orderStatus: order.status,
    orderTotal: centsToDecimal(order.totalCents),
    amountGross: null,
    pfPaymentIds: [],
    since: order.createdAt.toISOString(),
    detail: "No payment has arrived. Check with PayFast before confirming it by hand.",
    resolvable: false,
    checkable: true,
  };
}

/** A parcel in trouble, with what the courier reported and what the customer was told. */
function parcelItem(parcel: Awaited<ReturnType<typeof parcelsInTrouble>>[number]): AttentionItem {
  const kind = `delivery_${parcel.state}` as DeliveryAttentionKind;
  return {
    id: `shipment-${parcel.id}`,
    kind,
    label: ATTENTION_LABELS[kind],
    orderId: parcel.orderId,
    orderNumber: orderNumber(parcel.orderId),
    orderStatus: parcel.orderStatus,
    orderTotal: centsToDecimal(parcel.orderTotalCents),
    amountGross: null,
    pfPaymentIds: [],
    waybillNumber: parcel.waybillNumber,
    since: parcel.stateAt.toISOString(),
    detail:
      `${COURIER_NAMES[parcel.vendor]} reported "${SHIPMENT_STATE_LABELS[parcel.state]}" for waybill ${parcel.waybillNumber}. The customer was told: ${nextStepText(parcel.state, parcel.deliveryService) ?? ""}`.trim(),
    resolvable: true,
    checkable: false,
  };
}

/** A parcel's problem dealt with (sent again, refunded, the customer reached): it leaves the list, audited under its order. */
async function resolveDeliveryProblem(app: ShopApp, request: FastifyRequest, shipmentId: string) {
  const resolved = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(shipments)
      .set({ attentionResolvedAt: sql`now()`, attentionResolvedBy: request.user?.id ?? null })
      .where(
        and(
          eq(shipments.id, shipmentId),
          inArray(shipments.state, [...ATTENTION_STATES]),
          isNull(shipments.attentionResolvedAt),
        ),
      )
      .returning({ orderId: shipments.orderId, state: shipments.state, waybillNumber: shipments.waybillNumber });
    if (!row) return null;
    await recordAudit(tx, request, {
      action: "order.delivery_problem_resolved",
      subject: { type: "order", id: row.orderId },
      before: { waybillNumber: row.waybillNumber, state: row.state, resolved: false },
      after: { waybillNumber: row.waybillNumber, state: row.state, resolved: true },
    });
    return row;
  });
  if (!resolved) throw notFound("No open attention item with that id");
}

/** A payment item settled by the admin: it leaves the list, audited under its order when it has one of ours. */
async function resolvePaymentProblem(app: ShopApp, request: FastifyRequest, item: string) {
  const id = Number(item.slice("payment-".length));
  const resolved = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(payfastItns)
      .set({ resolvedAt: sql`now()`, resolvedBy: request.user?.id ?? null })
      .where(
        and(
          eq(payfastItns.id, id),
          isNull(payfastItns.resolvedAt),
          inArray(payfastItns.outcome, [...ITN_ATTENTION_OUTCOMES]),
        ),
      )
      .returning({ id: payfastItns.id, orderId: payfastItns.orderId, outcome: payfastItns.outcome });
    if (!row) return null;
    // Under the order it concerns, so the order's own history shows it; a payment for no order of ours, under itself.
    const [known] = row.orderId
      ? await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, row.orderId))
      : [];
    await recordAudit(tx, request, {
      action: "payment.attention_resolved",
      subject: known ? { type: "order", id: known.id } : { type: "payment", id: item },
      before: { item, outcome: row.outcome, resolved: false },
      after: { item, outcome: row.outcome, resolved: true },
    });
    return row;
  });
  if (!resolved) throw notFound("No open attention item with that id");
}

/** The admin marks a payment or parcel item dealt with. */
function registerResolveRoute(app: ShopApp) {
  app.post(
    "/payments/attention/:id/resolve",
    {
      schema: {
        params: z.object({
          id: z
            .string()
            .regex(
              /^(payment-\d{1,18}|shipment-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/,
              "id must be a payment-<n> or shipment-<uuid> id",
            ),
        }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      if (request.params.id.startsWith("shipment-")) {
        await resolveDeliveryProblem(app, request, request.params.id.slice("shipment-".length));
      } else {
        await resolvePaymentProblem(app, request, request.params.id);
      }
      return reply.status(204).send(null);
    },
  );
}

/** Asks PayFast about one pending or cancelled order now, and books what it shows. */
function registerCheckPayfastRoute(app: ShopApp) {
  app.post(
    "/orders/:id/check-payfast",
    { schema: { params: uuidParam, response: { 200: checkPayfastAnswer } } },
    async (request) => {
      const { id } = request.params;
      const [current] = await app.db.select({ status: orders.status }).from(orders).where(eq(orders.id, id));
      if (!current) throw notFound("Order not found");
      // A cancelled order may still have been paid (it expired while the shopper paid, or PayFast's notification was lost).
      if (!UNPAID_STATUSES.includes(current.status)) {
        throw conflict(
          `This order is no longer waiting for payment (${ORDER_STATUS_LABELS[current.status]}).`,
          "ORDER_STATUS_CONFLICT",
        );
      }
      let findings: { outcome: string }[];
      try {
        ({ findings } = await app.reconcilePayfast([id]));
      } catch (error) {
        if (!(error instanceof PayfastApiError) && !(error instanceof TypeError) && !isAbort(error)) throw error;
        request.log.warn({ err: error, orderId: id }, "Check with PayFast: PayFast's API did not answer");
        await trackPayfastProblem(app.db, request.log, "api", {
          ok: false,
          detail: `PayFast's API did not answer Check with PayFast (${error instanceof Error ? error.message : String(error)}). Payments whose notification did not arrive or could not be confirmed wait until it answers; check them in your PayFast dashboard.`,
        });
        throw new HttpError(502, "PayFast could not be reached. Try again in a minute.", "PAYFAST_UNAVAILABLE");
      }
      await trackPayfastProblem(app.db, request.log, "api", { ok: true });
      const outcome: CheckOutcome = findings.some((finding) => finding.outcome === "accepted")
        ? "paid"
        : findings.length > 0
          ? "flagged"
          : "not_found";
      const message = {
        paid: "PayFast shows the payment: the order is now paid.",
        flagged: "PayFast shows a payment that needs your attention (see Needs attention).",
        not_found: "PayFast shows no payment for this order yet.",
      }[outcome];
      const order = await findAdminOrder(app.db, id);
      if (!order) throw notFound("Order not found");
      // What PayFast showed was booked (or flagged) by the reconciliation in its own transaction; this records the asking.
      await recordAudit(app.db, request, {
        action: "order.payfast_checked",
        subject: { type: "order", id },
        before: { status: current.status },
        after: { outcome, status: order.status },
      });
      return { outcome, message, order };
    },
  );
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}
