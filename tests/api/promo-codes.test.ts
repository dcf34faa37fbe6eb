import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRand } from "#domain/money.js";
import { deliveryFeeCents } from "#domain/pricing.js";
import type { Order } from "#domain/schemas/orders.js";
import type { AdminPromoCode, PromoCheckAnswer } from "#domain/schemas/promo.js";
import type { ReturnRequest } from "#domain/schemas/returns.js";
import { expireOrders } from "#server/orders/cancel.js";
import {
  auditLog,
  emails,
  orderItems,
  orders,
  payfastEmulatorRefunds,
  products,
  promoRedemptions,
} from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { confirmEmailChange } from "../helpers/email-change.js";
import { createOrderPayload, type TestCartLine } from "../helpers/orders.js";
import { pdfText } from "../helpers/pdf.js";
import { buildListeningApp, payOnEmulator, stockedLine } from "../helpers/refunds.js";
import { setStock } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

const SHOP_VAT = "4123456789";

let t: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;

beforeAll(async () => {
  t = await buildListeningApp({ SHOP_VAT_NUMBER: SHOP_VAT, PROMO_CHECKS_PER_MINUTE: "1000" }, undefined, 24);
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t);
});
afterAll(() => t?.close());

let codeNumber = 0;
/** A new code, made through the admin's API; `over` in the API's terms. */
async function makeCode(over: Record<string, unknown> = {}): Promise<AdminPromoCode> {
  codeNumber += 1;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/admin/promo-codes",
    headers: { cookie: admin.cookie },
    payload: { code: `test-${codeNumber}-${Date.now() % 100_000}`, kind: "percent", percent: 10, ...over },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as AdminPromoCode;
}

const check = (code: string, lines: readonly TestCartLine[], who: LoggedInUser = shopper) =>
  t.app.inject({
    method: "POST",
    url: "/api/promo-codes/check",
    headers: who.headers,
    payload: { code, items: lines.map((line) => ({ id: line.id, size: line.size, quantity: line.quantity })) },
  });

/** Create-order with a code, the figures as the checkout shows them after its check. */
/** POST /api/create-order with the code and the figures the promo check gave (the base figures when none). */
function placeWithFigures(
  who: LoggedInUser,
  lines: readonly TestCartLine[],
  code: string,
  figures: PromoCheckAnswer | null,
) {
  return t.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: who.headers,
    payload: {
      ...createOrderPayload(who, lines),
      promoCode: code,
      ...(figures
        ? { subtotal: Number(figures.subtotal), deliveryFee: Number(figures.deliveryFee), total: Number(figures.total) }
        : {}),
    },
  });
}

async function orderWithCode(code: string, lines: readonly TestCartLine[], who: LoggedInUser = shopper) {
  const checked = await check(code, lines, who);
  return placeWithFigures(who, lines, code, checked.statusCode === 200 ? (checked.json() as PromoCheckAnswer) : null);
}

async function paidOrderWithCode(code: string, lines: readonly TestCartLine[]) {
  const placed = await orderWithCode(code, lines);
  expect(placed.statusCode, placed.body).toBe(200);
  const { orderId, payfastData } = placed.json() as { orderId: string; payfastData: Record<string, string> };
  await payOnEmulator(t, orderId, payfastData);
  return { orderId, payfastData };
}

const flat = (text: string) => text.replace(/\s+/g, " ");
const getOrder = async (orderId: string) =>
  (await t.app.inject({ method: "GET", url: `/api/orders/${orderId}`, headers: shopper.headers })).json() as Order;

