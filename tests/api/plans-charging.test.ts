import { and, asc, eq, ne, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { addDays, planUnitPriceCents } from "#domain/plans.js";
import { orderTotals } from "#domain/pricing.js";
import { saDay } from "#domain/sa-calendar.js";
import type { PayfastEmulator } from "#server/payfast/emulator.js";
import { cardUpdateUrl, claim } from "#server/plans/charge.js";
import { freePort } from "#server/platform/db/embedded.js";
import {
  emails,
  orderItems,
  orders,
  payfastEmulatorPayments,
  payfastItns,
  payfastProblems,
  planCharges,
  plans,
  products,
} from "#server/platform/db/schema.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { createOrderPayload } from "../helpers/orders.js";
import {
  inStockSizes,
  type StockedProduct,
  setStock,
  sizePriceCents,
  stockedCatalog,
  stockOf,
} from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";
import { waitFor } from "../helpers/wait.js";

/**
 * The charging round against the PayFast emulator (docs/decisions/050, "Charging"): every plan is
 * started through the emulator's tokenizing checkout, so its token is the emulator's, and every box
 * is charged through the shop's API client over real HTTP to the emulator.
 */
const form = (fields: Record<string, string>) => new URLSearchParams(Object.entries(fields)).toString();

let t: TestApp;
let publicUrl: string;
let emulator: PayfastEmulator;
let shopper: LoggedInUser;
let product: StockedProduct;
let size: string;
let otherSize: string;

beforeAll(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  t = await buildTestApp({ PUBLIC_URL: publicUrl, PORT: String(port), PAYFAST_RECONCILE_MINUTES: "600" });
  await t.app.listen({ port, host: "127.0.0.1" });
  const found = t.app.payfastEmulator;
  if (!found) throw new Error("no emulator in local mode");
  emulator = found;
  shopper = await registerAndLogin(t);
  const stocked = (await stockedCatalog(t.db)).find(
    (candidate) => candidate.maxPerOrder >= 3 && inStockSizes(candidate).length >= 2,
  );
  if (!stocked) throw new Error("no product in stock in two sizes");
  product = stocked;
  [size, otherSize] = inStockSizes(stocked) as [string, string];
  await setStock(t.db, product.id, size, 500);
  await setStock(t.db, product.id, otherSize, 500);
});
afterAll(() => t.close());
// Each test's plans end with it: a charging round charges every plan due, whoever's test made it.
afterEach(async () => {
  emulator.tokenNotifications("normal");
  emulator.refuseApiCalls("none");
  await t.db
    .update(plans)
    .set({ status: "cancelled", pausedUntil: null, tokenCancelledAt: sql`now()` })
    .where(ne(plans.status, "cancelled"));
});

const planRow = async (id: string) => (await t.db.select().from(plans).where(eq(plans.id, id)))[0];
const chargeRows = (planId: string) =>
  t.db.select().from(planCharges).where(eq(planCharges.planId, planId)).orderBy(asc(planCharges.deliveryDate));
/** The payments the emulator took on a token: the set-up, then each charge. */
const takenOn = (token: string) =>
  t.db
    .select()
    .from(payfastEmulatorPayments)
    .where(and(eq(payfastEmulatorPayments.token, token), eq(payfastEmulatorPayments.status, "COMPLETE")));
const orderOf = async (id: string) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0];
const plansPath = (planId: string, action = "") => `/api/users/${shopper.user.id}/plans/${planId}${action}`;

/** Today's plan price of a size (the owner's 5% unless the product has its own saving). */
async function planPrice(productId: string, ofSize: string): Promise<number> {
  const [row] = await t.db.select().from(products).where(eq(products.id, productId));
  if (!row) throw new Error("no product");
  return planUnitPriceCents(sizePriceCents(row, ofSize), row.planSavingBp ?? 500);
}

async function setSizePrice(cents: number, ofSize = size): Promise<void> {
  const [row] = await t.db.select().from(products).where(eq(products.id, product.id));
  await t.db
    .update(products)
    .set({ sizePrices: { ...row?.sizePrices, [ofSize]: cents } })
    .where(eq(products.id, product.id));
}

