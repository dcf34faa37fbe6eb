import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { centsToDecimal } from "#domain/money.js";
import { planUnitPriceCents } from "#domain/plans.js";
import type { DeliveryOptionsAnswer, DeliveryPointsAnswer } from "#domain/schemas/delivery.js";
import type { CreateOrderInput } from "#domain/schemas/orders.js";
import { orders, products } from "#server/platform/db/schema.js";
import { signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { inStockSizes, type StockedProduct, sizePriceCents, stockedCatalog } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

/**
 * Delivery options against the courier emulator (docs/decisions/051): live rates by zone, the flat
 * price when a quote fails or is too slow, lockers and pickup points chosen and checked again at
 * create-order.
 */
let live: TestApp;
let flat: TestApp;
let shopper: LoggedInUser;
let cheap: { product: StockedProduct; size: string; priceCents: number };
let bulky: { product: StockedProduct; size: string };

beforeAll(async () => {
  [live, flat] = await Promise.all([
    buildTestApp({ DELIVERY_PRICING: "live", DELIVERY_QUOTE_CACHE_SECONDS: "0", COURIER_TIMEOUT_MS: "300" }),
    buildTestApp(),
  ]);
  shopper = await registerAndLogin(flat);
  const catalogue = await stockedCatalog(flat.db);
  const candidates = catalogue.flatMap((product) =>
    inStockSizes(product).map((size) => ({ product, size, priceCents: sizePriceCents(product, size) })),
  );
  const cheapest = candidates.sort((a, b) => a.priceCents - b.priceCents)[0];
  const nappies = candidates.find((line) => (line.product.sizeParcels[line.size]?.weightGrams ?? 0) >= 2_000);
  if (!cheapest || !nappies) throw new Error("the seed has no products to deliver");
  cheap = cheapest;
  bulky = nappies;
});
afterAll(() => Promise.all([live.close(), flat.close()]));
beforeEach(() => {
  live.app.delivery.emulator?.reset();
  flat.app.delivery.emulator?.reset();
});

const destination = (zipCode: string) => ({
  address: "12 Jacaranda Street",
  suburb: "Hatfield",
  city: "Pretoria",
  province: "Gauteng" as const,
  zipCode,
});

async function options(
  t: TestApp,
  zipCode: string,
  items = [{ id: cheap.product.id, size: cheap.size, quantity: 1 }],
  lockerCode?: string,
) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/delivery/options",
    payload: { items, destination: destination(zipCode), ...(lockerCode ? { lockerCode } : {}) },
  });
  return response;
}

async function optionsOf(t: TestApp, zipCode: string, items?: { id: string; size: string; quantity: number }[]) {
  const response = await options(t, zipCode, items);
  expect(response.statusCode).toBe(200);
  const answer = response.json() as DeliveryOptionsAnswer;
  return Object.fromEntries(answer.options.map((option) => [option.service, option]));
}