describe("the admin's codes", () => {
  it("creates a code, lists it with its uses, changes it, and audits both", async () => {
    const made = await makeCode({
      code: " spring-25 ",
      kind: "fixed",
      amount: "25.00",
      minSpend: "100.00",
      maxUses: 5,
    });
    expect(made).toMatchObject({
      code: "SPRING-25",
      description: "R25.00 off",
      uses: 0,
      givenAway: "0.00",
      minSpend: "100.00",
    });

    const duplicate = await t.app.inject({
      method: "POST",
      url: "/api/admin/promo-codes",
      headers: { cookie: admin.cookie },
      payload: { code: "spring-25", kind: "free_delivery" },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: "ALREADY_EXISTS" });

    const changed = await t.app.inject({
      method: "PUT",
      url: `/api/admin/promo-codes/${made.id}`,
      headers: { cookie: admin.cookie },
      payload: { code: "SPRING-25", kind: "percent", percent: 25, maxUses: 5 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ description: "25% off", amount: null, minSpend: null });

    const list = await t.app.inject({
      method: "GET",
      url: "/api/admin/promo-codes",
      headers: { cookie: admin.cookie },
    });
    expect((list.json() as AdminPromoCode[]).map((code) => code.code)).toContain("SPRING-25");

    const audit = await t.db.select().from(auditLog).where(eq(auditLog.subjectId, made.id));
    expect(audit.map((row) => row.action).sort()).toEqual(["promo_code.created", "promo_code.updated"]);
    expect(audit.find((row) => row.action === "promo_code.updated")?.after).toMatchObject({
      kind: "percent",
      percent: 25,
    });
  });

  it("refuses a code without its value, with dates the wrong way round, or limits out of range", async () => {
    for (const [payload, message] of [
      [{ code: "NOPE1", kind: "percent" }, /percent is required/],
      [{ code: "NOPE2", kind: "percent", percent: 101 }, /percent must be from 1 to 100/],
      [{ code: "NOPE3", kind: "fixed" }, /amount is required/],
      [{ code: "NOPE4", kind: "fixed", amount: "0.00" }, /amount must be an amount/],
      [{ code: "N!", kind: "free_delivery" }, /code must be 3 to 32/],
      [{ code: "NOPE5", kind: "free_delivery", maxUses: 0 }, /maxUses must be at least 1/],
      [
        { code: "NOPE6", kind: "free_delivery", startsAt: "2026-12-02T00:00:00Z", endsAt: "2026-12-01T00:00:00Z" },
        /endsAt must be after startsAt/,
      ],
    ] as const) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/admin/promo-codes",
        headers: { cookie: admin.cookie },
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });

  it("limits code checks to PROMO_CHECKS_PER_MINUTE per network: the next one is a 429", async () => {
    const strict = await buildTestApp({ PROMO_CHECKS_PER_MINUTE: "3" }, {}, t.databaseUrl);
    try {
      const line = await stockedLine(t, 1, 0, "standard");
      const items = [{ id: line.id, size: line.size, quantity: 1 }];
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        const response = await strict.app.inject({
          method: "POST",
          url: "/api/promo-codes/check",
          payload: { code: "GUESS-CODE", items },
          remoteAddress: "203.0.113.9",
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await strict.close();
    }
  });

  it("is for admins only", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/admin/promo-codes", headers: shopper.headers });
    expect(response.statusCode).toBe(403);
  });
});

describe("the rules, each with its message", () => {
  it("says exactly why a code fails, at the check and at create-order, and creates nothing", async () => {
    const line = await stockedLine(t, 1, 0, "standard");
    const subtotal = line.priceCents;
    const other = await t.db.select({ id: products.id }).from(products).where(sql`${products.id} <> ${line.id}`);
    const cases: [string, number, string, RegExp][] = [
      ["NO-SUCH-CODE", 400, "PROMO_UNKNOWN", /This promo code does not exist/],
      [(await makeCode({ active: false })).code, 400, "PROMO_UNKNOWN", /does not exist/],
      [
        (await makeCode({ startsAt: "2099-01-01T00:00:00+02:00" })).code,
        400,
        "PROMO_NOT_STARTED",
        /can be used from 1 Jan 2099/,
      ],
      [
        (await makeCode({ startsAt: "2020-01-01T00:00:00Z", endsAt: "2020-02-01T00:00:00+02:00" })).code,
        400,
        "PROMO_EXPIRED",
        /expired on 1 Feb 2020/,
      ],
      [
        (await makeCode({ minSpend: ((subtotal + 1) / 100).toFixed(2) })).code,
        400,
        "PROMO_MINIMUM_SPEND",
        /minimum spend of R[\d,]+\.\d\d; add R0\.01 more/,
      ],
      [
        (await makeCode({ productIds: [other[0]?.id] })).code,
        400,
        "PROMO_NOT_APPLICABLE",
        /is not for the products in your cart/,
      ],
    ];
    const ordersBefore = (await t.db.select().from(orders)).length;
    for (const [code, status, errorCode, message] of cases) {
      const checked = await check(code, [line]);
      expect(checked.statusCode, code).toBe(status);
      expect(checked.json()).toMatchObject({ code: errorCode });
      expect(checked.json().message).toMatch(message);
      const placed = await orderWithCode(code, [line]);
      expect(placed.statusCode, code).toBe(status);
      expect(placed.json()).toMatchObject({ code: errorCode });
    }
    expect((await t.db.select().from(orders)).length).toBe(ordersBefore);
  });

  it("takes the minimum spend exactly at the edge", async () => {
    const line = await stockedLine(t, 1, 0, "standard");
    const code = (await makeCode({ minSpend: (line.priceCents / 100).toFixed(2) })).code;
    expect((await check(code, [line])).statusCode).toBe(200);
  });

  it("refuses a second use by the same customer once the first is paid or held, and counts it again when released", async () => {
    const line = await stockedLine(t, 1, 0, "standard");
    const code = (await makeCode({ maxUsesPerCustomer: 1 })).code;
    const first = await orderWithCode(code, [line]);
    expect(first.statusCode, first.body).toBe(200);
    const again = await orderWithCode(code, [line]);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: "PROMO_ALREADY_USED", message: `You have already used the code ${code}.` });
    // Another shopper may still use it.
    const someoneElse = await registerAndLogin(t);
    expect((await orderWithCode(code, [line], someoneElse)).statusCode).toBe(200);
    // Cancelled unpaid: the use is free again.
    const cancelled = await t.app.inject({
      method: "POST",
      url: `/api/orders/${first.json().orderId}/cancel`,
      headers: shopper.headers,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await orderWithCode(code, [line])).statusCode).toBe(200);
  });

  it("applies a code for a category to that category's lines only, and refuses a cart without them", async () => {
    const standard = await stockedLine(t, 1, 0, "standard");
    const pads = await stockedLine(t, 1, 0, "zero");
    const categoryOf = async (line: TestCartLine) =>
      (await t.db.select({ categoryId: products.categoryId }).from(products).where(eq(products.id, line.id)))[0]
        ?.categoryId;
    const padsCategory = await categoryOf(pads);
    expect(padsCategory).not.toBe(await categoryOf(standard));
    const code = (await makeCode({ percent: 20, categoryIds: [padsCategory] })).code;

    const checked = await check(code, [standard, pads]);
    expect(checked.statusCode, checked.body).toBe(200);
    const answer = checked.json() as PromoCheckAnswer;
    const padsOff = Math.floor((pads.priceCents * 20 + 50) / 100);
    expect(answer.lines.map((line) => Math.round(Number(line.discount) * 100))).toEqual([0, padsOff]);
    expect(answer.discount).toBe((padsOff / 100).toFixed(2));

    const refused = await check(code, [standard]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: "PROMO_NOT_APPLICABLE" });
    expect(refused.json().message).toMatch(/is not for the products in your cart/);
  });

  it("refuses a cart whose total is not the discounted one", async () => {
    const line = await stockedLine(t, 1, 0, "standard");
    const code = (await makeCode({ percent: 20 })).code;
    const response = await t.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: shopper.headers,
      payload: { ...createOrderPayload(shopper, [line]), promoCode: code },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: "CART_CHANGED" });
    expect(response.json().message).toMatch(/The total is now R/);
  });
});

