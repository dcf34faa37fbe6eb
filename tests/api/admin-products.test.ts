import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertOrder, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  ({ cookie } = await signInAsAdmin(t));
});
afterAll(() => t.close());

const validProduct = {
  name: "Overnight Pants Trial Pack",
  category: "adult",
  price: "189.90",
  image: "/images/products/adult-night-pants.svg",
  description: "Three nights of dry sleep.",
  sizes: "M, L , ,XL",
  sizeImages: { M: "/images/products/adult-pants-m.svg", L: "", Gone: "/images/x.svg" },
  stock: { M: 4, L: 20, XL: 0, Gone: 7 },
  promoText: "Trial price",
};

type Body = Record<string, unknown>;
const send = (method: "POST" | "PUT" | "DELETE", url: string, payload?: Body, headers = { cookie }) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const messageOf = (response: { json: () => unknown }) => (response.json() as { message: string }).message;

async function publicProduct(id: string) {
  const response = await t.app.inject({ method: "GET", url: "/api/products" });
  return (response.json() as Body[]).find((product) => product.id === id);
}

describe("POST /api/admin/products", () => {
  it("creates a product, trims the sizes and keeps per-size settings only for listed sizes", async () => {
    const response = await send("POST", "/api/admin/products", validProduct);
    expect(response.statusCode).toBe(201);
    const created = response.json() as Body;
    const expected = {
      id: expect.any(String),
      name: "Overnight Pants Trial Pack",
      slug: "overnight-pants-trial-pack",
      category: "adult",
      price: "189.90",
      image: "/images/products/adult-night-pants.svg",
      description: "Three nights of dry sleep.",
      sizes: ["M", "L", "XL"],
      sizeImages: { M: "/images/products/adult-pants-m.svg" },
      sizePrices: { M: "189.90", L: "189.90", XL: "189.90" },
      sizePackCounts: {},
      packUnit: null,
      sizeOutOfStock: { XL: true },
      outOfStock: false,
      sizeLowStock: { M: 4 },
      promoText: "Trial price",
      // Left out of the form: the default limit per order, no multi-buy tiers and no absorbency.
      maxPerOrder: 20,
      multibuyTiers: [],
      multibuyNote: null,
      // No plan saving of its own: the owner's 5% (docs/decisions/050).
      planSavingBp: 500,
      absorbency: null,
      fitMeasure: null,
      sizeFits: {},
    };
    expect(created).toEqual({
      ...expected,
      vatClass: "standard",
      planSavingOwnBp: null,
      stock: { M: 4, L: 20, XL: 0 },
      held: { M: 0, L: 0, XL: 0 },
      // Not measured yet: each size packs as DEFAULT_PACKED_SIZE (decision 053).
      sizeParcels: {},
    });
    // The public sees whether a size sells and, at 5 or fewer, how many are left; never the stock itself.
    expect(await publicProduct(created.id as string)).toEqual(expected);
  });

  it("shows a new product on the storefront's next load", async () => {
    await t.app.inject({ method: "GET", url: "/api/products" }); // warm the cache
    const response = await send("POST", "/api/admin/products", { ...validProduct, name: "Fresh On The Shelf" });
    const { id } = response.json() as { id: string };
    expect(await publicProduct(id)).toMatchObject({ name: "Fresh On The Shelf" });
  });

  it("accepts the category in any case and a numeric price", async () => {
    const response = await send("POST", "/api/admin/products", { ...validProduct, category: "Baby", price: 99.5 });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ category: "baby", price: "99.50" });
  });

  it.each([
    ["name", { name: "  " }, /name/],
    ["name", { name: undefined }, /name/],
    ["price", { price: "-5" }, /price/],
    ["price", { price: "0" }, /price/],
    ["price", { price: "12.345" }, /price/],
    ["price", { price: "abc" }, /price/],
    ["image", { image: "" }, /image/],
    ["image", { image: "javascript:alert(1)" }, /image/],
    ["sizes", { sizes: " , ," }, /sizes/],
    ["sizes", { sizes: [] }, /sizes/],
    ["sizeImages", { sizeImages: { M: "javascript:alert(1)" } }, /sizeImages/],
    ["stock", { stock: { M: -1 } }, /stock/],
    ["stock", { stock: { M: 1.5 } }, /stock/],
    ["stock", { stock: { M: "lots" } }, /stock/],
    ["category", { category: "" }, /category/],
  ])("refuses a product with a bad %s with 400 naming the field", async (_field, change, pattern) => {
    const response = await send("POST", "/api/admin/products", { ...validProduct, ...change });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toMatch(pattern);
  });

  it("refuses a category that does not exist", async () => {
    const response = await send("POST", "/api/admin/products", { ...validProduct, category: "toys" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: "category must be one of the categories", code: "VALIDATION_FAILED" });
  });
});