/** A card plan started at checkout and paid on the emulator's page: the plan is active with the emulator's token. */
async function cardPlan(quantity = 2): Promise<{ planId: string; token: string; firstDate: string }> {
  const unit = await planPrice(product.id, size);
  const started = await t.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: shopper.headers,
    payload: {
      ...createOrderPayload(shopper, [{ ...product, priceCents: unit, size, quantity }]),
      plan: { cadenceWeeks: 4, payBy: "card" },
    },
  });
  expect(started.statusCode).toBe(200);
  const { planId, payfastData } = started.json() as { planId: string; payfastData: Record<string, string> };
  const paid = await t.app.inject({
    method: "POST",
    url: "/payfast-emulator/eng/complete",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: publicUrl },
    payload: form(payfastData),
  });
  expect(paid.statusCode).toBe(303);
  const row = await waitFor(
    () => planRow(planId),
    (found) => found?.status === "active",
  );
  expect(row).toMatchObject({ status: "active", mode: "card" });
  return { planId, token: row?.payfastToken as string, firstDate: row?.nextDate as string };
}

/** The box's expected figures at a unit price: plan price lines and the delivery rule of every order. */
const boxTotals = (unitCents: number, quantity: number) => orderTotals([{ unitPriceCents: unitCents, quantity }]);

describe("a plan's boxes", () => {
  it("charges three deliveries at each day's prices, each order paid with its own figures and invoice", async () => {
    const { planId, token, firstDate } = await cardPlan(2);
    const original = sizePriceCents(product, size);
    const dates = [firstDate, addDays(firstDate, 28), addDays(firstDate, 56)];
    const prices = [original, original + 2_000, original + 3_500];
    for (const [index, date] of dates.entries()) {
      await setSizePrice(prices[index] as number);
      const summary = await t.app.plans.charge(date);
      expect(summary).toMatchObject({ paid: 1, declined: 0, unknown: 0 });
      // Charging the same day again takes nothing: the date's row is paid.
      expect((await t.app.plans.charge(date)).paid).toBe(0);
    }
    await setSizePrice(original);
    const rows = await chargeRows(planId);
    expect(rows.map((row) => [row.deliveryDate, row.status])).toEqual(dates.map((date) => [date, "paid"]));
    for (const [index, row] of rows.entries()) {
      const order = await orderOf(row.orderId as string);
      const unit = planUnitPriceCents(prices[index] as number, product.planSavingBp ?? 500);
      const expected = boxTotals(unit, 2);
      expect(order).toMatchObject({
        status: "completed",
        // Booked from the charge's answer, or by the notification PayFast sends after it when that
        // arrives first (it can, on a busy machine): once either way, with the same payment.
        paidBy: expect.stringMatching(/^(reconcile|itn)$/),
        pfPaymentId: row.pfPaymentId,
        subtotalCents: expected.subtotalCents,
        deliveryFeeCents: expected.deliveryFeeCents,
        totalCents: expected.totalCents,
        deliveryName: "Thandi Mokoena",
        deliveryCity: "Pretoria",
      });
      expect(order?.invoiceNumber).not.toBeNull();
      expect(row.amountCents).toBe(expected.totalCents);
      const [item] = await t.db
        .select()
        .from(orderItems)
        .where(eq(orderItems.orderId, row.orderId as string));
      expect(item).toMatchObject({ size, quantity: 2, unitPriceCents: unit });
      // The notification that follows the charge and the charge's answer book the payment once:
      // whichever came second is the duplicate (the notification, unless it arrived first).
      const itns = await waitFor(
        () =>
          t.db
            .select()
            .from(payfastItns)
            .where(eq(payfastItns.pfPaymentId, row.pfPaymentId as string)),
        (found) => found.length >= 2 && found.some((itn) => itn.via === "itn"),
      );
      expect(itns.find((itn) => itn.via === "itn")?.outcome).toBe(order?.paidBy === "itn" ? "accepted" : "duplicate");
      expect(itns.filter((itn) => itn.outcome === "accepted")).toHaveLength(1);
    }
    expect((await planRow(planId))?.nextDate).toBe(addDays(firstDate, 84));
    // The set-up payment and one charge per box: never a second charge of a box.
    expect(await takenOn(token)).toHaveLength(4);
  });

  it("skips a skipped box and charges the next one", async () => {
    const { planId, token, firstDate } = await cardPlan();
    expect(
      (await t.app.inject({ method: "POST", url: plansPath(planId, "/skip"), headers: shopper.headers })).statusCode,
    ).toBe(200);
    expect((await t.app.plans.charge(firstDate)).paid).toBe(0);
    const second = addDays(firstDate, 28);
    expect((await t.app.plans.charge(second)).paid).toBe(1);
    expect((await chargeRows(planId)).map((row) => row.status)).toEqual(["skipped", "paid"]);
    expect(await takenOn(token)).toHaveLength(2);
  });

  it("charges a box whose size was changed in the new size at its price", async () => {
    const { planId, firstDate } = await cardPlan();
    const changed = await t.app.inject({
      method: "PATCH",
      url: plansPath(planId),
      headers: shopper.headers,
      payload: { lines: [{ productId: product.id, size: otherSize, quantity: 3 }] },
    });
    expect(changed.statusCode).toBe(200);
    expect((await t.app.plans.charge(firstDate)).paid).toBe(1);
    const [row] = await chargeRows(planId);
    const [item] = await t.db
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, row?.orderId as string));
    const unit = await planPrice(product.id, otherSize);
    expect(item).toMatchObject({ size: otherSize, quantity: 3, unitPriceCents: unit });
    expect(row?.amountCents).toBe(boxTotals(unit, 3).totalCents);
  });

  it("does not charge a box out of stock on its day, tells the customer, and charges it once the stock is back", async () => {
    const { planId, token, firstDate } = await cardPlan(2);
    const before = await stockOf(t.db, product.id, size);
    await setStock(t.db, product.id, size, (before?.held ?? 0) + 1);
    const summary = await t.app.plans.charge(firstDate);
    expect(summary).toMatchObject({ outOfStock: 1, paid: 0 });
    const [row] = await chargeRows(planId);
    expect(row).toMatchObject({ status: "out_of_stock", orderId: null });
    expect(await takenOn(token)).toHaveLength(1);
    expect(await stockOf(t.db, product.id, size)).toMatchObject({ held: before?.held ?? 0 });
    const [mail] = await t.db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, "plan_charge_problem"), eq(emails.eventKey, `${planId}:${firstDate}:out_of_stock`)));
    expect(mail?.data).toMatchObject({ reason: "out_of_stock", shortLines: [{ size, wanted: 2, left: 1 }] });
    // A second run the same day writes no second e-mail, and charges nothing while the size is short.
    expect((await t.app.plans.charge(firstDate)).outOfStock).toBe(1);
    await setStock(t.db, product.id, size, 500);
    expect((await t.app.plans.charge(firstDate)).paid).toBe(1);
    expect(await takenOn(token)).toHaveLength(2);
  });

  it("skips a box that was out of stock, when the customer chooses to", async () => {
    const { planId, firstDate } = await cardPlan(2);
    const before = await stockOf(t.db, product.id, size);
    await setStock(t.db, product.id, size, before?.held ?? 0);
    await t.app.plans.charge(firstDate);
    await setStock(t.db, product.id, size, 500);
    const skipped = await t.app.inject({ method: "POST", url: plansPath(planId, "/skip"), headers: shopper.headers });
    expect(skipped.statusCode).toBe(200);
    expect((await chargeRows(planId)).map((row) => row.status)).toEqual(["skipped"]);
    expect((await t.app.plans.charge(firstDate)).paid).toBe(0);
  });
});

