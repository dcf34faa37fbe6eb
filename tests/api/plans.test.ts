import { randomInt, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, planUnitPriceCents } from "#domain/plans.js";
import { saDay } from "#domain/sa-calendar.js";
import type { Plan } from "#domain/schemas/plans.js";
import { signPlanSkipLink } from "#server/plans/links.js";
import { freePort } from "#server/platform/db/embedded.js";
import { emails, planCharges, plans, shopKeys } from "#server/platform/db/schema.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { createOrderPayload } from "../helpers/orders.js";
import { withSubjects } from "../helpers/outbox.js";
import { completeItn } from "../helpers/payfast.js";
import { inStockSizes, type StockedProduct, sizePriceCents, stockedCatalog } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

const validator = http.createServer((request, response) => {
  request.resume().on("end", () => response.writeHead(200, { "content-type": "text/plain" }).end("VALID"));
});

let t: TestApp;
let publicUrl: string;
let shopper: LoggedInUser;
let other: LoggedInUser;
let product: StockedProduct;
let size: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => validator.listen(0, "127.0.0.1", resolve));
  // Listening, so the emulator's checkout notifies the shop over HTTP: a card plan's token is the emulator's.
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  t = await buildTestApp({
    PUBLIC_URL: publicUrl,
    PORT: String(port),
    // Hand-made notifications (a replay, another token) are confirmed by this stand-in of PayFast's validate.
    PAYFAST_VALIDATE_URL: `http://127.0.0.1:${(validator.address() as AddressInfo).port}/eng/query/validate`,
  });
  await t.app.listen({ port, host: "127.0.0.1" });
  [shopper, other] = await Promise.all([registerAndLogin(t), registerAndLogin(t)]);
  const found = (await stockedCatalog(t.db)).find(
    (candidate) => candidate.maxPerOrder >= 3 && inStockSizes(candidate).length >= 2,
  );
  if (!found) throw new Error("no product in stock in two sizes");
  product = found;
  size = inStockSizes(found)[0] as string;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => validator.close(resolve));
});

/** Create-order with a plan: the cart's figures at plan prices (the owner's default 5% off). */
async function startPlan(
  who: LoggedInUser,
  plan: { cadenceWeeks: number; payBy: "card" | "eft" },
  quantity = 1,
  extra: Record<string, unknown> = {},
) {
  const unit = planUnitPriceCents(sizePriceCents(product, size), product.planSavingBp ?? 500);
  return t.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: who.headers,
    payload: {
      ...createOrderPayload(who, [{ ...product, priceCents: unit, size, quantity }]),
      plan,
      ...extra,
    },
  });
}

function notify(orderId: string, amount: string, pfPaymentId: string, extra: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url: "/api/payfast/notify",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: completeItn(orderId, amount, pfPaymentId, shopper.user.email, undefined, extra),
  });
}

/** A plan started and its first box paid; `token` is the tokenized card's (none: EFT). */
async function paidPlan(token: string | null = randomUUID()) {
  const started = await startPlan(shopper, { cadenceWeeks: 4, payBy: token ? "card" : "eft" });
  expect(started.statusCode).toBe(200);
  const answer = started.json() as { orderId: string; planId: string; payfastData: Record<string, string> };
  const paid = await notify(answer.orderId, answer.payfastData.amount as string, String(randomInt(1e6, 1e7)), {
    ...(token ? { token } : {}),
  });
  expect(paid.statusCode).toBe(200);
  return { ...answer, token };
}

/** A card plan paid on the emulator's tokenizing checkout: its token is one the emulator issued. */
async function emulatorCardPlan() {
  const started = await startPlan(shopper, { cadenceWeeks: 4, payBy: "card" });
  expect(started.statusCode).toBe(200);
  const { planId, payfastData } = started.json() as { planId: string; payfastData: Record<string, string> };
  const paid = await t.app.inject({
    method: "POST",
    url: "/payfast-emulator/eng/complete",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: publicUrl },
    payload: new URLSearchParams(payfastData).toString(),
  });
  expect(paid.statusCode).toBe(303);
  const row = await planRow(planId);
  expect(row).toMatchObject({ status: "active", mode: "card" });
  return { planId, token: row?.payfastToken as string };
}

const planRow = async (id: string) => (await t.db.select().from(plans).where(eq(plans.id, id)))[0];
const base = () => `/api/users/${shopper.user.id}/plans`;
const act = (path: string, payload?: Record<string, unknown>, who = shopper) =>
  t.app.inject({ method: "POST", url: path, headers: who.headers, ...(payload ? { payload } : {}) });
