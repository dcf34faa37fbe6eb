import { randomUUID } from "node:crypto";
import { and, asc, eq, isNotNull, lte, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Pool } from "pg";
import { centsToDecimal } from "#domain/money.js";
import { priceOrder } from "#domain/order-pricing.js";
import { addDays, PLAN_DECLINE_RETRY_DAYS, PLAN_PLACE_CAP } from "#domain/plans.js";
import { orderTotals } from "#domain/pricing.js";
import { saDay } from "#domain/sa-calendar.js";
import { greetsByName } from "../mail/greeting.js";
import type { PlanChargeProblemData } from "../mail/messages.js";
import { enqueueEmail } from "../mail/outbox.js";
import { cancelOrder } from "../orders/cancel.js";
import { copyAddress } from "../orders/delivery-address.js";
import { documentIssuer } from "../orders/issued-documents.js";
import { type NewOrder, placeOrder, type ShortLine } from "../orders/place-order.js";
import { productsForOrderQuery } from "../orders/queries.js";
import type { PayfastApi } from "../payfast/api-client.js";
import type { bookPayment } from "../payments/book-payment.js";
import type { Config } from "../platform/config.js";
import type { Database } from "../platform/db/client.js";
import { orders, planCharges, planLines, plans } from "../platform/db/schema.js";
import type { CurrentPolicies } from "../policies/publish.js";
import { atPlanPrices } from "./prices.js";

export const PLAN_CHARGE_JOB = "plan-charge";
/**
 * Boxes charged side by side in one run: each holds a connection while its order is placed and
 * booked, so two instances' runs together (8) stay inside the default pool of 10 (DB_POOL_SIZE),
 * with room left for the shop's requests and PayFast's notifications (bench 13: 1,000 boxes).
 */
const CHARGE_CONCURRENCY = 4;
/** The most boxes one run takes up; the next run (15 minutes later) takes the rest. */
const RUN_LIMIT = 5_000;

export interface PlanChargeContext {
  db: Database;
  pool: Pool;
  api: PayfastApi;
  log: FastifyBaseLogger;
  config: Config;
  /** The policy versions in force: every box's order keeps them, as every order does. */
  policies: () => Promise<CurrentPolicies>;
  /**
   * Books a charged box's payment as a PayFast notification would (payments/book-payment.ts, given
   * by plans/index.ts from app.bookPayment): payments/ marks the order paid and settles the charge
   * here (plans/charge-paid.ts), so plans/ does not import payments/.
   */
  bookPayment: typeof bookPayment;
}

export interface ChargeRunSummary {
  paid: number;
  declined: number;
  needsCard: number;
  unknown: number;
  outOfStock: number;
}

type Claimed = { chargeId: string; planId: string; date: string; attempt: number };
type Outcome = keyof ChargeRunSummary | "none";

/**
 * PayFast's page where a buyer changes the card behind a token (docs/decisions/049); the emulator's
 * own page in local mode. The buyer comes back to My plans, where "I've updated my card" charges the box.
 */
export function cardUpdateUrl(config: Config, token: string): string {
  const base =
    config.payfast.mode === "local"
      ? `${config.publicUrl}/payfast-emulator`
      : config.payfast.mode === "sandbox"
        ? "https://sandbox.payfast.co.za"
        : "https://www.payfast.co.za";
  return `${base}/eng/recurring/update/${encodeURIComponent(token)}?return=${encodeURIComponent(`${config.publicUrl}/profile?tab=plans`)}`;
}

/**
 * The charging round (every 15 minutes; docs/decisions/050, "Charging"). Each due box is claimed by
 * writing its plan_charges row first: a new (plan, date) row as "charging" (the unique key lets one
 * runner in, however many run), or a declined row whose retry is due, or an out-of-stock row of the
 * plan's next date, each moved to "charging" by one UPDATE that only one runner matches. Only the
 * runner that claimed it goes on: order at today's plan prices with its stock held, then the ad hoc
 * charge, m_payment_id the order's id.
 */
