import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRand } from "#domain/money.js";
import { perUnitText, sizePerUnitCents } from "#domain/packs.js";
import { deliveryFeeCents } from "#domain/pricing.js";
import type { AdminProduct, Product } from "#domain/schemas/catalog.js";
import { emails, orderItems, products } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { pdfText } from "../helpers/pdf.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t);
});
afterAll(() => t.close());

const catalogue = async () => (await t.app.inject({ method: "GET", url: "/api/products" })).json() as Product[];

const tag = () => Math.random().toString(36).slice(2, 8);

/** A product with sizes S (R100.00, 40 in a pack), L (R150.00, 30 in a pack) and XL (the price, no count). */
const sizedProduct = () => ({
  name: `Trial Nappies ${tag()}`,
  category: "baby",
  price: "120.00",
  image: "/images/products/baby-newborn-nappies.svg",
  sizes: "S, L, XL",
  sizePrices: { S: "100.00", L: 150 },
  sizePackCounts: { S: 40, L: 30 },
  packUnit: "Nappy",
  stock: { S: 50, L: 50, XL: 50 },
});

const saveProduct = (payload: Record<string, unknown>, id?: string) =>
  t.app.inject({
    method: id ? "PUT" : "POST",
    url: id ? `/api/admin/products/${id}` : "/api/admin/products",
    headers: { cookie: admin.cookie },
    payload,
  });

async function productCount(): Promise<number> {
  const { rows } = await t.pool.query<{ count: string }>("select count(*) from products");
  return Number(rows[0]?.count);
}

/** The body checkout sends for these lines at these unit prices (rand), its figures following them. */
function orderBody(id: string, lines: { size: string; quantity: number; priceCents: number }[]) {
  const subtotal = lines.reduce((sum, line) => sum + line.priceCents * line.quantity, 0);
  const fee = deliveryFeeCents(subtotal);
  return {
    subtotal: subtotal / 100,
    deliveryFee: fee / 100,
    total: (subtotal + fee) / 100,
    items: lines.map((line) => ({ id, size: line.size, quantity: line.quantity, price: line.priceCents / 100 })),
    customerEmail: shopper.user.email,
    userId: shopper.user.id,
    deliveryInfo: {
      name: "Thandi Mokoena",
      phone: "082 555 0101",
      email: shopper.user.email,
      address: "12 Jacaranda Street",
      city: "Pretoria",
      province: "Gauteng",
      zipCode: "0181",
      suburb: "Hatfield",
    },
  };
}

const createOrder = (body: unknown) =>
  t.app.inject({ method: "POST", url: "/api/create-order", headers: shopper.headers, payload: body as object });