const change = (planId: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: "PATCH", url: `${base()}/${planId}`, headers: shopper.headers, payload });

describe("starting a plan at checkout", () => {
  it("prices the first box at the plan price and makes a plan waiting for its first payment", async () => {
    const started = await startPlan(shopper, { cadenceWeeks: 4, payBy: "card" });
    expect(started.statusCode).toBe(200);
    const { planId, payfastData } = started.json() as { planId: string; payfastData: Record<string, string> };
    const unit = planUnitPriceCents(sizePriceCents(product, size), 500);
    expect(Number(payfastData.amount) * 100).toBeCloseTo(unit + (unit >= 50_000 ? 0 : 7_500), 5);
    expect((await planRow(planId))?.status).toBe("pending_first_payment");
  });

  it("refuses the shelf price as a plan's line price: the client's figures are only compared", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: shopper.headers,
      payload: {
        ...createOrderPayload(shopper, [{ ...product, priceCents: sizePriceCents(product, size), size, quantity: 1 }]),
        plan: { cadenceWeeks: 4, payBy: "card" },
      },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe("CART_CHANGED");
  });

  it.each([1, 9, 2.5])("refuses a cadence of %s weeks", async (cadenceWeeks) => {
    const response = await startPlan(shopper, { cadenceWeeks, payBy: "card" });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("VALIDATION_FAILED");
  });

  it("takes the edges, 2 and 8 weeks", async () => {
    for (const cadenceWeeks of [2, 8])
      expect((await startPlan(other, { cadenceWeeks, payBy: "eft" })).statusCode).toBe(200);
  });

  it("refuses a promo code with a plan", async () => {
    const response = await startPlan(shopper, { cadenceWeeks: 4, payBy: "card" }, 1, { promoCode: "WELCOME10" });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("PROMO_NOT_APPLICABLE");
  });
});

describe("the token from PayFast's notification", () => {
  it("stores the token of the first payment and makes the plan active, its next box a cadence away", async () => {
    const { planId, token } = await paidPlan();
    const row = await planRow(planId);
    expect(row).toMatchObject({ status: "active", mode: "card", payfastToken: token });
    expect(row?.nextDate).toBe(addDays(saDay(), 28));
  });

  it("never replaces or cancels a live token with a replayed or later first notification", async () => {
    const { planId, orderId, payfastData, token } = await paidPlan();
    const amount = payfastData.amount as string;
    // The same payment again, and another payment of the same order carrying another token.
    await notify(orderId, amount, String(randomInt(1e6, 1e7)), { token: randomUUID() });
    const row = await planRow(planId);
    expect(row).toMatchObject({ status: "active", payfastToken: token, tokenCancelledAt: null });
  });

  it("paid by EFT, without a token, the plan sends reminders", async () => {
    const { planId } = await paidPlan(null);
    expect(await planRow(planId)).toMatchObject({ status: "active", mode: "reminder", payfastToken: null });
  });

  it("a CANCELLED notification with the token cancels the plan", async () => {
    const { planId, orderId, payfastData, token } = await paidPlan();
    const answer = await notify(orderId, payfastData.amount as string, String(randomInt(1e6, 1e7)), {
      payment_status: "CANCELLED",
      token: token as string,
    });
    expect(answer.statusCode).toBe(200);
    expect(await planRow(planId)).toMatchObject({ status: "cancelled", cancelReason: "payfast" });
  });

  it("a CANCELLED notification that is not signed by us changes nothing", async () => {
    const { planId, orderId, token } = await paidPlan();
    const body = completeItn(orderId, "1.00", "1", shopper.user.email, undefined, {
      payment_status: "CANCELLED",
      token: token as string,
    }).replace(/signature=[0-9a-f]+/, "signature=00000000000000000000000000000000");
    const answer = await t.app.inject({
      method: "POST",
      url: "/api/payfast/notify",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: body,
    });
    expect(answer.statusCode).toBe(400);
    expect((await planRow(planId))?.status).toBe("active");
  });
});

