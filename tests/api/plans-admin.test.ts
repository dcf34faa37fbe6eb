import { randomInt, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, planUnitPriceCents } from "#domain/plans.js";
import { saDay } from "#domain/sa-calendar.js";
import { signPlanPayLink, signPlanSkipLink } from "#server/plans/links.js";
import { emails, planCharges, plans, shopKeys } from "#server/platform/db/schema.js";
import { insertOrder, type SignedIn, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, capturedText, type TestApp } from "../helpers/app.js";
import { onlyAuditRecord } from "../helpers/audit.js";
import { createOrderPayload } from "../helpers/orders.js";
import { withSubjects } from "../helpers/outbox.js";
import { completeItn } from "../helpers/payfast.js";
import { inStockSizes, type StockedProduct, setStock, sizePriceCents, stockedCatalog } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

const validator = http.createServer((request, response) => {
  request.resume().on("end", () => response.writeHead(200, { "content-type": "text/plain" }).end("VALID"));
});
const cancelledTokens: string[] = [];

let t: TestApp;
let shopper: LoggedInUser;
let other: LoggedInUser;
let admin: SignedIn;
let customer: SignedIn;
let product: StockedProduct;
let size: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => validator.listen(0, "127.0.0.1", resolve));
  t = await buildTestApp({
    PAYFAST_VALIDATE_URL: `http://127.0.0.1:${(validator.address() as AddressInfo).port}/eng/query/validate`,
  });
  Object.assign(t.app.payfastApi, {
    cancelSubscription: async (token: string) => {
      cancelledTokens.push(token);
      return "cancelled" as const;
    },
  });
  [shopper, other, admin, customer] = await Promise.all([
    registerAndLogin(t),
    registerAndLogin(t),
    signInAsAdmin(t),
    signIn(t),
  ]);
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

/** The product as the database holds it now (after a test changed its price or saving). */
async function reloaded(): Promise<StockedProduct> {
  const fresh = (await stockedCatalog(t.db)).find((candidate) => candidate.id === product.id);
  if (!fresh) throw new Error("the product is gone");
  return fresh;
}

const unitCents = () => planUnitPriceCents(sizePriceCents(product, size), product.planSavingBp ?? 500);

/** A plan started at checkout and its first box paid; a token makes it a card plan, none a reminder (EFT) plan. */
async function paidPlan(token: string | null = randomUUID(), who = shopper) {
  const started = await t.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: who.headers,
    payload: {
      ...createOrderPayload(who, [{ ...product, priceCents: unitCents(), size, quantity: 1 }]),
      plan: { cadenceWeeks: 4, payBy: token ? "card" : "eft" },
    },
  });
  expect(started.statusCode, started.body).toBe(200);
  const answer = started.json() as { orderId: string; planId: string; payfastData: Record<string, string> };
  const paid = await notify(who, answer.orderId, answer.payfastData.amount as string, token ? { token } : {});
  expect(paid.statusCode).toBe(200);
  return { ...answer, token };
}

function notify(who: LoggedInUser, orderId: string, amount: string, extra: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url: "/api/payfast/notify",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: completeItn(orderId, amount, String(randomInt(1e6, 1e8)), who.user.email, undefined, extra),
  });
}