describe("POST /api/delivery/options with live rates", () => {
  it("prices the door by zone: a metro code costs less than a regional one, and that less than an outlying one", async () => {
    const metro = await optionsOf(live, "2196");
    const regional = await optionsOf(live, "2520");
    const outlying = await optionsOf(live, "8801");
    for (const zone of [metro, regional, outlying]) {
      expect(zone.door_economy?.source).toBe("live");
      expect(zone.door_express?.source).toBe("live");
    }
    const economy = [metro, regional, outlying].map((zone) => Number(zone.door_economy?.price));
    expect(economy[0]).toBeGreaterThanOrEqual(70);
    expect(economy[1]).toBeGreaterThan(economy[0] ?? 0);
    expect(economy[2]).toBeGreaterThan(economy[1] ?? 0);
    expect(Number(metro.door_express?.price)).toBeGreaterThan(Number(metro.door_economy?.price));
    expect(metro.locker?.source).toBe("live");
    expect(metro.door_economy?.expectedDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("uses the owner's flat price, said plainly, when the courier answers too slowly", async () => {
    const emulator = live.app.delivery.emulator;
    if (!emulator) throw new Error("local mode has the emulator");
    emulator.state.controls.delayMs = 1_000;
    const started = Date.now();
    const slow = await optionsOf(live, "2001");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(slow.door_economy).toMatchObject({ source: "fallback", price: "75.00", charge: "75.00" });
    expect(slow.door_economy?.note).toMatch(/standard price/);
    expect(slow.door_express).toMatchObject({ source: "fallback", price: "150.00" });
  });

  it("uses the flat price when the courier's API is down, and when it cannot place the address", async () => {
    const emulator = live.app.delivery.emulator;
    if (!emulator) throw new Error("local mode has the emulator");
    emulator.state.controls.down = true;
    expect((await optionsOf(live, "2001")).door_economy?.source).toBe("fallback");
    emulator.reset();
    emulator.state.controls.unknownCodes.add("2002");
    expect((await optionsOf(live, "2002")).door_economy).toMatchObject({ source: "fallback", price: "75.00" });
  });

  it("offers no locker for an order too big for any locker's box", async () => {
    const many = await optionsOf(live, "2196", [{ id: bulky.product.id, size: bulky.size, quantity: 12 }]);
    expect(many.locker).toMatchObject({ available: false });
    expect(many.locker?.unavailableReason).toMatch(/too big for a locker/);
    expect(many.door_economy?.available).toBe(true);
  });

  it("refuses bad inputs with 400 and a code", async () => {
    for (const payload of [
      { items: [], destination: destination("2196") },
      { items: [{ id: cheap.product.id, size: cheap.size, quantity: 1 }], destination: destination("21") },
      { items: [{ id: "nope", size: "M", quantity: 1 }], destination: destination("2196") },
      { items: [{ id: cheap.product.id, size: cheap.size, quantity: 1000 }], destination: destination("2196") },
    ]) {
      const response = await live.app.inject({ method: "POST", url: "/api/delivery/options", payload });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    const points = await live.app.inject({ method: "GET", url: "/api/delivery/points?service=boat&near=2196" });
    expect(points.statusCode).toBe(400);
  });
});

describe("the courier emulator", () => {
  it("refuses a call without the vendor's token, and one missing the parcels", async () => {
    const noToken = await live.app.inject({ method: "POST", url: "/courier-emulator/shiplogic/rates", payload: {} });
    expect(noToken.statusCode).toBe(401);
    const noParcels = await live.app.inject({
      method: "POST",
      url: "/courier-emulator/shiplogic/rates",
      headers: { authorization: "Bearer emulator-shiplogic-token" },
      payload: {
        collection_address: { code: "2196", country: "ZA" },
        delivery_address: { code: "2001", country: "ZA" },
      },
    });
    expect(noParcels.statusCode).toBe(400);
    expect(noParcels.json()).toMatchObject({ message: expect.stringContaining("parcels") });
  });
});

async function pointsNear(service: "locker" | "pickup_point", near: string) {
  const response = await flat.app.inject({
    method: "GET",
    url: `/api/delivery/points?service=${service}&near=${near}`,
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as DeliveryPointsAnswer).points;
}

function orderBody(
  service: "locker" | "pickup_point" | "door_economy",
  pointCode: string | undefined,
  feeCents: number,
): CreateOrderInput {
  return {
    subtotal: Number(centsToDecimal(cheap.priceCents)),
    deliveryFee: Number(centsToDecimal(feeCents)),
    total: Number(centsToDecimal(cheap.priceCents + feeCents)),
    items: [{ id: cheap.product.id, size: cheap.size, quantity: 1, price: Number(centsToDecimal(cheap.priceCents)) }],
    customerEmail: "thandi@example.co.za",
    userId: shopper.user.id,
    deliveryInfo: { name: "Thandi", phone: "082 555 0101", email: "thandi@example.co.za", ...destination("2196") },
    delivery: { service, ...(pointCode ? { pointCode } : {}) },
  };
}

const createOrder = (body: CreateOrderInput) =>
  flat.app.inject({ method: "POST", url: "/api/create-order", headers: shopper.headers, payload: body });

describe("choosing a locker or a pickup point", () => {
  it("lists the lockers nearest a postal code, with their opening hours", async () => {
    const lockers = await pointsNear("locker", "2196");
    expect(lockers.length).toBeGreaterThan(3);
    expect(lockers[0]?.postalCode).toMatch(/^219/);
    expect(lockers[0]?.hours).toMatch(/Mon-Sun 06:00-22:00/);
    // Each with where it is, for the checkout's map: near Sandton (26.1 S, 28.06 E).
    for (const locker of lockers) {
      expect(locker.latitude).toBeGreaterThan(-26.5);
      expect(locker.latitude).toBeLessThan(-25.5);
      expect(locker.longitude).toBeGreaterThan(27.5);
      expect(locker.longitude).toBeLessThan(28.5);
    }
    const byTown = await pointsNear("pickup_point", "Durban");
    expect(byTown.every((point) => point.city === "Durban")).toBe(true);
    expect(byTown.every((point) => Math.abs((point.latitude ?? 0) + 29.86) < 0.1)).toBe(true);
  });

  it("records a locker chosen at checkout, checked against the directory, at its price", async () => {
    expect(cheap.priceCents).toBeLessThan(50_000);
    const [locker] = await pointsNear("locker", "2196");
    if (!locker) throw new Error("no locker near 2196");
    const response = await createOrder(orderBody("locker", locker.code, 6_000));
    expect(response.statusCode).toBe(200);
    const { orderId } = response.json() as { orderId: string };
    const [row] = await flat.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({
      deliveryService: "locker",
      deliveryPointCode: locker.code,
      deliveryPointName: locker.name,
      deliveryQuotedCents: 6_000,
      deliveryFeeCents: 6_000,
      deliveryPriceSource: "flat",
    });
    const order = await flat.app.inject({ method: "GET", url: `/api/orders/${orderId}`, headers: shopper.headers });
    expect(order.json()).toMatchObject({
      delivery: { service: "locker", label: "To a TCG Locker", pointCode: locker.code },
    });
  });

  it("refuses a pickup point closed between the quote and the order with 409, naming others nearby", async () => {
    const [first, second] = await pointsNear("pickup_point", "2196");
    if (!first || !second) throw new Error("no pickup points near 2196");
    flat.app.delivery.emulator?.state.controls.closedPoints.add(first.code);
    const before = await flat.db.$count(orders);
    const refused = await createOrder(orderBody("pickup_point", first.code, 6_500));
    expect(refused.statusCode).toBe(409);
    const { message, code } = refused.json() as { message: string; code: string };
    expect(code).toBe("DELIVERY_POINT_CLOSED");
    expect(message).toContain(first.name);
    expect(message).toContain(second.code);
    expect(await flat.db.$count(orders)).toBe(before);

    const other = await createOrder(orderBody("pickup_point", second.code, 6_500));
    expect(other.statusCode).toBe(200);
  });

  it("refuses a point code the directory does not know, and a point service without a code", async () => {
    const unknown = await createOrder(orderBody("locker", "CG999999", 6_000));
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json()).toMatchObject({ code: "DELIVERY_POINT_UNKNOWN" });
    const missing = await createOrder(orderBody("locker", undefined, 6_000));
    expect(missing.statusCode).toBe(400);
  });

  it("refuses a delivery fee that is not the chosen option's", async () => {
    const [locker] = await pointsNear("locker", "2196");
    const response = await createOrder(orderBody("locker", locker?.code, 7_500));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: "CART_CHANGED", message: expect.stringContaining("R60.00") });
  });
});

describe("a live quote kept for create-order", () => {
  it("charges the price the checkout showed for the postal code, from the kept quote, without asking the courier again", async () => {
    // Live rates with the quote cache on (5 minutes by default), a second instance on the same data.
    const cached = await buildTestApp({ DELIVERY_PRICING: "live" }, {}, flat.databaseUrl);
    try {
      const emulator = cached.app.delivery.emulator;
      if (!emulator) throw new Error("local mode has the emulator");
      // As the checkout page asks: the cart's lines, the postal code and the province, before the street is typed.
      const shown = await cached.app.inject({
        method: "POST",
        url: "/api/delivery/options",
        payload: {
          items: [{ id: cheap.product.id, size: cheap.size, quantity: 1 }],
          destination: { zipCode: "2520", province: "Gauteng" },
        },
      });
      expect(shown.statusCode).toBe(200);
      const economy = (shown.json() as DeliveryOptionsAnswer).options.find(
        (option) => option.service === "door_economy",
      );
      expect(economy).toMatchObject({ source: "live" });
      const feeCents = Math.round(Number(economy?.charge) * 100);
      expect(feeCents).not.toBe(7_500);
      // The courier goes down: asked again, it would fall back to the flat R75 and the fee would not match.
      emulator.state.controls.down = true;
      const body = orderBody("door_economy", undefined, feeCents);
      const response = await cached.app.inject({
        method: "POST",
        url: "/api/create-order",
        headers: shopper.headers,
        // The whole address now, with the line's name and price as the checkout sends them.
        payload: { ...body, deliveryInfo: { ...body.deliveryInfo, ...destination("2520") } },
      });
      expect(response.statusCode).toBe(200);
      const [order] = await cached.db
        .select({ source: orders.deliveryPriceSource, quoted: orders.deliveryQuotedCents })
        .from(orders)
        .where(eq(orders.id, (response.json() as { orderId: string }).orderId));
      expect(order).toEqual({ source: "live", quoted: Math.round(Number(economy?.price) * 100) });
    } finally {
      await cached.close();
    }
  });
});

describe("a nappy plan's box near the free-delivery threshold", () => {
  it("prices delivery on the box at plan prices: free at shelf prices, R75 for the plan, and create-order agrees", async () => {
    const catalogue = await stockedCatalog(flat.db);
    const product = catalogue.find(
      (candidate) =>
        candidate.id !== cheap.product.id &&
        candidate.maxPerOrder >= 2 &&
        inStockSizes(candidate).some((size) => (candidate.sellable[size] ?? 0) >= 2),
    );
    const size = product && inStockSizes(product).find((candidate) => (product.sellable[candidate] ?? 0) >= 2);
    if (!product || !size) throw new Error("no product with two in stock");
    // Two at R255.00 are R510.00 on the shelf; at the plan's 5% off, 2 x R242.25 = R484.50, under R500.
    await flat.db
      .update(products)
      .set({ priceCents: 25_500, sizePrices: { ...product.sizePrices, [size]: 25_500 }, planSavingBp: 500 })
      .where(eq(products.id, product.id));
    const items = [{ id: product.id, size, quantity: 2 }];
    const ask = (plan?: boolean) =>
      flat.app.inject({
        method: "POST",
        url: "/api/delivery/options",
        payload: { items, destination: destination("2196"), ...(plan === undefined ? {} : { plan }) },
      });
    const economyCharge = async (plan?: boolean) => {
      const response = await ask(plan);
      expect(response.statusCode).toBe(200);
      return (response.json() as DeliveryOptionsAnswer).options.find((option) => option.service === "door_economy")
        ?.charge;
    };
    expect(await economyCharge()).toBe("0.00");
    expect(await economyCharge(false)).toBe("0.00");
    expect(await economyCharge(true)).toBe("75.00");
    expect((await ask("yes" as unknown as boolean)).statusCode).toBe(400);

    const unit = planUnitPriceCents(25_500, 500);
    const response = await flat.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: shopper.headers,
      payload: {
        ...orderBody("door_economy", undefined, 7_500),
        subtotal: Number(centsToDecimal(unit * 2)),
        total: Number(centsToDecimal(unit * 2 + 7_500)),
        items: [{ ...items[0], price: Number(centsToDecimal(unit)) }],
        plan: { cadenceWeeks: 4, payBy: "card" },
      },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe("a shop that ships by hand (COURIER_MODE=manual)", () => {
  it("offers the door at flat prices only, refuses lockers and points, and refuses waybills with a pointer to Mark as Shipped", async () => {
    const manual = await buildTestApp({ COURIER_MODE: "manual" });
    try {
      expect(manual.app.delivery.emulator).toBeNull();
      const response = await manual.app.inject({
        method: "POST",
        url: "/api/delivery/options",
        payload: { items: [{ id: cheap.product.id, size: cheap.size, quantity: 1 }], destination: destination("2196") },
      });
      expect(response.statusCode).toBe(200);
      const answer = response.json() as DeliveryOptionsAnswer;
      expect(answer.options.map((option) => [option.service, option.price, option.source])).toEqual([
        ["door_economy", "75.00", "flat"],
        ["door_express", "150.00", "flat"],
      ]);
      const points = await manual.app.inject({ method: "GET", url: "/api/delivery/points?service=locker&near=2196" });
      expect(points.statusCode).toBe(409);
      expect(points.json()).toMatchObject({ code: "DELIVERY_UNAVAILABLE" });

      const buyer = await registerAndLogin(manual);
      const locker = await manual.app.inject({
        method: "POST",
        url: "/api/create-order",
        headers: buyer.headers,
        payload: { ...orderBody("locker", "CG000001", 6_000), userId: buyer.user.id },
      });
      expect(locker.statusCode).toBe(409);
      expect(locker.json()).toMatchObject({ code: "DELIVERY_UNAVAILABLE", message: expect.stringMatching(/door/) });
      const door = await manual.app.inject({
        method: "POST",
        url: "/api/create-order",
        headers: buyer.headers,
        payload: { ...orderBody("door_economy", undefined, 7_500), userId: buyer.user.id },
      });
      expect(door.statusCode).toBe(200);

      const admin = await signInAsAdmin(manual);
      const { orderId } = door.json() as { orderId: string };
      await manual.db.update(orders).set({ status: "completed", paidAt: new Date() }).where(eq(orders.id, orderId));
      for (const url of [`/api/admin/orders/${orderId}/waybill`, "/api/admin/orders/waybills"]) {
        const refused = await manual.app.inject({ method: "POST", url, headers: { cookie: admin.cookie } });
        expect(refused.statusCode).toBe(409);
        expect(refused.json()).toMatchObject({
          code: "WAYBILL_REFUSED",
          message: expect.stringMatching(/Mark as Shipped/),
        });
      }
    } finally {
      await manual.close();
    }
  });
});