describe("prices and packs per size in the catalogue", () => {
  it("gives the seeded nappies a price and a pack per size, bigger sizes fewer nappies at more a nappy", async () => {
    const nappies = (await catalogue()).find((product) => product.name === "Snug & Dry Baby Nappies Value Pack");
    if (!nappies) throw new Error("the seed has no value pack");
    expect(nappies.packUnit).toBe("nappy");
    expect(Object.keys(nappies.sizePrices ?? {})).toEqual(nappies.sizes);
    const counts = nappies.sizes.map((size) => nappies.sizePackCounts?.[size] ?? 0);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    const perNappy = nappies.sizes.map((size) => sizePerUnitCents(nappies, size) ?? 0);
    expect([...perNappy].sort((a, b) => a - b)).toEqual(perNappy);
    expect(perNappy[0]).toBeGreaterThanOrEqual(231);
    expect(perNappy.at(-1)).toBeLessThanOrEqual(422);
    // `price` is the lowest size price: the "from" price clients of the old format read.
    const cents = Object.values(nappies.sizePrices ?? {}).map((price) => Math.round(Number(price) * 100));
    expect(Math.round(Number(nappies.price) * 100)).toBe(Math.min(...cents));
    expect(new Set(cents).size).toBeGreaterThan(1);
  });

  it("keeps every size of a product that costs the same at its one price", async () => {
    const underwear = (await catalogue()).find((product) => product.name === "Snug & Dry Period Underwear");
    expect(underwear?.sizePrices).toEqual(Object.fromEntries((underwear?.sizes ?? []).map((size) => [size, "189.99"])));
    expect(underwear?.price).toBe("189.99");
    expect(perUnitText(underwear as Product, "M")).toBe("R189.99 per pair");
  });

  it("stores an admin's sizes' prices and packs; a size without its own price costs the product's price", async () => {
    const response = await saveProduct(sizedProduct());
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json() as AdminProduct;
    expect(created).toMatchObject({
      price: "100.00",
      sizePrices: { S: "100.00", L: "150.00", XL: "120.00" },
      sizePackCounts: { S: 40, L: 30 },
      packUnit: "nappy",
    });
    const shown = (await catalogue()).find((product) => product.id === created.id);
    expect(shown).toMatchObject({
      price: "100.00",
      sizePrices: created.sizePrices,
      sizePackCounts: created.sizePackCounts,
    });
    expect(perUnitText(created, "S")).toBe("R2.50 per nappy");
    expect(perUnitText(created, "L")).toBe("R5.00 per nappy");
    expect(perUnitText(created, null)).toBe("from R2.50 per nappy");
    expect(perUnitText(created, "XL")).toBe("");

    // Sizes removed take their price and pack with them; the "from" price follows.
    const fewer = await saveProduct(
      { ...sizedProduct(), name: created.name, sizes: "L, XL", sizePrices: { L: "150" }, sizePackCounts: { L: 30 } },
      created.id,
    );
    expect(fewer.statusCode, fewer.body).toBe(200);
    expect(fewer.json()).toMatchObject({
      price: "120.00",
      sizePrices: { L: "150.00", XL: "120.00" },
      sizePackCounts: { L: 30 },
    });
  });

  it("keeps a product sent in the old format (price only) at one price for every size", async () => {
    const { sizePrices: _prices, sizePackCounts: _packs, packUnit: _unit, ...old } = sizedProduct();
    const response = await saveProduct(old);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      price: "120.00",
      sizePrices: { S: "120.00", L: "120.00", XL: "120.00" },
      sizePackCounts: {},
      packUnit: null,
    });
  });
});

describe("a size's price or pack that cannot be", () => {
  it.each([
    ["a price for a size the product does not have", { sizePrices: { M: "100.00" } }, 'sizePrices names "M"'],
    ["a pack count for a size the product does not have", { sizePackCounts: { M: 10 } }, 'sizePackCounts names "M"'],
    ["a price of 0", { sizePrices: { S: "0.00" } }, "sizePrices.S: a size's price must be a positive amount"],
    ["a negative price", { sizePrices: { S: "-5.00" } }, "sizePrices.S: a size's price must be a positive amount"],
    [
      "a price with three decimals",
      { sizePrices: { S: "10.005" } },
      "sizePrices.S: a size's price must be a positive amount",
    ],
    [
      "a price that is not a number",
      { sizePrices: { S: "cheap" } },
      "sizePrices.S: a size's price must be a positive amount",
    ],
    ["a pack of 0", { sizePackCounts: { S: 0 } }, "sizePackCounts.S: units in a pack must be at least 1"],
    ["a pack of 10001", { sizePackCounts: { S: 10_001 } }, "sizePackCounts.S: units in a pack must be at most 10000"],
    ["a pack of 1.5", { sizePackCounts: { S: 1.5 } }, "sizePackCounts.S: units in a pack must be a whole number"],
    [
      "a pack count as text",
      { sizePackCounts: { S: "12" } },
      "sizePackCounts.S: units in a pack must be a whole number",
    ],
    ["a unit word of 31 characters", { packUnit: "n".repeat(31) }, "packUnit"],
  ])("refuses %s with 400 and changes nothing", async (_name, change, message) => {
    const before = await productCount();
    const response = await saveProduct({ ...sizedProduct(), ...change });
    expect(response.statusCode).toBe(400);
    const body = response.json() as { message: string; code: string };
    expect(body.code).toBe("VALIDATION_FAILED");
    expect(body.message).toContain(message);
    expect(await productCount()).toBe(before);
  });

  it("takes the edges: a price of R0.01, packs of 1 and 10000", async () => {
    const response = await saveProduct({
      ...sizedProduct(),
      sizePrices: { S: "0.01", L: 150 },
      sizePackCounts: { S: 1, L: 10_000 },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ price: "0.01", sizePackCounts: { S: 1, L: 10_000 } });
  });

  it("refuses a changed price on an existing product as well, leaving it as it was", async () => {
    const created = (await saveProduct(sizedProduct())).json() as AdminProduct;
    const response = await saveProduct({ ...sizedProduct(), name: created.name, sizePrices: { L: "0" } }, created.id);
    expect(response.statusCode).toBe(400);
    const [row] = await t.db.select().from(products).where(eq(products.id, created.id));
    expect(row?.sizePrices).toEqual({ S: 10_000, L: 15_000, XL: 12_000 });
  });
});