const planRow = async (id: string) => (await t.db.select().from(plans).where(eq(plans.id, id)))[0];
const asAdmin = (method: "GET" | "POST", url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie: admin.cookie }, ...(payload ? { payload } : {}) });
const list = async (query = "") => {
  const response = await asAdmin("GET", `/api/admin/plans${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    plans: { id: string; status: string; customer: { email: string }; lastCharge: { status: string } | null }[];
    nextCursor: string | null;
  };
};
const ids = (page: { plans: { id: string }[] }) => page.plans.map((plan) => plan.id);

describe("the admin's Plans list", () => {
  it("answers 401 without a session and 403 to a customer, for the list and the changes", async () => {
    const { planId } = await paidPlan();
    for (const [method, url, payload] of [
      ["GET", "/api/admin/plans", undefined],
      ["POST", `/api/admin/plans/${planId}/cancel`, { reason: "Out of stock" }],
      ["POST", `/api/admin/plans/${planId}/pause`, { reason: "Out of stock", until: addDays(saDay(), 7) }],
    ] as const) {
      const anonymous = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(anonymous.statusCode).toBe(401);
      const refused = await t.app.inject({
        method,
        url,
        headers: { cookie: customer.cookie },
        ...(payload ? { payload } : {}),
      });
      expect(refused.statusCode).toBe(403);
    }
    expect((await planRow(planId))?.status).toBe("active");
  });

  it("lists every plan with its customer, next date, status, mode, next box and last charge", async () => {
    const { planId } = await paidPlan(null, other);
    await t.db.insert(planCharges).values({ planId, deliveryDate: "2026-01-05", status: "skipped" });
    const page = await list(`?q=${encodeURIComponent(other.user.email)}`);
    const found = page.plans.find((plan) => plan.id === planId) as unknown as Record<string, unknown>;
    const row = await planRow(planId);
    expect(found).toMatchObject({
      status: "active",
      mode: "reminder",
      cadenceWeeks: 4,
      nextDate: row?.nextDate,
      customer: { userId: other.user.id, email: other.user.email },
      lines: [{ name: product.name, size, quantity: 1 }],
      lastCharge: { deliveryDate: "2026-01-05", status: "skipped", orderId: null },
    });
    expect(found.nextTotalCents).toBe(unitCents() + (unitCents() >= 50_000 ? 0 : 7_500));
    expect(page.plans.every((plan) => plan.customer.email === other.user.email)).toBe(true);
  });

  it("filters the charges due today and the charges in doubt, and by status", async () => {
    const due = await paidPlan();
    const doubt = await paidPlan();
    const later = await paidPlan();
    await t.pool.query("update plans set next_date = $2 where id = $1", [due.planId, saDay()]);
    await t.db.insert(planCharges).values({ planId: doubt.planId, deliveryDate: saDay(), status: "unknown" });
    const dueToday = ids(await list("?filter=due_today"));
    expect(dueToday).toContain(due.planId);
    expect(dueToday).not.toContain(later.planId);
    const inDoubt = await list("?filter=in_doubt");
    expect(ids(inDoubt)).toEqual([doubt.planId]);
    expect(inDoubt.plans[0]?.lastCharge?.status).toBe("unknown");
    expect(ids(await list("?status=cancelled"))).not.toContain(later.planId);
  });

  it("refuses a filter, a status, a search or a cursor it does not know with a 400", async () => {
    for (const query of ["?filter=soon", "?status=gone", `?q=${"x".repeat(101)}`, "?cursor=bm90LWEtY3Vyc29y"]) {
      const response = await asAdmin("GET", `/api/admin/plans${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    expect((await asAdmin("GET", `/api/admin/plans?q=${"x".repeat(100)}`)).statusCode).toBe(200);
  });

  it("pages 50 plans at a time, newest first, with a cursor to the next", async () => {
    const { rows } = await t.pool.query<{ id: string }>("select id from plans");
    const have = rows.length;
    const more = Math.max(51 - have, 0);
    const [template] = await t.db.select().from(plans).limit(1);
    for (let index = 0; index < more; index += 1) {
      const orderId = await insertOrder(t, { status: "completed", userId: shopper.user.id });
      await t.pool.query(
        `insert into plans (user_id, status, mode, cadence_weeks, next_date, customer_email, delivery_name, delivery_phone,
           delivery_address, delivery_city, delivery_province, delivery_zip_code, created_from_order_id)
         select user_id, 'active', 'card', 4, next_date, customer_email, delivery_name, delivery_phone, delivery_address,
           delivery_city, delivery_province, delivery_zip_code, $2 from plans where id = $1`,
        [template?.id, orderId],
      );
    }
    const first = await list();
    expect(first.plans).toHaveLength(50);
    expect(first.nextCursor).not.toBeNull();
    const second = await list(`?cursor=${first.nextCursor}`);
    expect(second.plans.length).toBe(Math.max(have, 51) - 50);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(Math.max(have, 51));
  });
});