describe("My plans", () => {
  it("lists the plan with its next box at today's prices", async () => {
    const { planId } = await paidPlan();
    const response = await t.app.inject({ method: "GET", url: base(), headers: shopper.headers });
    expect(response.statusCode).toBe(200);
    const found = (response.json() as Plan[]).find((candidate) => candidate.id === planId);
    const unit = planUnitPriceCents(sizePriceCents(product, size), 500);
    expect(found?.lines).toMatchObject([{ productId: product.id, size, quantity: 1, planPriceCents: unit }]);
    expect(found?.next.subtotalCents).toBe(unit);
  });

  it("skips the next box: its date is recorded as skipped and the plan moves on by its cadence", async () => {
    const { planId } = await paidPlan();
    const before = await planRow(planId);
    const response = await act(`${base()}/${planId}/skip`);
    expect(response.statusCode).toBe(200);
    const answer = response.json() as Plan;
    expect(answer.nextDate).toBe(addDays(before?.nextDate as string, 28));
    expect(answer.effect).toMatch(/^Skipped the box of .*Next box: .*R\d/);
    const charges = await t.db.select().from(planCharges).where(eq(planCharges.planId, planId));
    expect(charges).toMatchObject([{ deliveryDate: before?.nextDate, status: "skipped" }]);
  });

  it("changes the date, the cadence, the size and quantity, and adds a product, each checked at its limits", async () => {
    const { planId } = await paidPlan();
    const today = saDay();
    expect((await change(planId, { nextDate: today })).statusCode).toBe(400);
    expect((await change(planId, { nextDate: addDays(today, 85) })).statusCode).toBe(400);
    expect((await change(planId, { nextDate: "2027-02-30" })).statusCode).toBe(400);
    const moved = await change(planId, { nextDate: addDays(today, 84) });
    expect(moved.statusCode).toBe(200);
    expect((moved.json() as Plan).nextDate).toBe(addDays(today, 84));
    expect((await change(planId, { cadenceWeeks: 1 })).statusCode).toBe(400);
    expect((await change(planId, { cadenceWeeks: 9 })).statusCode).toBe(400);
    expect(((await change(planId, { cadenceWeeks: 8 })).json() as Plan).cadenceWeeks).toBe(8);

    const otherSize = inStockSizes(product)[1] as string;
    const max = product.maxPerOrder;
    const tooMany = await change(planId, { lines: [{ productId: product.id, size: otherSize, quantity: max + 1 }] });
    expect(tooMany.statusCode).toBe(400);
    expect(
      (await change(planId, { lines: [{ productId: product.id, size: otherSize, quantity: 0 }] })).statusCode,
    ).toBe(400);
    expect(
      (await change(planId, { lines: [{ productId: product.id, size: "XXL-none", quantity: 1 }] })).statusCode,
    ).toBe(400);
    expect((await change(planId, { lines: [] })).statusCode).toBe(400);
    const another = (await stockedCatalog(t.db)).find(
      (candidate) => candidate.id !== product.id && candidate.sizes.length > 0,
    );
    const lines = [
      { productId: product.id, size: otherSize, quantity: max },
      { productId: another?.id as string, size: another?.sizes[0] as string, quantity: 1 },
    ];
    const changed = await change(planId, { lines });
    expect(changed.statusCode).toBe(200);
    const answer = changed.json() as Plan;
    expect(answer.lines.map(({ productId, size: s, quantity }) => ({ productId, size: s, quantity }))).toEqual(lines);
    expect(answer.effect).toContain("contents are changed");
    expect(answer.next.subtotalCents).toBe(
      answer.lines.reduce((sum, line) => sum + line.planPriceCents * line.quantity, 0),
    );
  });

  it("pauses until a date within 26 weeks, then resumes", async () => {
    const { planId } = await paidPlan();
    const today = saDay();
    expect((await act(`${base()}/${planId}/pause`, { until: addDays(today, 183) })).statusCode).toBe(400);
    expect((await act(`${base()}/${planId}/resume`)).statusCode).toBe(409);
    const paused = await act(`${base()}/${planId}/pause`, { until: addDays(today, 182) });
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({
      status: "paused",
      pausedUntil: addDays(today, 182),
      nextDate: addDays(today, 182),
    });
    expect((await act(`${base()}/${planId}/skip`)).statusCode).toBe(409);
    const resumed = await act(`${base()}/${planId}/resume`);
    expect(resumed.json()).toMatchObject({ status: "active", pausedUntil: null });
  });

  it("cancels at once, and the sweep ends the token at PayFast once", async () => {
    const { planId, token } = await emulatorCardPlan();
    expect((await t.app.payfastEmulator?.token(token))?.status).toBe("ACTIVE");
    const response = await act(`${base()}/${planId}/cancel`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: "cancelled" });
    expect((response.json() as Plan).effect).toContain("cancelled");
    expect(await t.app.sweepPlans()).toBe(1);
    expect(await t.app.sweepPlans()).toBe(0);
    expect((await t.app.payfastEmulator?.token(token))?.status).toBe("CANCELLED");
    expect((await planRow(planId))?.tokenCancelledAt).not.toBeNull();
    expect((await act(`${base()}/${planId}/cancel`)).statusCode).toBe(409);
    expect((await act(`${base()}/${planId}/skip`)).statusCode).toBe(409);
  });

  it("delivers now: the next box is today", async () => {
    const { planId } = await paidPlan();
    const response = await act(`${base()}/${planId}/deliver-now`);
    expect(response.json()).toMatchObject({ nextDate: saDay() });
  });

  it("is the owner's only: another customer gets 403 on the list and 404 on a plan", async () => {
    const { planId } = await paidPlan();
    const list = await t.app.inject({ method: "GET", url: base(), headers: other.headers });
    expect(list.statusCode).toBe(403);
    const skip = await act(`/api/users/${other.user.id}/plans/${planId}/skip`, undefined, other);
    expect(skip.statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: "POST", url: `${base()}/${planId}/skip` });
    expect(anonymous.statusCode).toBe(401);
    expect((await act(`${base()}/not-a-uuid/skip`)).statusCode).toBe(400);
  });
});

