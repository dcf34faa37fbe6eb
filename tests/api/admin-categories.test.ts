import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  ({ cookie } = await signInAsAdmin(t));
});
afterAll(() => t.close());

type Body = Record<string, unknown>;
const send = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: Body) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const messageOf = (response: { json: () => unknown }) => (response.json() as { message: string }).message;
const publicNames = async () =>
  ((await t.app.inject({ method: "GET", url: "/api/categories" })).json() as { name: string }[]).map((c) => c.name);

const product = (category: string) => ({
  name: `Product in ${category}`,
  category,
  price: "10.00",
  image: "/images/products/extras-changing-mat.svg",
  sizes: "One size",
});

describe("GET /api/admin/categories", () => {
  it("lists the categories with how many products use each", async () => {
    const response = await send("GET", "/api/admin/categories");
    expect(response.statusCode).toBe(200);
    const categories = response.json() as { name: string; description: string; productCount: number }[];
    expect(categories.map((category) => category.name).sort()).toEqual(["adult", "baby", "extras", "kids", "pads"]);
    for (const category of categories) expect(category.productCount).toBeGreaterThan(0);
  });
});

describe("POST /api/admin/categories", () => {
  it("creates a category with its name in lower case and shows it on the storefront", async () => {
    await publicNames(); // warm the cache
    const response = await send("POST", "/api/admin/categories", { name: "  Swim ", description: "For the pool" });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(String),
      name: "swim",
      description: "For the pool",
      productCount: 0,
    });
    expect(await publicNames()).toContain("swim");
  });

  it("stores an absent description as empty text", async () => {
    const response = await send("POST", "/api/admin/categories", { name: "Travel" });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ name: "travel", description: "" });
  });

  it("refuses a blank or missing name with 400 naming the field", async () => {
    for (const payload of [{ name: "   " }, {}, { name: 7 }, { name: "x".repeat(61) }]) {
      const response = await send("POST", "/api/admin/categories", payload);
      expect(response.statusCode).toBe(400);
      expect(messageOf(response)).toMatch(/name/);
    }
  });

  it("refuses a name that is already taken, whatever its case, with 409", async () => {
    const response = await send("POST", "/api/admin/categories", { name: "BABY" });
    expect(response.statusCode).toBe(409);
    expect(messageOf(response)).toMatch(/already exists/);
    expect(response.json()).toMatchObject({ code: "ALREADY_EXISTS" });
  });
});

describe("PUT /api/admin/categories/:id", () => {
  it("renames a category and keeps its products in it", async () => {
    const { id } = (await send("POST", "/api/admin/categories", { name: "gifts" })).json() as { id: string };
    const made = await send("POST", "/api/admin/products", product("gifts"));
    const productId = (made.json() as { id: string }).id;

    const response = await send("PUT", `/api/admin/categories/${id}`, { name: "Gift Packs", description: "Ready" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id, name: "gift packs", description: "Ready", productCount: 1 });

    const products = (await t.app.inject({ method: "GET", url: "/api/products" })).json() as Body[];
    expect(products.find((p) => p.id === productId)).toMatchObject({ category: "gift packs" });
    expect(await publicNames()).toContain("gift packs");
    expect(await publicNames()).not.toContain("gifts");
  });

  it("refuses a rename onto another category's name with 409", async () => {
    const { id } = (await send("POST", "/api/admin/categories", { name: "samples" })).json() as { id: string };
    const response = await send("PUT", `/api/admin/categories/${id}`, { name: "Kids" });
    expect(response.statusCode).toBe(409);
  });

  it("refuses a blank name with 400, an unknown id with 404 and a malformed id with 400", async () => {
    const { id } = (await send("POST", "/api/admin/categories", { name: "bundles" })).json() as { id: string };
    const blank = await send("PUT", `/api/admin/categories/${id}`, { name: "" });
    expect(blank.statusCode).toBe(400);
    expect(messageOf(blank)).toMatch(/name/);
    const unknown = await send("PUT", `/api/admin/categories/${randomUUID()}`, { name: "anything" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: "Category not found", code: "NOT_FOUND" });
    const malformed = await send("PUT", "/api/admin/categories/abc", { name: "anything" });
    expect(malformed.statusCode).toBe(400);
  });
});

describe("DELETE /api/admin/categories/:id", () => {
  it("refuses to delete a category that products use with 409 saying how many", async () => {
    const categories = (await send("GET", "/api/admin/categories")).json() as {
      id: string;
      name: string;
      productCount: number;
    }[];
    const baby = categories.find((category) => category.name === "baby");
    const response = await send("DELETE", `/api/admin/categories/${baby?.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      message: `This category is used by ${baby?.productCount} product(s). Move or delete them first.`,
      code: "CATEGORY_IN_USE",
    });
    expect(await publicNames()).toContain("baby");
  });

  it("deletes an unused category, which leaves the storefront", async () => {
    const { id } = (await send("POST", "/api/admin/categories", { name: "seasonal" })).json() as { id: string };
    await publicNames();
    const response = await send("DELETE", `/api/admin/categories/${id}`);
    expect(response.statusCode).toBe(204);
    expect(await publicNames()).not.toContain("seasonal");
  });

  it("deletes a category once its last product has been deleted", async () => {
    const { id } = (await send("POST", "/api/admin/categories", { name: "clearance" })).json() as { id: string };
    const { id: productId } = (await send("POST", "/api/admin/products", product("clearance"))).json() as {
      id: string;
    };
    expect((await send("DELETE", `/api/admin/categories/${id}`)).statusCode).toBe(409);
    expect((await send("DELETE", `/api/admin/products/${productId}`)).statusCode).toBe(204);
    expect((await send("DELETE", `/api/admin/categories/${id}`)).statusCode).toBe(204);
  });

  it("answers 404 for an unknown category and 400 for a malformed id", async () => {
    expect((await send("DELETE", `/api/admin/categories/${randomUUID()}`)).statusCode).toBe(404);
    expect((await send("DELETE", "/api/admin/categories/1")).statusCode).toBe(400);
  });
});