describe("create-order prices each line by its size", () => {
  let product: AdminProduct;
  beforeAll(async () => {
    product = (await saveProduct(sizedProduct())).json() as AdminProduct;
  });

  it("refuses a cart that prices a size with another size's price (409), and places nothing", async () => {
    const { rows: before } = await t.pool.query("select count(*)::int as count from orders");
    const response = await createOrder(
      orderBody(product.id, [
        { size: "S", quantity: 1, priceCents: 10_000 },
        { size: "L", quantity: 1, priceCents: 10_000 },
      ]),
    );
    expect(response.statusCode).toBe(409);
    const body = response.json() as { message: string; code: string };
    expect(body.code).toBe("CART_CHANGED");
    expect(body.message).toContain(`The price of "${product.name}" is now R150.00 in size "L".`);
    expect(body.message).not.toContain('size "S"');
    const { rows: after } = await t.pool.query("select count(*)::int as count from orders");
    expect(after).toEqual(before);
  });

  it("refuses a cart priced at the product's 'from' price for a dearer size", async () => {
    const response = await createOrder(orderBody(product.id, [{ size: "XL", quantity: 1, priceCents: 10_000 }]));
    expect(response.statusCode).toBe(409);
    expect((response.json() as { message: string }).message).toContain('is now R120.00 in size "XL"');
  });

  it("stores each line at its size's price; the invoice shows it; a later price change leaves the order as sold", async () => {
    const response = await createOrder(
      orderBody(product.id, [
        { size: "S", quantity: 2, priceCents: 10_000 },
        { size: "L", quantity: 1, priceCents: 15_000 },
      ]),
    );
    expect(response.statusCode, response.body).toBe(200);
    const { orderId } = response.json() as { orderId: string; payfastData: Record<string, string> };
    const lines = await t.db
      .select({ size: orderItems.size, unitPriceCents: orderItems.unitPriceCents })
      .from(orderItems)
      .where(eq(orderItems.orderId, orderId))
      .orderBy(asc(orderItems.position));
    expect(lines).toEqual([
      { size: "S", unitPriceCents: 10_000 },
      { size: "L", unitPriceCents: 15_000 },
    ]);
    expect((response.json() as { payfastData: { amount: string } }).payfastData.amount).toBe("425.00"); // R350.00 and R75.00 delivery

    const paid = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${orderId}/confirm-payment`,
      headers: { cookie: admin.cookie },
    });
    expect(paid.statusCode, paid.body).toBe(200);

    // The price of L goes up after the sale.
    const raised = await saveProduct(
      { ...sizedProduct(), name: product.name, sizePrices: { S: "100.00", L: "175.00" } },
      product.id,
    );
    expect(raised.statusCode, raised.body).toBe(200);

    const invoice = await t.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}/invoice.pdf`,
      headers: shopper.headers,
    });
    expect(invoice.statusCode).toBe(200);
    const text = (await pdfText(invoice.rawPayload)).replace(/\s+/g, " ");
    expect(text).toContain(`L 1 ${formatRand(15_000)}`);
    expect(text).toContain(`S 2 ${formatRand(10_000)}`);
    expect(text).not.toContain(formatRand(17_500));
    // The confirmation e-mail, written when the order was paid, gives each line its size's price.
    const [mail] = await t.db
      .select({ data: emails.data })
      .from(emails)
      .where(and(eq(emails.kind, "order_confirmation"), eq(emails.eventKey, orderId)));
    expect(mail?.data).toMatchObject({
      lines: [
        { size: "S", quantity: 2, unitPriceCents: 10_000 },
        { size: "L", quantity: 1, unitPriceCents: 15_000 },
      ],
    });

    const order = await t.app.inject({ method: "GET", url: `/api/orders/${orderId}`, headers: shopper.headers });
    expect(
      (order.json() as { items: { size: string; price: string }[] }).items.map(({ size, price }) => ({ size, price })),
    ).toEqual([
      { size: "S", price: "100.00" },
      { size: "L", price: "150.00" },
    ]);
  });
});