describe("the discount on the order and its documents", () => {
  it("spreads a fixed discount over the lines it applies to, charges the discounted total and prints the VAT per rate", async () => {
    const standard = await stockedLine(t, 2, 0, "standard");
    const zero = await stockedLine(t, 1, 0, "zero");
    const code = (await makeCode({ kind: "fixed", amount: "30.01" })).code;
    const checked = (await check(code, [standard, zero])).json() as PromoCheckAnswer;
    const standardCents = standard.priceCents * 2;
    const zeroCents = zero.priceCents;
    const subtotal = standardCents + zeroCents;
    // Largest remainder, as src/domain/promo.ts spreads it: the shares add up to R30.01 exactly.
    const standardShare = Math.floor((3001 * standardCents) / subtotal);
    const zeroShare = Math.floor((3001 * zeroCents) / subtotal);
    const left = 3001 - standardShare - zeroShare;
    const remainders = [(3001 * standardCents) % subtotal, (3001 * zeroCents) % subtotal];
    const shares =
      left === 0
        ? [standardShare, zeroShare]
        : (remainders[0] ?? 0) >= (remainders[1] ?? 0)
          ? [standardShare + 1, zeroShare]
          : [standardShare, zeroShare + 1];
    expect(checked.lines.map((line) => Math.round(Number(line.discount) * 100))).toEqual(shares);
    const fee = deliveryFeeCents(subtotal);
    expect(checked).toMatchObject({ discount: "30.01", total: ((subtotal - 3001 + fee) / 100).toFixed(2) });

    const { orderId, payfastData } = await paidOrderWithCode(code, [standard, zero]);
    expect(payfastData.amount).toBe(checked.total);
    const order = await getOrder(orderId);
    expect(order).toMatchObject({ promoCode: code, discount: "30.01", total: checked.total, status: "completed" });
    expect(order.items.map((item) => item.discount)).toEqual(checked.lines.map((line) => line.discount));
    const stored = await t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(stored.map((item) => item.discountCents).sort()).toEqual([...shares].sort());

    // The invoice: each line at what was paid for it, the discount, and the VAT per rate on those amounts.
    const pdf = await t.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}/invoice.pdf`,
      headers: shopper.headers,
    });
    const text = flat(await pdfText(pdf.rawPayload));
    expect(text).toContain(`Promo ${code} -R30.01`);
    const [standardOff, zeroOff] = shares as [number, number];
    const standardPaid = standardCents - standardOff + fee;
    const standardVat = Math.floor((standardPaid * 1500 * 2 + 11_500) / (2 * 11_500));
    const rand = (cents: number) => `R${(cents / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
    expect(text).toContain(
      `Standard-rated 15% ${rand(standardPaid - standardVat)} ${rand(standardVat)} ${rand(standardPaid)}`,
    );
    expect(text).toContain(`Zero-rated 0% ${rand(zeroCents - zeroOff)} R0.00 ${rand(zeroCents - zeroOff)}`);
    expect(text).toContain(`Total (VAT inclusive) ${rand(subtotal - 3001 + fee)}`);

    // The confirmation e-mail names the code and the discount.
    const [mail] = await t.db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, "order_confirmation"), eq(emails.eventKey, orderId)));
    expect(mail?.data).toMatchObject({ promo: { code, discountCents: 3001 } });
    expect(JSON.stringify(mail?.data)).toContain(`"totalCents":${subtotal - 3001 + fee}`);

    // The admin's list: one use, and what it gave away.
    const list = (await (
      await t.app.inject({ method: "GET", url: "/api/admin/promo-codes", headers: { cookie: admin.cookie } })
    ).json()) as AdminPromoCode[];
    expect(list.find((row) => row.code === code)).toMatchObject({ uses: 1, held: 0, givenAway: "30.01" });
  });

  it("makes the delivery fee 0 with a free-delivery code, and counts the fee as given away", async () => {
    const line = await stockedLine(t, 1, 0, "standard");
    expect(line.priceCents).toBeLessThan(50_000);
    const code = (await makeCode({ kind: "free_delivery" })).code;
    const checked = (await check(code, [line])).json() as PromoCheckAnswer;
    expect(checked).toMatchObject({ deliveryFee: "0.00", deliveryDiscount: "75.00", discount: "0.00" });
    const { orderId, payfastData } = await paidOrderWithCode(code, [line]);
    expect(payfastData.amount).toBe((line.priceCents / 100).toFixed(2));
    expect(await getOrder(orderId)).toMatchObject({ deliveryFee: "0.00", deliveryDiscount: "75.00" });
    const [used] = await t.db.select().from(promoRedemptions).where(eq(promoRedemptions.orderId, orderId));
    expect(used).toMatchObject({ state: "used", discountCents: 7_500 });
  });

  it("refunds a returned discounted line with what was paid for it, and its credit note reverses that VAT", async () => {
    const [first, second] = [await stockedLine(t, 1, 0, "standard"), await stockedLine(t, 1, 1, "standard")];
    if (!first || !second) throw new Error("no lines");
    const code = (await makeCode({ percent: 50, productIds: [first.id] })).code;
    const { orderId } = await paidOrderWithCode(code, [first, second]);
    const half = Math.floor((first.priceCents * 50 + 50) / 100);
    await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${orderId}/status`,
      headers: { cookie: admin.cookie },
      payload: { status: "processed" },
    });
    await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/delivered`,
      headers: { cookie: admin.cookie },
      payload: {},
    });
    const returns = (await (
      await t.app.inject({ method: "GET", url: `/api/orders/${orderId}/returns`, headers: shopper.headers })
    ).json()) as { lines: { lineId: string; name: string }[] };
    const discounted = returns.lines.find((line) => line.name === first.name);
    const asked = await t.app.inject({
      method: "POST",
      url: `/api/orders/${orderId}/returns`,
      headers: shopper.headers,
      payload: { reason: "changed_mind", lines: [{ lineId: discounted?.lineId, quantity: 1 }] },
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const request = asked.json() as ReturnRequest;
    expect(request.offeredRefund).toBe(((first.priceCents - half) / 100).toFixed(2));

    const step = (action: string, body: Record<string, unknown> = {}) =>
      t.app.inject({
        method: "POST",
        url: `/api/admin/returns/${request.id}/${action}`,
        headers: { cookie: admin.cookie },
        payload: body,
      });
    expect((await step("accept", { note: "Drop it off." })).statusCode).toBe(200);
    expect((await step("receive", { restock: [] })).statusCode).toBe(200);
    const refunded = await step("refund");
    expect(refunded.statusCode, refunded.body).toBe(200);
    const [order] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    const paidBack = await t.db
      .select()
      .from(payfastEmulatorRefunds)
      .where(eq(payfastEmulatorRefunds.pfPaymentId, order?.pfPaymentId ?? ""));
    expect(paidBack.map((row) => row.amountCents)).toEqual([first.priceCents - half]);

    const refundId = (await getOrder(orderId)).refunds[0]?.id;
    const note = await t.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}/refunds/${refundId}/credit-note.pdf`,
      headers: shopper.headers,
    });
    expect(note.statusCode).toBe(200);
    // The credit note is for what was paid back; every line of this order is standard-rated, so it
    // reverses 15% VAT on that amount (give or take the per-line rounding of its apportioned parts).
    const text = flat(await pdfText(note.rawPayload));
    const paidBackCents = first.priceCents - half;
    expect(text).toContain(`Total credited (VAT inclusive) ${formatRand(paidBackCents)}`);
    const credited = /VAT credited R([\d,]+\.\d\d)/.exec(text)?.[1];
    const creditedCents = Math.round(Number(credited?.replace(/,/g, "")) * 100);
    expect(Math.abs(creditedCents - Math.round((paidBackCents * 15) / 115))).toBeLessThanOrEqual(2);
    const standardRow = /Standard-rated 15% R([\d,]+\.\d\d) R([\d,]+\.\d\d) R([\d,]+\.\d\d)/.exec(text);
    expect(standardRow?.slice(2).map((rand) => Math.round(Number(rand.replace(/,/g, "")) * 100))).toEqual([
      creditedCents,
      paidBackCents,
    ]);
  });
});

describe("limits under concurrent checkouts", () => {
  it("lets 50 shoppers check out at once against a code limited to 10 uses: 10 orders, 10 paid, 40 told why", async () => {
    const line = await stockedLine(t, 1, 0, "standard");
    await setStock(t.db, line.id, line.size, 500);
    const code = (await makeCode({ maxUses: 10 })).code;
    const buyers = await Promise.all(Array.from({ length: 50 }, () => registerAndLogin(t)));
    const figures = (await check(code, [line])).json() as PromoCheckAnswer;
    const answers = await Promise.all(buyers.map((buyer) => placeWithFigures(buyer, [line], code, figures)));
    const created = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(created).toHaveLength(10);
    expect(new Set(refused.map((answer) => `${answer.statusCode} ${answer.json().code}`))).toEqual(
      new Set(["409 PROMO_LIMIT_REACHED"]),
    );
    expect(refused[0]?.json().message).toBe(`The code ${code} has been used as often as it may be.`);

    for (const answer of created) {
      const paid = await t.app.inject({
        method: "PATCH",
        url: `/api/admin/orders/${answer.json().orderId}/confirm-payment`,
        headers: { cookie: admin.cookie },
      });
      expect(paid.statusCode, paid.body).toBe(200);
    }
    const list = (await (
      await t.app.inject({ method: "GET", url: "/api/admin/promo-codes", headers: { cookie: admin.cookie } })
    ).json()) as AdminPromoCode[];
    expect(list.find((row) => row.code === code)).toMatchObject({ uses: 10, held: 0 });
    const paidWithCode = await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.promoCode, code), eq(orders.status, "completed")));
    expect(paidWithCode[0]?.count).toBe(10);
    // The eleventh is refused after the payments too.
    const late = await orderWithCode(code, [line]);
    expect(late.json()).toMatchObject({ code: "PROMO_LIMIT_REACHED" });
  }, 120_000);

  it("holds the per-customer limit when one customer checks out several times at once", async () => {
    const line = await stockedLine(t, 1, 0, "standard");
    const code = (await makeCode({ maxUsesPerCustomer: 2 })).code;
    const buyer = await registerAndLogin(t);
    const figures = (await check(code, [line], buyer)).json() as PromoCheckAnswer;
    // Ten at once (the tests let one account hold that many unpaid orders): two may use the code, eight are told why.
    const answers = await Promise.all(Array.from({ length: 10 }, () => placeWithFigures(buyer, [line], code, figures)));
    const created = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(created).toHaveLength(2);
    expect(refused).toHaveLength(8);
    expect(new Set(refused.map((answer) => `${answer.statusCode} ${answer.json().code}`))).toEqual(
      new Set(["409 PROMO_ALREADY_USED"]),
    );
    const held = await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(promoRedemptions)
      .innerJoin(orders, eq(orders.id, promoRedemptions.orderId))
      .where(and(eq(orders.promoCode, code), eq(promoRedemptions.userId, buyer.user.id)));
    expect(held[0]?.count).toBe(2);
  });

  it("frees an expired order's use for another shopper, and still honours its late payment", async () => {
    const line = await stockedLine(t, 1, 0, "standard");
    const code = (await makeCode({ maxUses: 1 })).code;
    const first = await orderWithCode(code, [line]);
    expect(first.statusCode, first.body).toBe(200);
    const { orderId } = first.json() as { orderId: string };
    const someoneElse = await registerAndLogin(t);
    expect((await orderWithCode(code, [line], someoneElse)).json()).toMatchObject({ code: "PROMO_LIMIT_REACHED" });

    await t.db.update(orders).set({ createdAt: sql`now() - interval '2 hours'` }).where(eq(orders.id, orderId));
    expect(await expireOrders(t.db, 60)).toBeGreaterThanOrEqual(1);
    const [released] = await t.db.select().from(promoRedemptions).where(eq(promoRedemptions.orderId, orderId));
    expect(released?.state).toBe("released");
    const second = await orderWithCode(code, [line], someoneElse);
    expect(second.statusCode, second.body).toBe(200);

    // The first shopper pays after all (PayFast took the money): the payment is booked, its use counted.
    await payOnEmulator(t, orderId, (first.json() as { payfastData: Record<string, string> }).payfastData);
    const [used] = await t.db.select().from(promoRedemptions).where(eq(promoRedemptions.orderId, orderId));
    expect(used?.state).toBe("used");
    const list = (await (
      await t.app.inject({ method: "GET", url: "/api/admin/promo-codes", headers: { cookie: admin.cookie } })
    ).json()) as AdminPromoCode[];
    // The late payment is honoured beside the order that took the freed use: the list shows both.
    expect(list.find((row) => row.code === code)).toMatchObject({ uses: 1, held: 1, maxUses: 1 });
  });
});

describe("uses held while stock is held, and customers by proven address (issue 39)", () => {
  it("frees a limited code's use the moment its order's stock hold lapses, before the expiry job runs; a PayFast PENDING hold keeps it", async () => {
    const line = await stockedLine(t, 1, 0, "standard");
    const code = (await makeCode({ maxUses: 1 })).code;
    const first = await orderWithCode(code, [line]);
    expect(first.statusCode, first.body).toBe(200);
    const { orderId } = first.json() as { orderId: string };
    const someoneElse = await registerAndLogin(t);
    expect((await orderWithCode(code, [line], someoneElse)).json()).toMatchObject({ code: "PROMO_LIMIT_REACHED" });

    const hold = t.app.config.orderHoldMinutes;
    // Past the hold, but PayFast said PENDING: the order still holds its stock, and the use.
    await t.db
      .update(orders)
      .set({ createdAt: sql`now() - ${`${hold + 1} minutes`}::interval`, holdUntil: sql`now() + interval '1 hour'` })
      .where(eq(orders.id, orderId));
    expect((await check(code, [line], someoneElse)).json()).toMatchObject({ code: "PROMO_LIMIT_REACHED" });
    // One minute inside the hold: still held.
    await t.db
      .update(orders)
      .set({ createdAt: sql`now() - ${`${hold - 1} minutes`}::interval`, holdUntil: null })
      .where(eq(orders.id, orderId));
    expect((await check(code, [line], someoneElse)).json()).toMatchObject({ code: "PROMO_LIMIT_REACHED" });
    // The hold lapsed a minute ago; the expiry job has not run: the use is free.
    await t.db
      .update(orders)
      .set({ createdAt: sql`now() - ${`${hold + 1} minutes`}::interval` })
      .where(eq(orders.id, orderId));
    const [stillHeld] = await t.db.select().from(promoRedemptions).where(eq(promoRedemptions.orderId, orderId));
    expect(stillHeld?.state).toBe("held");
    const second = await orderWithCode(code, [line], someoneElse);
    expect(second.statusCode, second.body).toBe(200);
  });

  it("counts a per-customer limit by the proven address as well as the account", async () => {
    const line = await stockedLine(t, 1, 0, "standard");
    const code = (await makeCode({ maxUsesPerCustomer: 1 })).code;
    const first = await registerAndLogin(t, { proven: true });
    expect((await orderWithCode(code, [line], first)).statusCode).toBe(200);

    // The first account moves to another address; a new account takes the old one and proves it.
    const moved = `moved.${Date.now()}.${codeNumber}@example.co.za`;
    const changed = await t.app.inject({
      method: "PUT",
      url: `/api/users/${first.user.id}`,
      headers: first.headers,
      payload: { ...first.user, email: moved, currentPassword: first.password },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await confirmEmailChange(t, moved)).statusCode).toBe(200);
    const again = await registerAndLogin(t, { email: first.user.email, proven: true });
    const refused = await orderWithCode(code, [line], again);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "PROMO_ALREADY_USED" });
    expect((await check(code, [line], again)).json()).toMatchObject({ code: "PROMO_ALREADY_USED" });
    // The account still counts its own use at its new address.
    expect((await orderWithCode(code, [line], first)).json()).toMatchObject({ code: "PROMO_ALREADY_USED" });
  });

  it("does not count an unproven account's use against the address's real owner", async () => {
    const line = await stockedLine(t, 1, 0, "standard");
    const code = (await makeCode({ maxUsesPerCustomer: 1 })).code;
    const stranger = await registerAndLogin(t);
    expect((await orderWithCode(code, [line], stranger)).statusCode).toBe(200);
    const [held] = await t.db.select().from(promoRedemptions).where(eq(promoRedemptions.userId, stranger.user.id));
    expect(held?.email).toBeNull();
  });
});
