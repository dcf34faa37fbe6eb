import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimal } from "#domain/money.js";
import type { CreateOrderInput } from "#domain/schemas/orders.js";
import { checkoutSignature } from "#server/payfast/signature.js";
import { PAYFAST_SANDBOX } from "#server/platform/config.js";
import { categories, orderItems, orders, products } from "#server/platform/db/schema.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { inStockSizes, type StockedProduct, setStock, sizePriceCents, stockedCatalog } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

type Product = StockedProduct;

let t: TestApp;
let shopper: LoggedInUser;
let catalogue: Product[];

beforeAll(async () => {
  t = await buildTestApp();
  shopper = await registerAndLogin(t);
  catalogue = await stockedCatalog(t.db);
});
afterAll(() => t.close());

const rand = (cents: number) => Number(centsToDecimal(cents));

/** Two in-stock products, the first with at least two in-stock sizes. */
function pickProducts(): [Product, Product] {
  const available = catalogue.filter((product) => inStockSizes(product).length > 0);
  const first = available.find((product) => inStockSizes(product).length >= 2);
  const second = available.find((product) => product !== first);
  if (!first || !second) throw new Error("the seed has no products to order");
  return [first, second];
}

interface Line {
  product: Product;
  size: string;
  quantity: number;
}

/** The body the checkout page sends for these lines, with the figures the browser computes. */
function orderBody(lines: Line[], user = shopper): CreateOrderInput {
  const subtotal = lines.reduce((sum, line) => sum + sizePriceCents(line.product, line.size) * line.quantity, 0);
  const fee = subtotal >= 50_000 ? 0 : 7_500;
  return {
    subtotal: rand(subtotal),
    deliveryFee: rand(fee),
    total: rand(subtotal + fee),
    items: lines.map((line) => ({
      id: line.product.id,
      name: line.product.name,
      size: line.size,
      quantity: line.quantity,
      price: rand(sizePriceCents(line.product, line.size)),
    })),
    customerEmail: "thandi@example.co.za",
    userId: user.user.id,
    deliveryInfo: {
      name: "Thandi van der Merwe",
      phone: "082 555 0101",
      email: "thandi@example.co.za",
      address: "12 Jacaranda Street",
      city: "Pretoria",
      province: "Gauteng",
      zipCode: "0181",
      suburb: "Hatfield",
    },
  };
}

function createOrder(body: unknown, headers: Record<string, string> = shopper.headers) {
  return t.app.inject({ method: "POST", url: "/api/create-order", headers, payload: body as object });
}

async function orderCount(): Promise<number> {
  const { rows } = await t.pool.query<{ count: string }>("select count(*) from orders");
  return Number(rows[0]?.count);
}

async function addProduct(priceCents: number, overrides: Partial<typeof products.$inferInsert> = {}) {
  const [category] = await t.db.select().from(categories).limit(1);
  if (!category) throw new Error("no seeded category");
  const [product] = await t.db
    .insert(products)
    .values({
      name: `Test product ${randomUUID().slice(0, 8)}`,
      categoryId: category.id,
      priceCents,
      image: "/images/products/baby-nappies-value-pack.svg",
      sizes: ["One size"],
      ...overrides,
    })
    .returning();
  if (!product) throw new Error("product insert returned nothing");
  for (const size of product.sizes) await setStock(t.db, product.id, size, 100);
  return { ...product, sellable: Object.fromEntries(product.sizes.map((size) => [size, 100])) };
}

/** Expects a 409 asking the shopper to review the cart, and no order written. */
async function expectRefused(body: unknown, mentioning: string) {
  const before = await orderCount();
  const response = await createOrder(body);
  expect(response.statusCode).toBe(409);
  const { message, code } = response.json() as { message: string; code: string };
  expect(code).toBe("CART_CHANGED");
  expect(message).toMatch(/^Some items in your cart have changed or are unavailable\. Please review your cart/);
  expect(message).toContain(mentioning);
  expect(await orderCount()).toBe(before);
}

