import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { PLAN_LINES_MAX } from "#domain/plans.js";
import { uuidParam } from "#domain/schemas/common.js";
import { createOrderAnswer, createOrderInput, invoiceQuery, order, type Refund } from "#domain/schemas/orders.js";
import { provenEmail } from "../auth/accounts.js";
import { requireSelfOrAdmin, requireUser } from "../auth/guards.js";
import { attemptKeys, countAttempt } from "../auth/rate-limit.js";
import { deliveryForOrder } from "../delivery/order-delivery.js";
import { creditNotePdf } from "../documents/credit-note.js";
import { invoicePdf } from "../documents/invoice.js";
import { buildCheckoutForm, payfastProcessUrl } from "../payfast/adapter.js";
import { planLinkKey } from "../plans/links.js";
import { PAY_LINK_INVALID, payLinkBox, recordPayLinkOrder, requireCartIsBox } from "../plans/pay-link.js";
import { atPlanPrices } from "../plans/prices.js";
import { createPlanForOrder } from "../plans/start.js";
import { clientNetwork } from "../platform/client-network.js";
import { badRequest, conflict, notFound, unauthorized } from "../platform/errors.js";
import { dropPromoHold, promoError, promoForOrder, reservePromo } from "../promo/codes.js";
import { cancelOrderByPerson, cannotCancel } from "./cancel.js";
import { invoicedOrder } from "./document-data.js";
import { creditNoteDownload, documentIssuer, invoiceDownload } from "./issued-documents.js";
import { placeOrder, shortMessage } from "./place-order.js";
import { priceOrder } from "./pricing.js";
import { findOrder, listOrdersForUser, productsForOrderQuery } from "./queries.js";
import { savingsForOrder } from "./savings.js";

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
 * POST /api/create-order, GET /api/orders/:id, POST /api/orders/:id/cancel and GET /api/users/:id/orders.
 * The server is the only authority on prices and stock: every line is re-priced from the
 * database, and held (place-order.ts) before the shopper is sent to pay.
 */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const findProductsForOrder = productsForOrderQuery(app.db);
  const planKey = planLinkKey(app.db);
  const limits = app.config.orderLimits;
  const caps = { perAccount: limits.unpaidPerAccount, perAddress: limits.unpaidPerAddress };
  /** Create-order and cancel: so many a minute per account and per client network (docs/decisions/020-abuse-limits.md). */
  const countOrderAttempt = (
    request: FastifyRequest,
    reply: FastifyReply,
    action: "create-order" | "cancel-order",
    userId: string,
  ) =>
    countAttempt(
      app.db,
      reply,
      attemptKeys(action, request, [{ userId }]),
      limits.ratePerMinute,
      "Too many orders in a minute. Please wait a minute and try again.",
    );
  // An order carries a name, a phone number and an address: no shared cache may keep it.
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  app.post(
    "/create-order",
    { schema: { body: createOrderInput, response: { 200: createOrderAnswer } } },
    async (request, reply) => {
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

      // A nappy plan's box takes the plan's saving, never a code's too (docs/decisions/050).
      if ((input.plan || input.planPayLink) && input.promoCode) {
        throw badRequest(
          "A promo code cannot be used with a nappy plan: the plan's saving applies to every box instead. Remove the code or the plan and try again.",
          "PROMO_NOT_APPLICABLE",
        );
      }
      if (input.plan && input.planPayLink) {
        throw badRequest("Send either plan (a new plan) or planPayLink (a plan's box), not both.");
      }
      await countOrderAttempt(request, reply, "create-order", user.id);
      // A reminder plan's box (plans/pay-link.ts): the cart must be the box the link names.
      const payBox = input.planPayLink ? await payLinkBox(app.db, await planKey(), input.planPayLink, user.id) : null;
      if (payBox) requireCartIsBox(payBox, input.items);
      // The server prices delivery itself and checks a chosen locker or point again (docs/decisions/051).
      const chosen = await deliveryForOrder(
        { quotes: app.delivery.quotes, directory: app.delivery.directory, log: request.log },
        input.items,
        { ...delivery, address: delivery.address, zipCode: delivery.zipCode },
        input.delivery,
        Boolean(input.plan || payBox),
      );
      const found = await findProductsForOrder(input.items.map((item) => item.id));
      // A plan's box is at plan prices, without multi-buy tiers (atPlanPrices empties them).
      const products = input.plan || payBox ? found.map(atPlanPrices) : found;
      // A promo code (src/server/promo/): the client's figures must be the discounted ones.
      const customer = input.promoCode ? { userId: user.id, provenEmail: await provenEmail(app.db, user.id) } : null;
      const promo =
        input.promoCode && customer
          ? await promoForOrder(
              app.db,
              input.promoCode,
              products.map((product) => product.id),
              customer,
              app.config.orderHoldMinutes,
            )
          : null;
      // Multi-buy tiers, then the code by MULTIBUY_WITH_PROMO (docs/decisions/047): the server's figures alone count.
      const savings = savingsForOrder(products, app.config.multibuyWithPromo, promo?.against ?? null, chosen.feeOf);
      const priced = priceOrder(input.items, input, products, savings.totalsOf);
      const outcome = savings.outcome();
      if (outcome && !outcome.ok) throw promoError(outcome);
      if (!priced.ok) throw conflict(priced.message, priced.code);
      if (input.plan && priced.lines.length > PLAN_LINES_MAX) {
        throw badRequest(`A nappy plan holds at most ${PLAN_LINES_MAX} lines (products and sizes).`);
      }
      const figures = outcome?.ok ? outcome.figures : null;

      const orderId = randomUUID();
      let discount = { promoCode: null as string | null, discountCents: 0, deliveryDiscountCents: 0 };
      let lines = priced.lines.map((line, index) => ({
        ...line,
        multibuyDiscountCents: figures?.lineMultibuyCents[index] ?? 0,
      }));
      if (promo?.promo && customer && figures?.promoApplied) {
        // Holds one use under the code's row lock, before the order is written (docs/decisions/023).
        const held = await reservePromo(app.db, {
          promo: promo.promo,
          lines: promo.promoLines(priced.lines),
          alreadyOffCents: figures.lineMultibuyCents,
          feeOf: chosen.feeOf,
          customer,
          holdMinutes: app.config.orderHoldMinutes,
          orderId,
        });
        if (!held.ok) throw promoError(held);
        discount = {
          promoCode: promo.promo.code,
          discountCents: held.figures.discountCents,
          deliveryDiscountCents: held.figures.deliveryDiscountCents,
        };
        lines = lines.map((line, index) => ({ ...line, discountCents: held.figures.lineDiscountsCents[index] ?? 0 }));
      }

      const policies = await app.policies.current();
      const newOrder = {
        id: orderId,
        userId: user.id,
        subtotalCents: priced.subtotalCents,
        deliveryFeeCents: priced.deliveryFeeCents,
        totalCents: priced.totalCents,
        ...discount,
        multibuyDiscountCents: figures?.multibuyDiscountCents ?? 0,
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
        placedFrom: clientNetwork(request.ip),
        delivery: chosen,
        lines,
        policyVersionIds: {
          terms: policies.terms.id,
          returnPolicy: policies["return-policy"].id,
          privacy: policies.privacy.id,
        },
      };
      const placed = await placeOrder(app.pool, newOrder, caps);
      if (!placed.ok) {
        if (discount.promoCode) await dropPromoHold(app.db, orderId);
        if ("capped" in placed) throw unpaidCapReached(placed.capped);
        throw conflict(shortMessage(placed.short), "OUT_OF_STOCK");
      }
      // The plan waits for the first payment (plans/start.ts); a card plan's checkout tokenizes the card.
      const planId = input.plan
        ? await createPlanForOrder(app.db, newOrder, {
            cadenceWeeks: input.plan.cadenceWeeks,
            mode: input.plan.payBy === "card" ? "card" : "reminder",
            termsVersionId: policies.terms.id,
          })
        : undefined;
      if (payBox && !(await recordPayLinkOrder(app.db, payBox, newOrder.id, newOrder.totalCents))) {
        // Paid, skipped or charged between the check and now: the new order is left to expire unpaid.
        throw badRequest(PAY_LINK_INVALID, "PLAN_LINK_INVALID");
      }
      request.log.info(
        { orderId: newOrder.id, totalCents: newOrder.totalCents, planId: planId ?? payBox?.planId },
        "order created",
      );

      return {
        orderId: newOrder.id,
        payfastData: buildCheckoutForm(
          { ...newOrder, items: newOrder.lines, tokenize: input.plan?.payBy === "card" },
          app.config,
        ),
        payfastUrl: payfastProcessUrl(app.config),
        ...(planId ? { planId } : {}),
      };
    },
  );

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
      await countOrderAttempt(request, reply, "cancel-order", user.id);
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

  /** The 409 of a holder at its cap: what to do next (no figure: a refusal never tells counts). */
  function unpaidCapReached(who: "account" | "address") {
    const whose = who === "account" ? "Your account" : "Your network";
    return conflict(
      `${whose} already has as many unpaid orders as it may hold. Please pay or cancel one (My Account lists your orders), or wait for an unpaid one to expire, then try again.`,
      "TOO_MANY_UNPAID_ORDERS",
    );
  }

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