describe("the next-box e-mail and its skip link", () => {
  const key = async () => {
    const [row] = await t.db.select().from(shopKeys).where(eq(shopKeys.name, "plan_links"));
    return Buffer.from(row?.key as string, "hex");
  };

  it("writes one e-mail per plan and date, 3 days ahead, and its link skips that box without a login", async () => {
    const { planId } = await paidPlan();
    const row = await planRow(planId);
    const today = addDays(row?.nextDate as string, -3);
    await t.app.sendPlanNotices(today);
    await t.app.sendPlanNotices(today);
    const written = withSubjects(
      t,
      await t.db
        .select()
        .from(emails)
        .where(eq(emails.eventKey, `${planId}:${row?.nextDate}`)),
    );
    expect(written).toHaveLength(1);
    expect(written[0]?.subject).not.toContain(product.name);
    const skipUrl = (written[0]?.data as { skipUrl: string } | undefined)?.skipUrl ?? "";
    const token = new URL(skipUrl).searchParams.get("skip") as string;
    const shown = await t.app.inject({ method: "GET", url: `/api/plan-links/skip?token=${encodeURIComponent(token)}` });
    expect(shown.statusCode).toBe(200);
    const skipped = await t.app.inject({ method: "POST", url: "/api/plan-links/skip", payload: { token } });
    expect(skipped.statusCode).toBe(200);
    expect((await planRow(planId))?.nextDate).toBe(addDays(row?.nextDate as string, 28));
    // Used once: the box it names is no longer next.
    const again = await t.app.inject({ method: "POST", url: "/api/plan-links/skip", payload: { token } });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe("PLAN_LINK_INVALID");
  });

  it("says a price that rose since the last box", async () => {
    const { planId } = await paidPlan();
    await t.pool.query("update plan_lines set last_unit_price_cents = 1 where plan_id = $1", [planId]);
    const row = await planRow(planId);
    await t.app.sendPlanNotices(addDays(row?.nextDate as string, -3));
    const [written] = await t.db
      .select()
      .from(emails)
      .where(eq(emails.eventKey, `${planId}:${row?.nextDate}`));
    const data = written?.data as { lines: { previousUnitPriceCents: number }[] } | undefined;
    expect(data?.lines[0]?.previousUnitPriceCents).toBe(1);
  });

  it("refuses an expired and a tampered link", async () => {
    const { planId } = await paidPlan();
    const row = await planRow(planId);
    const link = { planId, date: row?.nextDate as string };
    const expired = signPlanSkipLink(await key(), link, new Date(Date.now() - 1000));
    const valid = signPlanSkipLink(await key(), link, new Date(Date.now() + 60_000));
    const [body, mac] = valid.split(".");
    const forged = Buffer.from(JSON.stringify({ p: randomUUID(), d: link.date, x: 4e9 })).toString("base64url");
    for (const token of [expired, `${forged}.${mac}`, `${body}.${mac?.slice(1)}x`, "junk"]) {
      const answer = await t.app.inject({ method: "POST", url: "/api/plan-links/skip", payload: { token } });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().code).toBe("PLAN_LINK_INVALID");
    }
    expect((await planRow(planId))?.nextDate).toBe(row?.nextDate);
    expect(
      (await t.app.inject({ method: "POST", url: "/api/plan-links/skip", payload: { token: valid } })).statusCode,
    ).toBe(200);
  });
});
