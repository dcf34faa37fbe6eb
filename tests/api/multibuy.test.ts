import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminProduct } from "#domain/schemas/catalog.js";
import type { Order } from "#domain/schemas/orders.js";
import type { PromoCheckAnswer } from "#domain/schemas/promo.js";
import { emails, orderItems, orders, promoRedemptions, refundLines } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { createOrderPayload, type TestCartLine } from "../helpers/orders.js";
import { pdfText } from "../helpers/pdf.js";
import { buildListeningApp, payOnEmulator } from "../helpers/refunds.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

/**
 * Multi-buy tiers (issue 42, docs/decisions/047): packs of every size of a product count together,
 * the server works out the saving and spreads it over the lines, the VAT and refunds follow what
 * each line sold for, and a promo code meets the tiers by MULTIBUY_WITH_PROMO. The figures here are
 * worked out by hand, not with the shop's functions.
 */

let t: TestApp;
let both: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;
let nappies: AdminProduct;
let pads: AdminProduct;

const flat = (text: string) => text.replace(/\s+/g, " ");
const rand = (cents: number) => `R${(cents / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;

async function makeProduct(payload: Record<string, unknown>) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/admin/products",
    headers: { cookie: admin.cookie },
    payload: {
      image: "/images/products/baby-newborn-nappies.svg",
      description: "",
      ...payload,
    },
  });
  return response;
}

beforeAll(async () => {
  t = await buildListeningApp({ SHOP_VAT_NUMBER: "4123456789", PROMO_CHECKS_PER_MINUTE: "1000" }, undefined, 24);
  both = await buildTestApp({ MULTIBUY_WITH_PROMO: "both", PROMO_CHECKS_PER_MINUTE: "1000" }, {}, t.databaseUrl);
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t);
  const made = await makeProduct({
    name: "Tiered Test Nappies",
    category: "baby",
    price: "300.00",
    sizes: ["S", "M"],
    sizePrices: { S: "300.00", M: "320.00" },
    sizePackCounts: { S: 100, M: 80 },
    packUnit: "nappy",
    stock: { S: 200, M: 200 },
    multibuyTiers: [
      { minPacks: 2, offBp: 300 },
      { minPacks: 4, offBp: 600 },
    ],
  });
  expect(made.statusCode, made.body).toBe(201);
  nappies = made.json() as AdminProduct;
  const madePads = await makeProduct({
    name: "Tiered Test Pads",
    category: "pads",
    price: "100.00",
    sizes: ["Regular"],
    stock: { Regular: 200 },
    vatClass: "zero",
    multibuyTiers: [{ minPacks: 2, offBp: 500 }],
  });
  expect(madePads.statusCode, madePads.body).toBe(201);
  pads = madePads.json() as AdminProduct;
});
afterAll(async () => {
  await both?.close();
  await t?.close();
});

const line = (product: AdminProduct, size: string, quantity: number, priceCents: number): TestCartLine => ({
  id: product.id,
  name: product.name,
  size,
  quantity,
  priceCents,
});
const S = (quantity: number) => line(nappies, "S", quantity, 30_000);
const M = (quantity: number) => line(nappies, "M", quantity, 32_000);
const PADS = (quantity: number) => line(pads, "Regular", quantity, 10_000);

/** Create-order with the figures the checkout shows: the goods, the fee on them, the total less `offCents`. */
function place(lines: readonly TestCartLine[], offCents: number, extra: Record<string, unknown> = {}, app = t) {
  const payload = createOrderPayload(shopper, lines);
  return app.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: shopper.headers,
    payload: { ...payload, total: Math.round(payload.total * 100 - offCents) / 100, ...extra },
  });
}

async function storedLines(orderId: string) {
  return t.db
    .select({ size: orderItems.size, discount: orderItems.discountCents, multibuy: orderItems.multibuyDiscountCents })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.position);
}

describe("tiers over mixed sizes", () => {
  it("counts one pack of each of two sizes as 2 packs and spreads the 3% over the lines by their amounts", async () => {
    // R620.00 of goods, 3% = R18.60: R9.00 on the R300.00 line, R9.60 on the R320.00 one.
    const placed = await place([S(1), M(1)], 1_860);
    expect(placed.statusCode, placed.body).toBe(200);
    const { orderId } = placed.json() as { orderId: string };
    expect(await storedLines(orderId)).toEqual([
      { size: "S", discount: 0, multibuy: 900 },
      { size: "M", discount: 0, multibuy: 960 },
    ]);
    const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ subtotalCents: 62_000, multibuyDiscountCents: 1_860, totalCents: 60_140 });
    const order = (
      await t.app.inject({ method: "GET", url: `/api/orders/${orderId}`, headers: shopper.headers })
    ).json() as Order;
    expect(order).toMatchObject({ multibuyDiscount: "18.60", total: "601.40" });
    expect(order.items.map((item) => item.multibuyDiscount)).toEqual(["9.00", "9.60"]);
  });

  it("reaches the 6% tier at 4 packs of two sizes", async () => {
    // R1,240.00 at 6% = R74.40: R36.00 and R38.40.
    const placed = await place([S(2), M(2)], 7_440);
    expect(placed.statusCode, placed.body).toBe(200);
    expect(await storedLines((placed.json() as { orderId: string }).orderId)).toEqual([
      { size: "S", discount: 0, multibuy: 3_600 },
      { size: "M", discount: 0, multibuy: 3_840 },
    ]);
  });

  it("gives nothing to a single pack", async () => {
    const placed = await place([M(1)], 0);
    expect(placed.statusCode, placed.body).toBe(200);
    expect(await storedLines((placed.json() as { orderId: string }).orderId)).toEqual([
      { size: "M", discount: 0, multibuy: 0 },
    ]);
  });

  it("refuses client figures without the saving, as a changed cart (CART_CHANGED)", async () => {
    const stale = await place([S(1), M(1)], 0);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: "CART_CHANGED" });
    expect(stale.json().message).toContain("The total is now R601.40.");
    const tooMuch = await place([S(1), M(1)], 1_861);
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json()).toMatchObject({ code: "CART_CHANGED" });
  });
});

describe("VAT, the invoice and a partial return", () => {
  it("rates each line on what it sold for, shows the saving, and refunds a returned pack less its share", async () => {
    // Nappies 2 x R300.00 = R600.00 less 3% (R18.00) = R582.00 at 15%; pads 2 x R100.00 less 5%
    // (R10.00) = R190.00 at 0%. R772.00, free delivery.
    const placed = await place([S(2), PADS(2)], 2_800);
    expect(placed.statusCode, placed.body).toBe(200);
    const { orderId, payfastData } = placed.json() as { orderId: string; payfastData: Record<string, string> };
    expect(payfastData.amount).toBe("772.00");
    await payOnEmulator(t, orderId, payfastData);

    const pdf = await t.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}/invoice.pdf`,
      headers: shopper.headers,
    });
    const text = flat(await pdfText(pdf.rawPayload));
    expect(text).toContain("Multi-buy saving -R28.00");
    expect(text).toContain("(less R18.00, multi-buy)");
    const vat = Math.round((58_200 * 15) / 115); // 7591
    expect(text).toContain(`Standard-rated 15% ${rand(58_200 - vat)} ${rand(vat)} ${rand(58_200)}`);
    expect(text).toContain("Zero-rated 0% R190.00 R0.00 R190.00");
    expect(text).toContain("Total (VAT inclusive) R772.00");

    const [mail] = await t.db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, "order_confirmation"), eq(emails.eventKey, orderId)));
    expect(mail?.data).toMatchObject({ multibuyDiscountCents: 2_800, totalCents: 77_200 });

    // One of the two nappy packs comes back: it refunds half of what the line sold for, R291.00.
    const [nappyLine] = await t.db
      .select()
      .from(orderItems)
      .where(and(eq(orderItems.orderId, orderId), eq(orderItems.size, "S")));
    if (!nappyLine) throw new Error("no nappy line");
    const refunded = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/refund`,
      headers: { cookie: admin.cookie },
      payload: { reason: "One pack returned unopened", lines: [{ orderItemId: nappyLine.id, quantity: 1 }] },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const [made] = (refunded.json() as Order).refunds;
    if (!made) throw new Error("no refund");
    expect(made.amount).toBe("291.00");
    expect(await t.db.select().from(refundLines).where(eq(refundLines.refundId, made.id))).toEqual([
      { refundId: made.id, orderItemId: nappyLine.id, quantity: 1, amountCents: 29_100 },
    ]);
    const note = await t.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}/refunds/${made.id}/credit-note.pdf`,
      headers: { cookie: admin.cookie },
    });
    const noteText = flat(await pdfText(note.rawPayload));
    expect(noteText).toContain(`1 x ${nappies.name} (S), 15% R291.00`);
    const noteVat = Math.round((29_100 * 15) / 115);
    expect(noteText).toContain(`Standard-rated 15% ${rand(29_100 - noteVat)} ${rand(noteVat)} R291.00`);

    // The other pack: the rest of the line, never more than it sold for.
    const rest = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/refund`,
      headers: { cookie: admin.cookie },
      payload: { reason: "Second pack returned", lines: [{ orderItemId: nappyLine.id, quantity: 1 }] },
    });
    expect(rest.statusCode, rest.body).toBe(200);
    expect((rest.json() as Order).refunds[1]?.amount).toBe("291.00");
  });
});

describe("with a promo code", () => {
  let codeNumber = 0;
  async function makeCode(over: Record<string, unknown>) {
    codeNumber += 1;
    const response = await t.app.inject({
      method: "POST",
      url: "/api/admin/promo-codes",
      headers: { cookie: admin.cookie },
      payload: { code: `TIER-${codeNumber}-${Date.now() % 100_000}`, ...over },
    });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { code: string }).code;
  }
  const check = (code: string, lines: readonly TestCartLine[], app = t) =>
    app.app.inject({
      method: "POST",
      url: "/api/promo-codes/check",
      headers: shopper.headers,
      payload: { code, items: lines.map((each) => ({ id: each.id, size: each.size, quantity: each.quantity })) },
    });
  /** Create-order with the code and the figures its check gave. */
  const placeChecked = (code: string, lines: readonly TestCartLine[], answer: PromoCheckAnswer, app = t) =>
    app.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: shopper.headers,
      payload: {
        ...createOrderPayload(shopper, lines),
        ...(answer.applied ? { promoCode: code } : {}),
        subtotal: Number(answer.subtotal),
        deliveryFee: Number(answer.deliveryFee),
        total: Number(answer.total),
      },
    });

  it("'best' (the default): a 10% code saves more than the 3% tier, so the code alone applies", async () => {
    const code = await makeCode({ kind: "percent", percent: 10 });
    const cart = [S(2)];
    const checked = await check(code, cart);
    expect(checked.statusCode, checked.body).toBe(200);
    const answer = checked.json() as PromoCheckAnswer;
    expect(answer).toMatchObject({ applied: true, multibuyDiscount: "0.00", discount: "60.00", total: "540.00" });
    const placed = await placeChecked(code, cart, answer);
    expect(placed.statusCode, placed.body).toBe(200);
    const { orderId } = placed.json() as { orderId: string };
    expect(await storedLines(orderId)).toEqual([{ size: "S", discount: 6_000, multibuy: 0 }]);
    const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ promoCode: code, discountCents: 6_000, multibuyDiscountCents: 0, totalCents: 54_000 });
  });

  it("'best': a R10.00 code saves less than the R18.00 tier, so the tier applies and the code stays unused", async () => {
    const code = await makeCode({ kind: "fixed", amount: "10.00" });
    const cart = [S(2)];
    const answer = (await check(code, cart)).json() as PromoCheckAnswer;
    expect(answer).toMatchObject({ applied: false, multibuyDiscount: "18.00", discount: "0.00", total: "582.00" });
    const placed = await placeChecked(code, cart, answer);
    expect(placed.statusCode, placed.body).toBe(200);
    const { orderId } = placed.json() as { orderId: string };
    const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ promoCode: null, discountCents: 0, multibuyDiscountCents: 1_800, totalCents: 58_200 });
    // Sent with the code anyway, the tiers still win and no use of the code is held.
    const withCode = await place(cart, 1_800, { promoCode: code });
    expect(withCode.statusCode, withCode.body).toBe(200);
    const [code_] = await t.db
      .select()
      .from(promoRedemptions)
      .where(eq(promoRedemptions.orderId, (withCode.json() as { orderId: string }).orderId));
    expect(code_).toBeUndefined();
  });

  it("'both': the tier first, then the code on what is left, each spread per line", async () => {
    const code = await makeCode({ kind: "percent", percent: 10 });
    // R600.00 less 3% = R582.00; 10% of that = R58.20; R523.80 to pay.
    const cart = [S(2)];
    const answer = (await check(code, cart, both)).json() as PromoCheckAnswer;
    expect(answer).toMatchObject({ applied: true, multibuyDiscount: "18.00", discount: "58.20", total: "523.80" });
    const placed = await placeChecked(code, cart, answer, both);
    expect(placed.statusCode, placed.body).toBe(200);
    const { orderId } = placed.json() as { orderId: string };
    expect(await storedLines(orderId)).toEqual([{ size: "S", discount: 5_820, multibuy: 1_800 }]);
    const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({
      promoCode: code,
      discountCents: 5_820,
      multibuyDiscountCents: 1_800,
      totalCents: 52_380,
    });
    // The same cart's 'best' figures are refused by a 'both' shop: the client's total is only compared.
    const best = await place(cart, 6_000, { promoCode: code }, both);
    expect(best.statusCode).toBe(409);
    expect(best.json()).toMatchObject({ code: "CART_CHANGED" });
  });
});

describe("the admin's tiers", () => {
  const tiers = (count: number, top = 5_000) =>
    Array.from({ length: count }, (_, index) => ({
      minPacks: index === count - 1 ? 999 : index + 2,
      offBp: index === count - 1 ? top : (index + 1) * 100,
    }));

  it("keeps 5 tiers at the limits and shows them to shoppers", async () => {
    const made = await makeProduct({
      name: "Five Tier Wipes",
      category: "baby",
      price: "40.00",
      sizes: ["64 wipes"],
      multibuyTiers: tiers(5),
    });
    expect(made.statusCode, made.body).toBe(201);
    const list = await t.app.inject({ method: "GET", url: "/api/products" });
    const shown = (list.json() as { id: string; multibuyTiers?: unknown }[]).find(
      (product) => product.id === (made.json() as AdminProduct).id,
    );
    expect(shown?.multibuyTiers).toEqual(tiers(5));
  });

  it.each([
    ["six tiers", tiers(6), /at most 5 multi-buy tiers/],
    ["more than 50% off", tiers(2, 5_001), /from 0.01% to 50%/],
    ["0% off", [{ minPacks: 2, offBp: 0 }], /from 0.01% to 50%/],
    ["packs from 1", [{ minPacks: 1, offBp: 300 }], /from 2 to 999/],
    ["packs from 1000", [{ minPacks: 1000, offBp: 300 }], /from 2 to 999/],
    [
      "tiers not ascending",
      [
        { minPacks: 4, offBp: 300 },
        { minPacks: 2, offBp: 600 },
      ],
      /more than the tier before/,
    ],
    ["a saving as text", [{ minPacks: 2, offBp: "3%" }], /saving must be a number/],
  ])("refuses %s with a 400 { message, code }", async (_name, multibuyTiers, message) => {
    const refused = await makeProduct({
      name: "Refused Tier Wipes",
      category: "baby",
      price: "40.00",
      sizes: ["64 wipes"],
      multibuyTiers,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(refused.json().message).toMatch(message);
  });
});