describe("a declined card", () => {
  it("releases the stock, mails the card-update link, and the retry two days later succeeds once the card is updated", async () => {
    const { planId, token, firstDate } = await cardPlan(2);
    const held = (await stockOf(t.db, product.id, size))?.held;
    emulator.declineCharges(token, "05");
    expect((await t.app.plans.charge(firstDate)).declined).toBe(1);
    const [declined] = await chargeRows(planId);
    expect(declined).toMatchObject({ status: "declined", attempts: 1 });
    expect(declined?.payfastResponse).toContain("05");
    expect(declined?.retryAt?.getTime()).toBeGreaterThan(Date.now() + 47 * 3_600_000);
    expect((await orderOf(declined?.orderId as string))?.status).toBe("cancelled");
    expect((await stockOf(t.db, product.id, size))?.held).toBe(held);
    expect((await planRow(planId))?.status).toBe("active");
    const [mail] = await t.db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, "plan_charge_problem"), eq(emails.eventKey, `${planId}:${firstDate}:declined`)));
    expect(mail?.data).toMatchObject({
      updateCardUrl: `${publicUrl}/payfast-emulator/eng/recurring/update/${token}?return=${encodeURIComponent(`${publicUrl}/profile?tab=plans`)}`,
    });
    // Not before the retry is due.
    expect((await t.app.plans.charge(firstDate)).paid).toBe(0);
    emulator.declineCharges(token, null);
    await t.db
      .update(planCharges)
      .set({ retryAt: sql`now() - interval '1 minute'` })
      .where(eq(planCharges.planId, planId));
    expect((await t.app.plans.charge(firstDate)).paid).toBe(1);
    const [paid] = await chargeRows(planId);
    expect(paid).toMatchObject({ status: "paid", attempts: 2 });
    expect(paid?.orderId).not.toBe(declined?.orderId);
    expect(await takenOn(token)).toHaveLength(2);
    expect((await planRow(planId))?.nextDate).toBe(addDays(firstDate, 28));
  });

  it("declined twice, the plan needs a card and is not charged again", async () => {
    const { planId, token, firstDate } = await cardPlan();
    emulator.declineCharges(token, "05");
    await t.app.plans.charge(firstDate);
    await t.db
      .update(planCharges)
      .set({ retryAt: sql`now() - interval '1 minute'` })
      .where(eq(planCharges.planId, planId));
    expect((await t.app.plans.charge(firstDate)).needsCard).toBe(1);
    expect((await planRow(planId))?.status).toBe("needs_card");
    expect((await chargeRows(planId))[0]).toMatchObject({ status: "declined", attempts: 2, retryAt: null });
    emulator.declineCharges(token, null);
    expect((await t.app.plans.charge(addDays(firstDate, 60))).paid).toBe(0);
    expect(await takenOn(token)).toHaveLength(1);
  });

  it("needing a card, the customer updates it on PayFast's page, says so in My plans, and the box is charged now", async () => {
    const { planId, token, firstDate } = await cardPlan();
    emulator.declineCharges(token, "05");
    await t.app.plans.charge(firstDate);
    await t.db
      .update(planCharges)
      .set({ retryAt: sql`now() - interval '1 minute'` })
      .where(eq(planCharges.planId, planId));
    expect((await t.app.plans.charge(firstDate)).needsCard).toBe(1);
    expect((await planRow(planId))?.status).toBe("needs_card");
    // The card stays declined (no end to declineCharges) until the buyer saves a new one on PayFast's page.
    const updateUrl = new URL(cardUpdateUrl(t.app.config, token));
    expect(updateUrl.searchParams.get("return")).toBe(`${publicUrl}/profile?tab=plans`);

    const page = await t.app.inject({ method: "GET", url: `${updateUrl.pathname}${updateUrl.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Update your card");
    const saveCard = (fields: Record<string, string>) =>
      t.app.inject({
        method: "POST",
        url: updateUrl.pathname,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: form({ return: `${publicUrl}/profile?tab=plans`, ...fields }),
      });
    expect((await saveCard({ card_number: "4000 0000 0000 0002", expiry: "01/20" })).statusCode).toBe(400);
    expect((await saveCard({ card_number: "12345678901", expiry: "12/30" })).statusCode).toBe(400);
    const saved = await saveCard({ card_number: "4000 0000 0000 0002", expiry: "12/30" });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${publicUrl}/profile?tab=plans`);

    const said = await t.app.inject({
      method: "POST",
      url: plansPath(planId, "/card-updated"),
      headers: shopper.headers,
    });
    expect(said.statusCode).toBe(200);
    const today = saDay();
    expect(said.json()).toMatchObject({ status: "active", nextDate: today });
    expect(said.json().effect).toMatch(/^Thank you: we charge your updated card for this box now\./);
    // The charging run (the route asks for one at once; this one may find it done) charges today's box.
    await t.app.plans.charge(today);
    const row = await waitFor(
      async () => (await chargeRows(planId)).find((charge) => charge.deliveryDate === today),
      (charge) => charge?.status === "paid",
    );
    expect(row?.status).toBe("paid");
    expect(await takenOn(token)).toHaveLength(2);
    expect((await planRow(planId))?.status).toBe("active");
    expect((await planRow(planId))?.nextDate).toBe(addDays(today, 28));
    // Only a plan that needs a card; another customer's plan is not found.
    const again = await t.app.inject({
      method: "POST",
      url: plansPath(planId, "/card-updated"),
      headers: shopper.headers,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("PLAN_STATUS_CONFLICT");
    const stranger = await registerAndLogin(t);
    const theirs = await t.app.inject({
      method: "POST",
      url: `/api/users/${stranger.user.id}/plans/${planId}/card-updated`,
      headers: stranger.headers,
    });
    expect(theirs.statusCode).toBe(404);
  });

  it("an unknown token has no card-update page", async () => {
    const missing = await t.app.inject({ method: "GET", url: "/payfast-emulator/eng/recurring/update/no-such-token" });
    expect(missing.statusCode).toBe(404);
  });

  it("a token PayFast holds (not in a valid state) stops the plan at once: it needs a card", async () => {
    const { planId, token, firstDate } = await cardPlan();
    await emulator.holdToken(token);
    expect((await t.app.plans.charge(firstDate)).needsCard).toBe(1);
    expect((await planRow(planId))?.status).toBe("needs_card");
    const [mail] = await t.db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, "plan_charge_problem"), eq(emails.eventKey, `${planId}:${firstDate}:needs_card`)));
    expect(mail).toBeDefined();
  });
});