export async function chargeDuePlans(context: PlanChargeContext, today = saDay()): Promise<ChargeRunSummary> {
  const due = await dueBoxes(context.db, today);
  const findProducts = productsForOrderQuery(context.db);
  const summary: ChargeRunSummary = { paid: 0, declined: 0, needsCard: 0, unknown: 0, outOfStock: 0 };
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const box = due[next++];
      if (!box) return;
      try {
        const outcome = await chargeBox(context, box, today, findProducts);
        if (outcome !== "none") summary[outcome] += 1;
      } catch (error) {
        // The row stays "charging": reconciliation settles it (it never charges again blind).
        context.log.error({ err: error, planId: box.planId }, "a nappy plan box could not be charged");
      }
    }
  };
  await Promise.all(Array.from({ length: CHARGE_CONCURRENCY }, worker));
  return summary;
}

export type DueBox = { planId: string; kind: "new" | "retry" | "restock"; chargeId?: string };

/** Active card plans due today or earlier: dates with no row yet, declines whose retry is due, boxes out of stock. */
async function dueBoxes(db: Database, today: string): Promise<DueBox[]> {
  const fresh = await db
    .select({ planId: plans.id })
    .from(plans)
    .where(
      and(
        eq(plans.status, "active"),
        eq(plans.mode, "card"),
        isNotNull(plans.payfastToken),
        lte(plans.nextDate, today),
        sql`not exists (select from plan_charges c where c.plan_id = ${plans.id} and c.delivery_date = ${plans.nextDate})`,
      ),
    )
    .orderBy(asc(plans.nextDate))
    .limit(RUN_LIMIT);
  const waiting = await db
    .select({ planId: planCharges.planId, chargeId: planCharges.id, status: planCharges.status })
    .from(planCharges)
    .innerJoin(plans, eq(plans.id, planCharges.planId))
    .where(
      and(
        eq(plans.status, "active"),
        isNotNull(plans.payfastToken),
        eq(planCharges.deliveryDate, plans.nextDate),
        sql`((${planCharges.status} = 'declined' and ${planCharges.retryAt} <= now())
          or (${planCharges.status} = 'out_of_stock' and ${plans.nextDate} <= ${today}))`,
      ),
    )
    .limit(RUN_LIMIT);
  return [
    ...fresh.map((row) => ({ planId: row.planId, kind: "new" as const })),
    ...waiting.map((row) => ({
      planId: row.planId,
      chargeId: row.chargeId,
      kind: row.status === "declined" ? ("retry" as const) : ("restock" as const),
    })),
  ];
}

/**
 * The claim: only the runner whose INSERT or UPDATE wrote the row goes on. A new box is claimed for
 * the plan's next date as it is NOW, and only while that date is still due: a runner whose list was
 * read before another runner charged the box (and moved the plan a cadence on) must not claim the
 * next box early (bench 13 caught 9 such second charges in 1,000 with two runners).
 */
export async function claim(db: Database, box: DueBox, today: string): Promise<Claimed | null> {
  if (box.kind === "new") {
    return db.transaction(async (tx) => {
      const [plan] = await tx
        .select({ nextDate: plans.nextDate })
        .from(plans)
        .where(
          and(
            eq(plans.id, box.planId),
            eq(plans.status, "active"),
            eq(plans.mode, "card"),
            isNotNull(plans.payfastToken),
            lte(plans.nextDate, today),
          ),
        )
        .for("update");
      if (!plan) return null;
      const [row] = await tx
        .insert(planCharges)
        .values({
          planId: box.planId,
          deliveryDate: plan.nextDate,
          status: "charging",
          attempts: 1,
          attemptedAt: sql`now()`,
        })
        .onConflictDoNothing()
        .returning({ id: planCharges.id, attempts: planCharges.attempts });
      return row ? { chargeId: row.id, planId: box.planId, date: plan.nextDate, attempt: row.attempts } : null;
    });
  }
  const [row] = await db
    .update(planCharges)
    .set({
      status: "charging",
      // An out-of-stock box was never charged: trying it again is not another attempt at the card.
      attempts: box.kind === "retry" ? sql`${planCharges.attempts} + 1` : planCharges.attempts,
      retryAt: null,
      orderId: null,
      pfPaymentId: null,
      attemptedAt: sql`now()`,
    })
    .where(
      and(
        eq(planCharges.id, box.chargeId as string),
        box.kind === "retry"
          ? sql`${planCharges.status} = 'declined' and ${planCharges.retryAt} <= now()`
          : eq(planCharges.status, "out_of_stock"),
      ),
    )
    .returning({ id: planCharges.id, date: planCharges.deliveryDate, attempts: planCharges.attempts });
  return row ? { chargeId: row.id, planId: box.planId, date: row.date, attempt: row.attempts } : null;
}