describe("POST /api/create-order", () => {
  it("creates a pending order priced from the database and answers a signed PayFast form", async () => {
    const [a, b] = pickProducts();
    const [sizeA1, sizeA2] = inStockSizes(a) as [string, string];
    const body = orderBody([
      { product: a, size: sizeA1, quantity: 2 },
      { product: a, size: sizeA2, quantity: 1 },
      { product: b, size: inStockSizes(b)[0] as string, quantity: 1 },
    ]);
    const response = await createOrder(body);
    expect(response.statusCode).toBe(200);
    const answer = response.json() as { orderId: string; payfastData: Record<string, string>; payfastUrl: string };
    expect(answer.orderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.payfastUrl).toBe("http://localhost:3000/payfast-emulator/eng/process");

    const [bSize] = inStockSizes(b) as [string];
    const subtotalCents = sizePriceCents(a, sizeA1) * 2 + sizePriceCents(a, sizeA2) + sizePriceCents(b, bSize);
    const feeCents = subtotalCents >= 50_000 ? 0 : 7_500;
    const { payfastData } = answer;
    expect(payfastData).toMatchObject({
      merchant_id: PAYFAST_SANDBOX.merchantId,
      merchant_key: PAYFAST_SANDBOX.merchantKey,
      return_url: `http://localhost:3000/success?orderId=${answer.orderId}`,
      cancel_url: `http://localhost:3000/cancel?orderId=${answer.orderId}`,
      notify_url: "http://localhost:3000/api/payfast/notify",
      name_first: "Thandi",
      name_last: "van der Merwe",
      email_address: "thandi@example.co.za",
      cell_number: "0825550101",
      m_payment_id: answer.orderId,
      amount: centsToDecimal(subtotalCents + feeCents),
      item_name: `Snug & Dry order ${answer.orderId.slice(-8).toUpperCase()}`,
    });
    expect(payfastData.item_description).toContain(`2 x ${a.name} (${sizeA1})`);
    expect(payfastData.signature).toBe(checkoutSignature(payfastData, PAYFAST_SANDBOX.passphrase));

    const [row] = await t.db.select().from(orders).where(eq(orders.id, answer.orderId));
    expect(row).toMatchObject({
      userId: shopper.user.id,
      status: "pending",
      subtotalCents,
      deliveryFeeCents: feeCents,
      totalCents: subtotalCents + feeCents,
      customerEmail: "thandi@example.co.za",
      deliveryProvince: "Gauteng",
      paidAt: null,
    });
    const lines = await t.db
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, answer.orderId))
      .orderBy(asc(orderItems.position));
    expect(
      lines.map(({ productId, size, quantity, unitPriceCents }) => ({ productId, size, quantity, unitPriceCents })),
    ).toEqual([
      { productId: a.id, size: sizeA1, quantity: 2, unitPriceCents: sizePriceCents(a, sizeA1) },
      { productId: a.id, size: sizeA2, quantity: 1, unitPriceCents: sizePriceCents(a, sizeA2) },
      { productId: b.id, size: bSize, quantity: 1, unitPriceCents: sizePriceCents(b, bSize) },
    ]);
  });

  it("keeps the product's own name, not the one the browser sent", async () => {
    const [a] = pickProducts();
    const body = orderBody([{ product: a, size: inStockSizes(a)[0] as string, quantity: 1 }]);
    const [item] = body.items;
    if (item) item.name = "Something else entirely";
    const response = await createOrder(body);
    expect(response.statusCode).toBe(200);
    const { orderId } = response.json() as { orderId: string };
    const [line] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(line?.name).toBe(a.name);
  });

  it("merges duplicate lines of the same product and size", async () => {
    const [a] = pickProducts();
    const size = inStockSizes(a)[0] as string;
    const body = orderBody([
      { product: a, size, quantity: 1 },
      { product: a, size, quantity: 2 },
    ]);
    const response = await createOrder(body);
    expect(response.statusCode).toBe(200);
    const { orderId } = response.json() as { orderId: string };
    const lines = await t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.quantity).toBe(3);
  });

  it("accepts figures a browser computed in floating point, within half a cent", async () => {
    const product = await addProduct(1_010);
    const body = orderBody([{ product, size: "One size", quantity: 3 }]);
    body.subtotal = 10.1 * 3;
    body.total = 10.1 * 3 + 75;
    expect(body.subtotal).not.toBe(30.3);
    const response = await createOrder(body);
    expect(response.statusCode).toBe(200);
    expect((response.json() as { payfastData: { amount: string } }).payfastData.amount).toBe("105.30");
  });

  it("charges R75.00 delivery on a subtotal of R499.99", async () => {
    const product = await addProduct(49_999);
    const response = await createOrder(orderBody([{ product, size: "One size", quantity: 1 }]));
    expect(response.statusCode).toBe(200);
    const { orderId, payfastData } = response.json() as { orderId: string; payfastData: { amount: string } };
    expect(payfastData.amount).toBe("574.99");
    const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ subtotalCents: 49_999, deliveryFeeCents: 7_500, totalCents: 57_499 });
  });

  it("delivers free on a subtotal of R500.00", async () => {
    const product = await addProduct(50_000);
    const response = await createOrder(orderBody([{ product, size: "One size", quantity: 1 }]));
    expect(response.statusCode).toBe(200);
    const { orderId, payfastData } = response.json() as { orderId: string; payfastData: { amount: string } };
    expect(payfastData.amount).toBe("500.00");
    const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ subtotalCents: 50_000, deliveryFeeCents: 0, totalCents: 50_000 });
  });

  it("refuses free delivery claimed on a subtotal of R499.99", async () => {
    const product = await addProduct(49_999);
    const body = orderBody([{ product, size: "One size", quantity: 1 }]);
    body.deliveryFee = 0;
    body.total = 499.99;
    await expectRefused(body, "The delivery fee is now R75.00.");
  });

  it("refuses a tampered line price", async () => {
    const [a] = pickProducts();
    const size = inStockSizes(a)[0] as string;
    const body = orderBody([{ product: a, size, quantity: 1 }]);
    const [item] = body.items;
    const tampered = sizePriceCents(a, size) - 100;
    if (item) item.price = rand(tampered);
    // The browser's totals follow its (tampered) prices.
    body.subtotal = rand(tampered);
    body.total = rand(tampered + 7_500);
    await expectRefused(body, `The price of "${a.name}" is now`);
  });

  it("refuses a tampered delivery fee", async () => {
    const product = await addProduct(10_000);
    const body = orderBody([{ product, size: "One size", quantity: 1 }]);
    body.deliveryFee = 0;
    body.total = 100;
    await expectRefused(body, "The delivery fee is now R75.00.");
  });

  it("refuses a tampered total", async () => {
    const product = await addProduct(10_000);
    const body = orderBody([{ product, size: "One size", quantity: 1 }]);
    body.total = 150;
    await expectRefused(body, "The total is now R175.00.");
  });

  it("refuses a tampered subtotal", async () => {
    const product = await addProduct(10_000);
    const body = orderBody([{ product, size: "One size", quantity: 1 }]);
    body.subtotal = 90;
    await expectRefused(body, "The subtotal is now R100.00.");
  });

  it("refuses a sold-out size with OUT_OF_STOCK, naming it", async () => {
    const product = catalogue.find((candidate) => candidate.sizes.some((size) => candidate.sellable[size] === 0));
    if (!product) throw new Error("the seed has no product with a sold-out size");
    const size = product.sizes.find((candidate) => product.sellable[candidate] === 0) as string;
    const before = await orderCount();
    const response = await createOrder(orderBody([{ product, size, quantity: 1 }]));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: "OUT_OF_STOCK",
      message: `${product.name} (${size}) is sold out. Please update your cart and try again.`,
    });
    expect(await orderCount()).toBe(before);
  });

  it("refuses a size the product does not come in", async () => {
    const [a] = pickProducts();
    const body = orderBody([{ product: a, size: "Size 99", quantity: 1 }]);
    await expectRefused(body, `"${a.name}" is not available in size "Size 99".`);
  });

  it("refuses an unknown product", async () => {
    const [a] = pickProducts();
    const ghost = { ...a, id: randomUUID(), name: "Discontinued Nappies" };
    const body = orderBody([{ product: ghost, size: "M", quantity: 1 }]);
    await expectRefused(body, `"Discontinued Nappies" is no longer available.`);
  });

  it("refuses a product deleted since it was added to the cart", async () => {
    const product = await addProduct(12_345);
    const body = orderBody([{ product, size: "One size", quantity: 1 }]);
    await t.db.delete(products).where(eq(products.id, product.id));
    await expectRefused(body, `"${product.name}" is no longer available.`);
  });

  it("asks a guest to log in", async () => {
    const [a] = pickProducts();
    const before = await orderCount();
    const response = await createOrder(
      orderBody([{ product: a, size: inStockSizes(a)[0] as string, quantity: 1 }]),
      {},
    );
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: expect.stringMatching(/log in/i), code: "NOT_LOGGED_IN" });
    expect(await orderCount()).toBe(before);
  });

  it("refuses a body whose userId is not the session's user", async () => {
    const [a] = pickProducts();
    const body = orderBody([{ product: a, size: inStockSizes(a)[0] as string, quantity: 1 }]);
    body.userId = randomUUID();
    const response = await createOrder(body);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: "SESSION_MISMATCH" });
  });

  it("refuses an x-user-id header that names someone else", async () => {
    const [a] = pickProducts();
    const body = orderBody([{ product: a, size: inStockSizes(a)[0] as string, quantity: 1 }]);
    const response = await createOrder(body, { cookie: shopper.cookie, "x-user-id": randomUUID() });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: "SESSION_MISMATCH" });
  });

  it("accepts a body without a userId", async () => {
    const [a] = pickProducts();
    const body = orderBody([{ product: a, size: inStockSizes(a)[0] as string, quantity: 1 }]);
    body.userId = null;
    const response = await createOrder(body, { cookie: shopper.cookie });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ["an empty cart", (body: CreateOrderInput) => ({ ...body, items: [] }), /items/],
    [
      "a province outside the nine",
      (body: CreateOrderInput) => ({ ...body, deliveryInfo: { ...body.deliveryInfo, province: "Gauteng North" } }),
      /province/,
    ],
    [
      "a missing phone number",
      (body: CreateOrderInput) => ({ ...body, deliveryInfo: { ...body.deliveryInfo, phone: " " } }),
      /phone/,
    ],
    [
      "a quantity of zero",
      (body: CreateOrderInput) => ({ ...body, items: body.items.map((item) => ({ ...item, quantity: 0 })) }),
      /quantity/,
    ],
    ["a negative total", (body: CreateOrderInput) => ({ ...body, total: -1 }), /total/],
  ])("answers 400 for %s", async (_name, change, message) => {
    const [a] = pickProducts();
    const body = change(orderBody([{ product: a, size: inStockSizes(a)[0] as string, quantity: 1 }]));
    const response = await createOrder(body);
    expect(response.statusCode).toBe(400);
    expect((response.json() as { message: string }).message).toMatch(message);
  });

  it("answers 400, not a database error, for a NUL character in the delivery details", async () => {
    const [a] = pickProducts();
    const body = orderBody([{ product: a, size: inStockSizes(a)[0] as string, quantity: 1 }]);
    body.deliveryInfo.address = "12 Jacaranda\u0000 Street";
    const before = await orderCount();
    const response = await createOrder(body);
    expect(response.statusCode).toBe(400);
    expect(await orderCount()).toBe(before);
  });

  it("writes an order in 4 SQL statements: the session, the rate limit, the cart's products, and the order with its holds", async () => {
    const [a, b] = pickProducts();
    const body = orderBody([
      { product: a, size: inStockSizes(a)[0] as string, quantity: 1 },
      { product: b, size: inStockSizes(b)[0] as string, quantity: 2 },
    ]);
    const original = pg.Client.prototype.query;
    let statements = 0;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      // The jobs run on their own meanwhile (pg-boss's polls, a run's advisory lock, the mail
      // sender's look at the outbox, the PayFast emulator's 500 ms look for notifications to
      // re-send): not the order's.
      const [query] = args as [string | { text?: string }];
      const text = String(typeof query === "string" ? query : query?.text);
      if (!/pgboss\.|advisory_(un)?lock|\bemails\b|\bpayfast_emulator_payments\b/.test(text)) statements++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    try {
      const response = await createOrder(body);
      expect(response.statusCode).toBe(200);
    } finally {
      pg.Client.prototype.query = original;
    }
    expect(statements).toBe(4);
  });
});