describe("a charge PayFast did not answer", () => {
  it("is never charged again blind, and reconciliation settles it as paid from PayFast's history", async () => {
    const { planId, token, firstDate } = await cardPlan();
    emulator.loseNextChargeAnswer(token, { answer: "reset", notification: "lost" });
    expect((await t.app.plans.charge(firstDate)).unknown).toBe(1);
    const [row] = await chargeRows(planId);
    expect(row?.status).toBe("unknown");
    expect((await t.app.plans.charge(firstDate)).paid).toBe(0);
    expect(await takenOn(token)).toHaveLength(2);

    // PayFast's API down: the charge stays in doubt, shown in "Needs attention".
    emulator.refuseApiCalls("rate_limit");
    expect((await t.app.plans.settleCharges()).open).toBe(1);
    const [problem] = await t.db.select().from(payfastProblems).where(eq(payfastProblems.kind, "plan_charges"));
    expect(problem?.clearedAt).toBeNull();
    emulator.refuseApiCalls("none");

    expect(await t.app.plans.settleCharges()).toMatchObject({ paid: 1, open: 0 });
    expect((await chargeRows(planId))[0]).toMatchObject({ status: "paid" });
    expect((await orderOf(row?.orderId as string))?.status).toBe("completed");
    expect((await planRow(planId))?.nextDate).toBe(addDays(firstDate, 28));
    const [cleared] = await t.db.select().from(payfastProblems).where(eq(payfastProblems.kind, "plan_charges"));
    expect(cleared?.clearedAt).not.toBeNull();
    expect(await takenOn(token)).toHaveLength(2);
  });
});