type FindProducts = ReturnType<typeof productsForOrderQuery>;

/**
 * One due box: claimed (once, whatever runs at the same time), its order placed with its stock
 * held, the card charged through PayFast's API, and the answer settled: booked, declined (a retry
 * or a new card asked for), or unknown (left to reconciliation, never charged again blind).
 */
async function chargeBox(
  context: PlanChargeContext,
  box: DueBox,
  today: string,
  findProducts: FindProducts,
): Promise<Outcome> {
  const { db } = context;
  const claimed = await claim(db, box, today);
  if (!claimed) return "none";
  const [plan] = await db.select().from(plans).where(eq(plans.id, claimed.planId));
  if (!plan?.payfastToken) return "none";

  const built = await buildBoxOrder(context, plan, findProducts);
  if (!built.ok) return boxOutOfStock(context, plan, claimed, built);
  const { order } = built;
  // Written before PayFast is asked: from here on a crash leaves a row reconciliation can settle.
  await db
    .update(planCharges)
    .set({ orderId: order.id, amountCents: order.totalCents })
    .where(eq(planCharges.id, claimed.chargeId));
  const { outcome, said } = await chargeCard(context, plan.payfastToken, claimed, order);
  switch (outcome.kind) {
    case "paid":
      return boxPaid(context, plan, claimed, order, outcome);
    case "declined":
    case "not_valid_state":
      return boxDeclined(context, plan, claimed, order, { final: outcome.kind === "not_valid_state", said, today });
    case "unknown": {
      // Never charged again blind: reconciliation looks for the order in PayFast's history.
      await db
        .update(planCharges)
        .set({ status: "unknown" })
        .where(and(eq(planCharges.id, claimed.chargeId), eq(planCharges.status, "charging")));
      context.log.warn({ planId: plan.id, orderId: order.id, said }, "nappy plan charge's outcome unknown");
      return "unknown";
    }
  }
}

type PlanRow = typeof plans.$inferSelect;
type ChargeOutcome = Awaited<ReturnType<PayfastApi["chargeToken"]>>;

/** The box cannot be made up (a line sold out or gone): not charged, and the customer told. */
async function boxOutOfStock(
  context: PlanChargeContext,
  plan: PlanRow,
  claimed: Claimed,
  built: Extract<BuiltOrder, { ok: false }>,
): Promise<Outcome> {
  await context.db
    .update(planCharges)
    .set({ status: "out_of_stock", amountCents: null, payfastResponse: built.detail, settledAt: sql`now()` })
    .where(eq(planCharges.id, claimed.chargeId));
  await tellCustomer(context, plan, claimed, {
    reason: "out_of_stock",
    totalCents: 0,
    shortLines: built.short,
    eventKey: `${plan.id}:${claimed.date}:out_of_stock`,
  });
  context.log.info({ planId: plan.id, date: claimed.date }, "nappy plan box out of stock: not charged");
  return "outOfStock";
}

/** The card charged through PayFast's API (adhoc), its words kept on the charge's row. */
async function chargeCard(
  { db, api, config }: PlanChargeContext,
  token: string,
  claimed: Claimed,
  order: NewOrder,
): Promise<{ outcome: ChargeOutcome; said: string }> {
  const outcome = await api.chargeToken(token, {
    amountCents: order.totalCents,
    itemName: `${config.shop.name} nappy plan box ${claimed.date}`.slice(0, 100),
    mPaymentId: order.id,
  });
  const said = outcome.kind === "declined" ? `${outcome.code}: ${outcome.message}` : outcome.message;
  await db
    .update(planCharges)
    .set({
      payfastResponse: said.slice(0, 500),
      ...(outcome.kind === "paid" && outcome.pfPaymentId ? { pfPaymentId: outcome.pfPaymentId } : {}),
    })
    .where(eq(planCharges.id, claimed.chargeId));
  return { outcome, said };
}

