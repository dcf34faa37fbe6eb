import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import { PLAN_LINES_MAX } from "#domain/limits.js";
import type { SavingsCheck } from "#domain/multibuy.js";
import { type PricedOrder, type PricedOrderLine, priceOrder } from "#domain/order-pricing.js";
import type { CreateOrderAnswer, createOrderInput } from "#domain/schemas/orders.js";
import { provenEmail } from "../auth/accounts.js";
import type { SessionUser } from "../auth/guards.js";
import { deliveryForOrder, type OrderDeliveryChoice } from "../delivery/order-delivery.js";
import { storedAddress } from "../orders/delivery-address.js";
import { type NewOrder, placeOrder, shortMessage } from "../orders/place-order.js";
import type { productsForOrderQuery } from "../orders/queries.js";
import { savingsForOrder } from "../orders/savings.js";
import { buildCheckoutForm, payfastProcessUrl } from "../payfast/adapter.js";
import {
  PAY_LINK_INVALID,
  type PayLinkBox,
  payLinkBox,
  recordPayLinkOrder,
  requireCartIsBox,
} from "../plans/pay-link.js";
import { atPlanPrices } from "../plans/prices.js";
import { createPlanForOrder } from "../plans/start.js";
import { clientNetwork } from "../platform/client-network.js";
import { badRequest, conflict, unauthorized } from "../platform/errors.js";
import type { ShopApp } from "../platform/feature.js";
import { dropPromoHold, type PromoCustomer, promoError, promoForOrder, reservePromo } from "../promo/codes.js";

export type OrderRequest = z.infer<typeof createOrderInput>;

/** What a checkout needs of the shop, made once per server (routes.ts). */
export interface Checkout {
  app: ShopApp;
  findProducts: ReturnType<typeof productsForOrderQuery>;
  /** The key of plan pay links (plans/links.ts). */
  planKey: () => Promise<Buffer>;
}

/**
 * POST /api/create-order as its named steps (docs/architecture.md, "the money path"): check the
 * request, price the cart (delivery, plan prices, multi-buy, the code), hold the code's use, place
 * the order with its stock held, start or move the plan, and build PayFast's form. The server is
 * the only authority on prices and stock: every line is re-priced from the database and held
 * before the shopper is sent to pay.
 */
export async function placeCheckoutOrder(
  checkout: Checkout,
  request: FastifyRequest,
  user: SessionUser,
  input: OrderRequest,
  /** The per-minute limit of create-order (orders/attempts.ts), counted once the request is sound. */
  countAttempt: () => Promise<void>,
): Promise<CreateOrderAnswer> {
  checkRequest(input, user);
  await countAttempt();
  // A reminder plan's box (plans/pay-link.ts): the cart must be the box the link names.
  const payBox = input.planPayLink
    ? await payLinkBox(checkout.app.db, await checkout.planKey(), input.planPayLink, user.id)
    : null;
  if (payBox) requireCartIsBox(payBox, input.items);
  const cart = await priceCart(checkout, request, user, input, payBox);
  const orderId = randomUUID();
  const held = await holdPromo(checkout.app, cart, orderId);
  const newOrder = await placeAndHold(checkout.app, request, user, input, cart, held, orderId);
  const planId = await startPlan(checkout.app, input, payBox, newOrder);
  request.log.info(
    { orderId: newOrder.id, totalCents: newOrder.totalCents, planId: planId ?? payBox?.planId },
    "order created",
  );
  return {
    orderId: newOrder.id,
    payfastData: buildCheckoutForm(
      { ...newOrder, items: newOrder.lines, tokenize: input.plan?.payBy === "card" },
      checkout.app.config,
    ),
    payfastUrl: payfastProcessUrl(checkout.app.config),
    ...(planId ? { planId } : {}),
  };
}