describe("two runners at once", () => {
  it("charge each box once, in one app and from a second app on the same database", async () => {
    const second = await buildTestApp({ PUBLIC_URL: publicUrl, PAYFAST_RECONCILE_MINUTES: "600" }, {}, t.databaseUrl);
    try {
      const { planId, token, firstDate } = await cardPlan();
      const summaries = await Promise.all([
        t.app.plans.charge(firstDate),
        t.app.plans.charge(firstDate),
        second.app.plans.charge(firstDate),
      ]);
      expect(summaries.reduce((sum, summary) => sum + summary.paid, 0)).toBe(1);
      expect(await chargeRows(planId)).toHaveLength(1);
      expect(await takenOn(token)).toHaveLength(2);
    } finally {
      await second.close();
    }
  });
});

describe("a runner whose list is out of date", () => {
  it("does not claim the plan's next box early once another runner charged its due one", async () => {
    const { planId, token, firstDate } = await cardPlan();
    // The second runner read its list while the box was due...
    const stale = { planId, kind: "new" as const };
    // ...then the first runner charged it, and the plan moved a cadence on.
    expect((await t.app.plans.charge(firstDate)).paid).toBe(1);
    expect((await planRow(planId))?.nextDate).toBe(addDays(firstDate, 28));
    expect(await claim(t.app.db, stale, firstDate)).toBeNull();
    expect(await chargeRows(planId)).toHaveLength(1);
    expect(await takenOn(token)).toHaveLength(2);
  });
});

describe("cancelling", () => {
  it("cancelled in the shop, the token is cancelled in PayFast", async () => {
    const { planId, token } = await cardPlan();
    const cancelled = await t.app.inject({
      method: "POST",
      url: plansPath(planId, "/cancel"),
      headers: shopper.headers,
    });
    expect(cancelled.statusCode).toBe(200);
    await t.app.sweepPlans();
    expect((await emulator.token(token))?.status).toBe("CANCELLED");
  });

  it("cancelled in PayFast's dashboard, its notification cancels the plan", async () => {
    const { planId, token } = await cardPlan();
    await emulator.cancelTokenInDashboard(token);
    expect(await planRow(planId)).toMatchObject({ status: "cancelled", cancelReason: "payfast" });
  });

  it("cancelled in PayFast's dashboard with its notification lost, the daily fetch cancels the plan", async () => {
    const { planId, token, firstDate } = await cardPlan();
    emulator.tokenNotifications("lost");
    await emulator.cancelTokenInDashboard(token);
    expect((await planRow(planId))?.status).toBe("active");
    expect(await t.app.plans.checkTokens()).toBe(1);
    expect(await planRow(planId)).toMatchObject({ status: "cancelled", cancelReason: "payfast" });
    expect((await t.app.plans.charge(firstDate)).paid).toBe(0);
  });
});