/**
 * PayFast took the money: booked as a notification would book it, so the notification that follows
 * is a duplicate, and markOrderPaid settles the charge and moves the plan on (settlePlanChargeOfOrder).
 */
async function boxPaid(
  context: PlanChargeContext,
  plan: PlanRow,
  claimed: Claimed,
  order: NewOrder,
  outcome: Extract<ChargeOutcome, { kind: "paid" }>,
): Promise<Outcome> {
  // PayFast's answer without its id: the notification (or reconciliation) books it by m_payment_id.
  if (!outcome.pfPaymentId) return "paid";
  const { config } = context;
  const booked = await context.bookPayment(
    context.db,
    {
      via: "reconcile",
      orderId: order.id,
      pfPaymentId: outcome.pfPaymentId,
      paymentStatus: "COMPLETE",
      amountGross: centsToDecimal(order.totalCents),
      sourceIp: "PayFast API",
      referer: null,
      rawBody: JSON.stringify({ adhoc: plan.id, date: claimed.date, answer: outcome.message }),
    },
    order.totalCents,
    documentIssuer(config),
  );
  context.log.info({ planId: plan.id, orderId: order.id, outcome: booked.outcome }, "nappy plan box charged");
  return "paid";
}

/**
 * The card was declined (or its token cannot be charged): the box's order is cancelled, a retry
 * set PLAN_DECLINE_RETRY_DAYS later, or after the second try (or a token PayFast will not charge)
 * the plan waits for a new card; the customer is told which.
 */
async function boxDeclined(
  context: PlanChargeContext,
  plan: PlanRow,
  claimed: Claimed,
  order: NewOrder,
  { final: tokenRefused, said, today }: { final: boolean; said: string; today: string },
): Promise<Outcome> {
  const { db } = context;
  await cancelOrder(db, order.id, "expired", { note: `Nappy plan charge not taken: ${said}`.slice(0, 500) });
  const final = tokenRefused || claimed.attempt >= 2;
  const retryAt = final ? null : new Date(Date.now() + PLAN_DECLINE_RETRY_DAYS * 86_400_000);
  await db.transaction(async (tx) => {
    await tx
      .update(planCharges)
      .set({ status: "declined", retryAt, settledAt: sql`now()` })
      .where(eq(planCharges.id, claimed.chargeId));
    if (final) {
      await tx
        .update(plans)
        .set({ status: "needs_card", updatedAt: sql`now()` })
        .where(and(eq(plans.id, plan.id), eq(plans.status, "active")));
    }
  });
  await tellCustomer(context, plan, claimed, {
    reason: final ? "needs_card" : "declined",
    totalCents: order.totalCents,
    retryDate: retryAt ? addDays(today, PLAN_DECLINE_RETRY_DAYS) : null,
    eventKey: `${plan.id}:${claimed.date}:${final ? "needs_card" : "declined"}`,
  });
  context.log.info(
    { planId: plan.id, orderId: order.id, kind: tokenRefused ? "not_valid_state" : "declined", final },
    "nappy plan box not charged",
  );
  return final ? "needsCard" : "declined";
}

type BuiltOrder = { ok: true; order: NewOrder } | { ok: false; short: ShortLine[]; detail: string };

/**
 * The box's order, placed and its stock held by create-order's own statement (place-order.ts): each
 * line at today's plan price (atPlanPrices, priceOrder), the delivery fee rule of every order, the
 * plan's delivery details, the first order's business details, and the policies in force.
 */