/** Refusals that need nothing from the database: who is ordering, NUL, a plan with a code. */
function checkRequest(input: OrderRequest, user: SessionUser): void {
  // The body's userId is only a claim (docs/product.md §7); the session says who is ordering.
  if (input.userId && input.userId !== user.id) {
    throw unauthorized("Your session does not match the signed-in user. Please log in again.", "SESSION_MISMATCH");
  }
  // PostgreSQL text cannot hold NUL; no real address has one.
  if ([input.customerEmail, ...Object.values(input.deliveryInfo)].some((value) => value?.includes("\u0000"))) {
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
}

/** The cart as the server prices it, with what the later steps need of the pricing. */
interface PricedCart {
  chosen: OrderDeliveryChoice;
  priced: Extract<PricedOrder, { ok: true }>;
  figures: Extract<SavingsCheck, { ok: true }>["figures"] | null;
  promo: Awaited<ReturnType<typeof promoForOrder>> | null;
  customer: (PromoCustomer & { userId: string }) | null;
}

/**
 * Delivery (the chosen option priced and a locker or point checked again, docs/decisions/051), the
 * products (at plan prices for a plan's box), multi-buy tiers and then the code by
 * MULTIBUY_WITH_PROMO (docs/decisions/047): the server's figures alone count.
 */
async function priceCart(
  { app, findProducts }: Checkout,
  request: FastifyRequest,
  user: SessionUser,
  input: OrderRequest,
  payBox: PayLinkBox | null,
): Promise<PricedCart> {
  const delivery = input.deliveryInfo;
  const chosen = await deliveryForOrder(
    { quotes: app.delivery.quotes, directory: app.delivery.directory, log: request.log },
    input.items,
    { ...delivery, address: delivery.address, zipCode: delivery.zipCode },
    input.delivery,
    Boolean(input.plan || payBox),
  );
  const found = await findProducts(input.items.map((item) => item.id));
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
  const savings = savingsForOrder(products, app.config.multibuyWithPromo, promo?.against ?? null, chosen.feeOf);
  const priced = priceOrder(input.items, input, products, savings.totalsOf);
  const outcome = savings.outcome();
  if (outcome && !outcome.ok) throw promoError(outcome);
  if (!priced.ok) throw conflict(priced.message, priced.code);
  if (input.plan && priced.lines.length > PLAN_LINES_MAX) {
    throw badRequest(`A nappy plan holds at most ${PLAN_LINES_MAX} lines (products and sizes).`);
  }
  return { chosen, priced, figures: outcome?.ok ? outcome.figures : null, promo, customer };
}

/** The order's discounts and its lines with them, once the code's use is held. */
interface HeldDiscount {
  discount: { promoCode: string | null; discountCents: number; deliveryDiscountCents: number };
  lines: (PricedOrderLine & { multibuyDiscountCents: number; discountCents?: number })[];
}

/** Holds one use of the code under its row lock, before the order is written (docs/decisions/023). */
async function holdPromo(app: ShopApp, cart: PricedCart, orderId: string): Promise<HeldDiscount> {
  const { priced, figures, promo, customer, chosen } = cart;
  const lines = priced.lines.map((line, index) => ({
    ...line,
    multibuyDiscountCents: figures?.lineMultibuyCents[index] ?? 0,
  }));
  if (!promo?.promo || !customer || !figures?.promoApplied) {
    return { discount: { promoCode: null, discountCents: 0, deliveryDiscountCents: 0 }, lines };
  }
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
  return {
    discount: {
      promoCode: promo.promo.code,
      discountCents: held.figures.discountCents,
      deliveryDiscountCents: held.figures.deliveryDiscountCents,
    },
    lines: lines.map((line, index) => ({ ...line, discountCents: held.figures.lineDiscountsCents[index] ?? 0 })),
  };
}

/**
 * Writes the order and holds its stock in one statement (orders/place-order.ts), under the caps of
 * unpaid orders per account and per network; a refusal gives the code's held use back.
 */
async function placeAndHold(
  app: ShopApp,
  request: FastifyRequest,
  user: SessionUser,
  input: OrderRequest,
  cart: PricedCart,
  { discount, lines }: HeldDiscount,
  orderId: string,
): Promise<NewOrder> {
  const { priced, figures, chosen } = cart;
  const delivery = input.deliveryInfo;
  const policies = await app.policies.current();
  const newOrder: NewOrder = {
    id: orderId,
    userId: user.id,
    subtotalCents: priced.subtotalCents,
    deliveryFeeCents: priced.deliveryFeeCents,
    totalCents: priced.totalCents,
    ...discount,
    multibuyDiscountCents: figures?.multibuyDiscountCents ?? 0,
    customerEmail: input.customerEmail,
    ...storedAddress(delivery),
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
  const limits = app.config.orderLimits;
  const placed = await placeOrder(app.pool, newOrder, {
    perAccount: limits.unpaidPerAccount,
    perAddress: limits.unpaidPerAddress,
  });
  if (!placed.ok) {
    if (discount.promoCode) await dropPromoHold(app.db, orderId);
    if ("capped" in placed) throw unpaidCapReached(placed.capped);
    throw conflict(shortMessage(placed.short), "OUT_OF_STOCK");
  }
  return newOrder;
}

/**
 * A new plan waits for the first payment (plans/start.ts; a card plan's checkout tokenizes the
 * card); a plan's box paid by its link is recorded against the plan. Answers the new plan's id.
 */
async function startPlan(
  app: ShopApp,
  input: OrderRequest,
  payBox: PayLinkBox | null,
  newOrder: NewOrder,
): Promise<string | undefined> {
  const planId = input.plan
    ? await createPlanForOrder(app.db, newOrder, {
        cadenceWeeks: input.plan.cadenceWeeks,
        mode: input.plan.payBy === "card" ? "card" : "reminder",
        termsVersionId: newOrder.policyVersionIds.terms,
      })
    : undefined;
  if (payBox && !(await recordPayLinkOrder(app.db, payBox, newOrder.id, newOrder.totalCents))) {
    // Paid, skipped or charged between the check and now: the new order is left to expire unpaid.
    throw badRequest(PAY_LINK_INVALID, "PLAN_LINK_INVALID");
  }
  return planId;
}

/** The 409 of a holder at its cap: what to do next (no figure: a refusal never tells counts). */
function unpaidCapReached(who: "account" | "address") {
  const whose = who === "account" ? "Your account" : "Your network";
  return conflict(
    `${whose} already has as many unpaid orders as it may hold. Please pay or cancel one (My Account lists your orders), or wait for an unpaid one to expire, then try again.`,
    "TOO_MANY_UNPAID_ORDERS",
  );
}