describe("a product's VAT class", () => {
  it("is standard unless the admin says zero, and an update that leaves it out keeps it", async () => {
    const standard = (
      await send("POST", "/api/admin/products", { ...validProduct, name: "VAT Class Briefs" })
    ).json() as Body;
    expect(standard.vatClass).toBe("standard");
    const created = await send("POST", "/api/admin/products", {
      ...validProduct,
      name: "VAT Class Maternity Pads",
      category: "pads",
      vatClass: "zero",
    });
    expect(created.statusCode).toBe(201);
    const pads = created.json() as Body;
    expect(pads.vatClass).toBe("zero");
    // validProduct has no vatClass: the update leaves it out.
    const withoutClass = { ...validProduct, name: "VAT Class Maternity Pads XL", category: "pads" };
    const kept = await send("PUT", `/api/admin/products/${pads.id}`, withoutClass);
    expect(kept.statusCode).toBe(200);
    expect((kept.json() as Body).vatClass).toBe("zero");
    const changed = await send("PUT", `/api/admin/products/${pads.id}`, { ...withoutClass, vatClass: "standard" });
    expect((changed.json() as Body).vatClass).toBe("standard");
    // The public catalogue's wire format does not carry it.
    expect(await publicProduct(pads.id as string)).not.toHaveProperty("vatClass");
  });

  it.each(["reduced", "", "ZERO", 0])("refuses vatClass %j with a 400 and creates nothing", async (vatClass) => {
    const name = `Refused VAT Class ${String(vatClass)}`;
    const response = await send("POST", "/api/admin/products", { ...validProduct, name, vatClass });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(messageOf(response)).toMatch(/vatClass must be standard or zero/);
    const list = (
      await t.app.inject({ method: "GET", url: "/api/admin/products", headers: { cookie } })
    ).json() as Body[];
    expect(list.some((product) => product.name === name)).toBe(false);
  });

  it("is zero for the seed's pads and pantyliners, standard for its tampons, period underwear and incontinence pads", async () => {
    const list = (
      await t.app.inject({ method: "GET", url: "/api/admin/products", headers: { cookie } })
    ).json() as Body[];
    const classOf = (name: string) => list.find((product) => product.name === name)?.vatClass;
    for (const name of [
      "Snug & Dry Ultra Thin Pads",
      "Snug & Dry Maxi Night Pads",
      "Snug & Dry Panty Liners",
      "Snug & Dry Pads Value Box",
      "Snug & Dry Organic Cotton Pads",
    ]) {
      expect(classOf(name), name).toBe("zero");
    }
    for (const name of [
      "Snug & Dry Tampons",
      "Snug & Dry Period Underwear",
      "Snug & Dry Bladder Control Pads",
      "Snug & Dry Newborn Nappies",
    ]) {
      expect(classOf(name), name).toBe("standard");
    }
  });
});

describe("PUT /api/admin/products/:id", () => {
  it("updates every field and the storefront shows the new price", async () => {
    const { id } = (await send("POST", "/api/admin/products", validProduct)).json() as { id: string };
    await publicProduct(id); // cached
    const response = await send("PUT", `/api/admin/products/${id}`, {
      ...validProduct,
      name: "Overnight Pants",
      category: "kids",
      price: "199.00",
      sizes: ["L", "XXL"],
      sizeImages: { L: "https://cdn.example.co.za/l.png" },
      stock: { L: 0 },
      promoText: "",
    });
    expect(response.statusCode).toBe(200);
    const expected = {
      id,
      name: "Overnight Pants",
      category: "kids",
      price: "199.00",
      sizes: ["L", "XXL"],
      sizeImages: { L: "https://cdn.example.co.za/l.png" },
      sizeOutOfStock: { L: true, XXL: true },
      outOfStock: true,
      sizeLowStock: {},
      promoText: null,
    };
    expect(response.json()).toMatchObject(expected);
    expect(await publicProduct(id)).toMatchObject(expected);
  });

  it("answers 404 for an unknown product and 400 for a malformed id", async () => {
    const unknown = await send("PUT", `/api/admin/products/${randomUUID()}`, validProduct);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: "Product not found", code: "NOT_FOUND" });
    const malformed = await send("PUT", "/api/admin/products/42", validProduct);
    expect(malformed.statusCode).toBe(400);
    expect(messageOf(malformed)).toMatch(/id/);
  });

  it("refuses an invalid update with 400 and leaves the product as it was", async () => {
    const { id } = (await send("POST", "/api/admin/products", validProduct)).json() as { id: string };
    const response = await send("PUT", `/api/admin/products/${id}`, { ...validProduct, price: "free" });
    expect(response.statusCode).toBe(400);
    expect(messageOf(response)).toMatch(/price/);
    expect(await publicProduct(id)).toMatchObject({ price: "189.90" });
  });
});