async function buildBoxOrder(
  context: PlanChargeContext,
  plan: typeof plans.$inferSelect,
  findProducts: FindProducts,
): Promise<BuiltOrder> {
  const { db } = context;
  const lines = await db.select().from(planLines).where(eq(planLines.planId, plan.id)).orderBy(asc(planLines.id));
  const found = (await findProducts(lines.map((line) => line.productId))).map(atPlanPrices);
  // A size the product no longer sells cannot be packed: told as out of stock, never silently left out.
  const unsold = lines.filter(
    (line) => !found.some((product) => product.id === line.productId && product.sizes.includes(line.size)),
  );
  const sellable = lines.filter((line) => !unsold.includes(line));
  if (sellable.length === 0 || unsold.length > 0) {
    const short = unsold.map((line) => ({
      name: found.find((product) => product.id === line.productId)?.name ?? "A product",
      size: line.size,
      wanted: line.quantity,
      left: 0,
    }));
    return { ok: false, short, detail: "A size in the box is no longer sold." };
  }
  const clientLines = sellable.map((line) => ({ id: line.productId, size: line.size, quantity: line.quantity }));
  const totals = orderTotals(
    sellable.map((line) => {
      const product = found.find((candidate) => candidate.id === line.productId);
      return { unitPriceCents: product?.sizePrices[line.size] ?? product?.priceCents ?? 0, quantity: line.quantity };
    }),
  );
  const priced = priceOrder(
    clientLines,
    {
      subtotal: totals.subtotalCents / 100,
      deliveryFee: totals.deliveryFeeCents / 100,
      total: totals.totalCents / 100,
    },
    found,
  );
  if (!priced.ok) return { ok: false, short: [], detail: priced.message };
  const [first] = await db
    .select({ companyName: orders.companyName, vatNumber: orders.vatNumber })
    .from(orders)
    .where(eq(orders.id, plan.createdFromOrderId));
  const policies = await context.policies();
  const order: NewOrder = {
    id: randomUUID(),
    userId: plan.userId,
    subtotalCents: priced.subtotalCents,
    deliveryFeeCents: priced.deliveryFeeCents,
    totalCents: priced.totalCents,
    promoCode: null,
    discountCents: 0,
    deliveryDiscountCents: 0,
    multibuyDiscountCents: 0,
    customerEmail: plan.customerEmail,
    ...copyAddress(plan),
    companyName: first?.companyName ?? null,
    vatNumber: first?.vatNumber ?? null,
    // Its own holder, so the unpaid caps (a client's limit) never hold a plan's box back.
    placedFrom: `plan:${plan.id}`,
    lines: priced.lines,
    policyVersionIds: {
      terms: policies.terms.id,
      returnPolicy: policies["return-policy"].id,
      privacy: policies.privacy.id,
    },
  };
  const placed = await placeOrder(context.pool, order, { perAccount: PLAN_PLACE_CAP, perAddress: PLAN_PLACE_CAP });
  if (placed.ok) return { ok: true, order };
  if ("short" in placed) return { ok: false, short: placed.short, detail: "Out of stock on the charge day." };
  return { ok: false, short: [], detail: `The customer's unpaid orders are at the cap (${placed.capped}).` };
}

async function tellCustomer(
  context: PlanChargeContext,
  plan: typeof plans.$inferSelect,
  claimed: Claimed,
  said: {
    reason: PlanChargeProblemData["reason"];
    totalCents: number;
    eventKey: string;
    shortLines?: PlanChargeProblemData["shortLines"];
    retryDate?: string | null;
  },
): Promise<void> {
  const { db, config } = context;
  const wrote = await enqueueEmail(db, {
    kind: "plan_charge_problem",
    eventKey: said.eventKey,
    to: plan.customerEmail,
    data: {
      planId: plan.id,
      customerName: plan.deliveryName,
      greetByName: await greetsByName(db, plan.userId, plan.customerEmail),
      chargeDate: claimed.date,
      reason: said.reason,
      totalCents: said.totalCents,
      updateCardUrl: plan.payfastToken ? cardUpdateUrl(config, plan.payfastToken) : null,
      retryDate: said.retryDate ?? null,
      shortLines: said.shortLines ?? [],
      changeUrl: `${config.publicUrl}/profile?tab=plans`,
    },
  });
  if (!wrote) context.log.debug({ eventKey: said.eventKey }, "plan charge e-mail already written");
}