describe("the owner pauses or cancels a plan with a reason", () => {
  it("pauses until a day: audited with the reason, and the customer is e-mailed it", async () => {
    const { planId } = await paidPlan();
    const since = Date.now();
    const until = addDays(saDay(), 14);
    const response = await asAdmin("POST", `/api/admin/plans/${planId}/pause`, {
      reason: "  Our supplier is out of this size until next month  ",
      until,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: planId, status: "paused", pausedUntil: until });
    const audit = await onlyAuditRecord(t, "plan.paused", planId);
    expect(audit.actor_id).toBe(admin.id);
    expect(audit.subject_type).toBe("plan");
    expect(audit.before).toMatchObject({ status: "active" });
    expect(audit.after).toMatchObject({
      status: "paused",
      pausedUntil: until,
      reason: "Our supplier is out of this size until next month",
    });
    expect(audit.at.getTime()).toBeGreaterThanOrEqual(since - 1000);
    const [mail] = withSubjects(
      t,
      await t.db
        .select()
        .from(emails)
        .where(and(eq(emails.kind, "plan_changed_by_shop"), eq(emails.toAddress, shopper.user.email))),
    );
    expect(mail?.subject).toMatch(/nappy plan is paused/);
    expect(mail?.subject).not.toContain(product.name);
    await t.app.mail.deliverDue();
    const text = await capturedText(t, mail?.id as number);
    expect(text).toContain("Our supplier is out of this size until next month");
  });

  it("cancels through the shopper's cancel: audited, e-mailed, and the sweep ends the token at PayFast", async () => {
    const { planId, token } = await paidPlan();
    const response = await asAdmin("POST", `/api/admin/plans/${planId}/cancel`, { reason: "Customer asked by phone" });
    expect(response.statusCode, response.body).toBe(200);
    const row = await planRow(planId);
    expect(row).toMatchObject({ status: "cancelled", cancelReason: "admin" });
    expect((await onlyAuditRecord(t, "plan.cancelled", planId)).after).toMatchObject({
      status: "cancelled",
      reason: "Customer asked by phone",
    });
    const written = withSubjects(
      t,
      await t.db
        .select()
        .from(emails)
        .where(and(eq(emails.kind, "plan_changed_by_shop"), eq(emails.toAddress, shopper.user.email))),
    );
    expect(written.some((mail) => /cancelled/.test(mail.subject))).toBe(true);
    await t.app.sweepPlans();
    expect(cancelledTokens).toContain(token);
    const again = await asAdmin("POST", `/api/admin/plans/${planId}/cancel`, { reason: "Twice" });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("PLAN_STATUS_CONFLICT");
  });

  it("refuses a reason under 3 or over 300 characters, a pause past 26 weeks, a bad id; changes nothing", async () => {
    const { planId } = await paidPlan();
    const tomorrow = addDays(saDay(), 1);
    const refused = [
      { path: "cancel", body: { reason: "no" }, status: 400 },
      { path: "cancel", body: { reason: "x".repeat(301) }, status: 400 },
      { path: "cancel", body: {}, status: 400 },
      { path: "pause", body: { reason: "Stock", until: addDays(saDay(), 183) }, status: 400 },
      { path: "pause", body: { reason: "Stock", until: "2027-02-31" }, status: 400 },
      { path: "pause", body: { reason: "Stock", until: saDay() }, status: 400 },
    ];
    for (const { path, body, status } of refused) {
      const response = await asAdmin("POST", `/api/admin/plans/${planId}/${path}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
    }
    expect((await asAdmin("POST", "/api/admin/plans/not-a-uuid/cancel", { reason: "Stock" })).statusCode).toBe(400);
    expect((await asAdmin("POST", `/api/admin/plans/${randomUUID()}/cancel`, { reason: "Stock" })).statusCode).toBe(
      404,
    );
    expect((await planRow(planId))?.status).toBe("active");
    const edges = await asAdmin("POST", `/api/admin/plans/${planId}/pause`, {
      reason: "x".repeat(300),
      until: addDays(saDay(), 182),
    });
    expect(edges.statusCode, edges.body).toBe(200);
    expect(
      (await asAdmin("POST", `/api/admin/plans/${planId}/pause`, { reason: "abc", until: tomorrow })).statusCode,
    ).toBe(200);
  });
});

describe("the dashboard's plans", () => {
  it("counts active plans, the boxes of the next 7 days with the stock they need, and MRR", async () => {
    // Only this test's plans are active from here on.
    await t.pool.query("update plans set status = 'cancelled', paused_until = null where status <> 'cancelled'");
    // R200.00 a pack, 10% plan saving: R180.00 a pack in a plan.
    await t.pool.query(
      "update products set size_prices = size_prices || jsonb_build_object($2::text, 20000), plan_saving_bp = 1000 where id = $1",
      [product.id, size],
    );
    product = await reloaded();
    const soon = await paidPlan();
    const later = await paidPlan();
    const today = saDay();
    await t.pool.query("update plan_lines set quantity = 2 where plan_id = $1", [soon.planId]);
    await t.pool.query("update plans set next_date = $2, cadence_weeks = 4 where id = $1", [
      soon.planId,
      addDays(today, 6),
    ]);
    await t.pool.query("update plan_lines set quantity = 3 where plan_id = $1", [later.planId]);
    await t.pool.query("update plans set next_date = $2, cadence_weeks = 2 where id = $1", [
      later.planId,
      addDays(today, 7),
    ]);
    await setStock(t.db, product.id, size, 1);
    const dashboard = async () => {
      const response = await asAdmin("GET", "/api/admin/dashboard");
      expect(response.statusCode, response.body).toBe(200);
      return response.json().plans;
    };
    // 2 × R180 = R360 + R75 delivery = R435 every 4 weeks: 43500 × 52 / 48 = 47125 cents;
    // 3 × R180 = R540, delivered free, every 2 weeks: 54000 × 52 / 24 = 117000 cents.
    expect(await dashboard()).toMatchObject({
      active: 2,
      boxesDue: 1,
      boxesDueDays: 7,
      stockNeeded: [{ productId: product.id, size, needed: 2, onHand: 1, short: 1 }],
      mrr: "1641.25",
    });
    // A date skipped is no box to pack.
    await t.db.insert(planCharges).values({ planId: soon.planId, deliveryDate: addDays(today, 6), status: "skipped" });
    expect(await dashboard()).toMatchObject({ active: 2, boxesDue: 0, stockNeeded: [] });
  });
});

describe("a reminder plan's pay link", () => {
  const key = async () => {
    const [row] = await t.db.select().from(shopKeys).where(eq(shopKeys.name, "plan_links"));
    return Buffer.from(row?.key as string, "hex");
  };
  const boxPayload = (token: string, quantity = 1) => ({
    ...createOrderPayload(shopper, [{ ...product, priceCents: unitCents(), size, quantity }]),
    planPayLink: token,
  });
  const payBox = (token: string, quantity = 1) =>
    t.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: shopper.headers,
      payload: boxPayload(token, quantity),
    });
  const showBox = (token: string, who: LoggedInUser | null = shopper) =>
    t.app.inject({
      method: "GET",
      url: `/api/plan-links/pay?token=${encodeURIComponent(token)}`,
      ...(who ? { headers: who.headers } : {}),
    });

  it("is in the next-box e-mail of a reminder plan only, and paying it moves the plan like a charge", async () => {
    await t.pool.query("update products set plan_saving_bp = null where id = $1", [product.id]);
    product = await reloaded();
    await setStock(t.db, product.id, size, 50);
    const reminder = await paidPlan(null);
    const card = await paidPlan();
    const row = await planRow(reminder.planId);
    const date = row?.nextDate as string;
    await t.pool.query("update plans set next_date = $2 where id = $1", [card.planId, date]);
    await t.app.sendPlanNotices(addDays(date, -3));
    const dataOf = async (planId: string) =>
      (
        await t.db
          .select()
          .from(emails)
          .where(eq(emails.eventKey, `${planId}:${date}`))
      )[0]?.data as {
        payUrl: string | null;
      };
    expect((await dataOf(card.planId)).payUrl).toBeNull();
    const payUrl = new URL((await dataOf(reminder.planId)).payUrl as string);
    expect(payUrl.pathname).toBe("/checkout");
    const token = payUrl.searchParams.get("pay") as string;

    const shown = await showBox(token);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({
      planId: reminder.planId,
      date,
      cadenceWeeks: 4,
      lines: [{ productId: product.id, size, quantity: 1 }],
    });
    expect((await showBox(token, null)).statusCode).toBe(401);
    expect((await showBox(token, other)).statusCode).toBe(403);

    const changed = await payBox(token, 2);
    expect(changed.statusCode).toBe(409);
    expect(changed.json().code).toBe("CART_CHANGED");
    const withCode = await t.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: shopper.headers,
      payload: { ...boxPayload(token), promoCode: "WELCOME10" },
    });
    expect(withCode.statusCode).toBe(400);

    const placed = await payBox(token);
    expect(placed.statusCode, placed.body).toBe(200);
    const { orderId, payfastData, planId } = placed.json() as {
      orderId: string;
      payfastData: Record<string, string>;
      planId?: string;
    };
    expect(planId).toBeUndefined();
    expect(payfastData.subscription_type).toBeUndefined();
    const [reminded] = await t.db.select().from(planCharges).where(eq(planCharges.orderId, orderId));
    expect(reminded).toMatchObject({ planId: reminder.planId, deliveryDate: date, status: "reminded" });
    expect((await planRow(reminder.planId))?.nextDate).toBe(date);

    expect((await notify(shopper, orderId, payfastData.amount as string)).statusCode).toBe(200);
    const [paid] = await t.db.select().from(planCharges).where(eq(planCharges.orderId, orderId));
    expect(paid).toMatchObject({ status: "paid", deliveryDate: date });
    expect((await planRow(reminder.planId))?.nextDate).toBe(addDays(date, 28));
    // Its box is paid: the link is spent.
    const again = await showBox(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe("PLAN_LINK_INVALID");
    expect((await payBox(token)).json().code).toBe("PLAN_LINK_INVALID");
  });

  it("refuses an expired, a tampered link, a skip link and a card plan's box, and changes nothing", async () => {
    const reminder = await paidPlan(null);
    const card = await paidPlan();
    const date = (await planRow(reminder.planId))?.nextDate as string;
    const link = { planId: reminder.planId, date };
    const valid = signPlanPayLink(await key(), link, new Date(Date.now() + 60_000));
    const [body, mac] = valid.split(".");
    const forged = Buffer.from(JSON.stringify({ p: card.planId, d: date, x: 4e9 })).toString("base64url");
    const cardLink = signPlanPayLink(
      await key(),
      { planId: card.planId, date: (await planRow(card.planId))?.nextDate as string },
      new Date(Date.now() + 60_000),
    );
    for (const token of [
      signPlanPayLink(await key(), link, new Date(Date.now() - 1000)),
      `${forged}.${mac}`,
      `${body}.${mac?.slice(1)}x`,
      signPlanSkipLink(await key(), link, new Date(Date.now() + 60_000)),
      cardLink,
      "junk",
    ]) {
      const shown = await showBox(token);
      expect(shown.statusCode).toBe(400);
      expect(shown.json().code).toBe("PLAN_LINK_INVALID");
      expect((await payBox(token)).statusCode).toBe(400);
    }
    expect(await t.db.select().from(planCharges).where(eq(planCharges.planId, reminder.planId))).toEqual([]);
    expect((await showBox(valid)).statusCode).toBe(200);
  });
});