describe("DELETE /api/admin/products/:id", () => {
  it("deletes a product that is in an existing order and the order keeps its lines", async () => {
    const { id } = (await send("POST", "/api/admin/products", validProduct)).json() as { id: string };
    const orderId = await insertOrder(t, {
      lines: [{ productId: id, name: validProduct.name, size: "L", quantity: 3, unitPriceCents: 18_990 }],
    });
    const response = await send("DELETE", `/api/admin/products/${id}`);
    expect(response.statusCode).toBe(204);
    expect(await publicProduct(id)).toBeUndefined();

    const view = await t.app.inject({ method: "GET", url: `/api/admin/orders/${orderId}`, headers: { cookie } });
    const { order } = view.json() as { order: { id: string; items: unknown[]; total: string } };
    expect(order?.items).toEqual([
      {
        productId: null,
        name: validProduct.name,
        size: "L",
        quantity: 3,
        price: "189.90",
        discount: "0.00",
        multibuyDiscount: "0.00",
        lineId: expect.any(Number),
      },
    ]);
    // 3 x R189.90 = R569.70: free delivery from R500.
    expect(order?.total).toBe("569.70");
  });

  it("answers 404 for an unknown or already deleted product", async () => {
    const { id } = (await send("POST", "/api/admin/products", validProduct)).json() as { id: string };
    expect((await send("DELETE", `/api/admin/products/${id}`)).statusCode).toBe(204);
    expect((await send("DELETE", `/api/admin/products/${id}`)).statusCode).toBe(404);
    expect((await send("DELETE", "/api/admin/products/nope")).statusCode).toBe(400);
  });

  it("refuses a customer with 403", async () => {
    const customer = await signIn(t);
    const [product] = (await t.app.inject({ method: "GET", url: "/api/products" })).json() as { id: string }[];
    const response = await send("DELETE", `/api/admin/products/${product?.id}`, undefined, {
      cookie: customer.cookie,
    });
    expect(response.statusCode).toBe(403);
    expect(await publicProduct(String(product?.id))).toBeDefined();
  });
});

describe("stock per size", () => {
  const create = async (stock: Record<string, number>) =>
    (await send("POST", "/api/admin/products", { ...validProduct, sizes: ["S", "M"], stock })).json() as {
      id: string;
    };
  const adminList = async () =>
    (await t.app.inject({ method: "GET", url: "/api/admin/products", headers: { cookie } })).json() as {
      id: string;
      stock: Record<string, number>;
      held: Record<string, number>;
    }[];

  it("GET /api/admin/products lists every product with its stock and holds per size", async () => {
    const { id } = await create({ S: 12, M: 3 });
    const listed = (await adminList()).find((product) => product.id === id);
    expect(listed).toMatchObject({ stock: { S: 12, M: 3 }, held: { S: 0, M: 0 }, sizeLowStock: { M: 3 } });
    expect((await adminList()).length).toBe(
      ((await t.app.inject({ method: "GET", url: "/api/products" })).json() as unknown[]).length,
    );
  });

  it("an update sets the sizes it names, keeps the others, and a new size starts at 0", async () => {
    const { id } = await create({ S: 12, M: 3 });
    const response = await send("PUT", `/api/admin/products/${id}`, {
      ...validProduct,
      sizes: ["S", "M", "L"],
      stock: { M: 40 },
    });
    expect(response.json()).toMatchObject({ stock: { S: 12, M: 40, L: 0 }, sizeOutOfStock: { L: true } });
  });

  it("a size taken off the product loses its stock", async () => {
    const { id } = await create({ S: 12, M: 3 });
    await send("PUT", `/api/admin/products/${id}`, { ...validProduct, sizes: ["S"], stock: {} });
    await send("PUT", `/api/admin/products/${id}`, { ...validProduct, sizes: ["S", "M"], stock: {} });
    expect((await adminList()).find((product) => product.id === id)?.stock).toEqual({ S: 12, M: 0 });
  });

  it("refuses stock below what unpaid orders hold, naming the size and the least it can be", async () => {
    const { id } = await create({ S: 12, M: 3 });
    await t.pool.query("update product_stock set held = 2 where product_id = $1 and size = 'M'", [id]);
    const response = await send("PUT", `/api/admin/products/${id}`, {
      ...validProduct,
      sizes: ["S", "M"],
      stock: { S: 1, M: 1 },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: "STOCK_HELD",
      message: `2 of ${validProduct.name} (M) are held by unpaid orders, so its stock cannot be set below 2.`,
    });
    // Nothing changed, not even the size that was fine.
    expect((await adminList()).find((product) => product.id === id)).toMatchObject({
      stock: { S: 12, M: 3 },
      held: { S: 0, M: 2 },
    });
    const atTheHold = await send("PUT", `/api/admin/products/${id}`, {
      ...validProduct,
      sizes: ["S", "M"],
      stock: { M: 2 },
    });
    expect(atTheHold.json()).toMatchObject({ stock: { S: 12, M: 2 }, sizeOutOfStock: { M: true } });
  });
});
