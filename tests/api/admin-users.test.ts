import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe("GET /api/admin/users", () => {
  it("lists the users in the wire shape, without passwords or their hashes", async () => {
    const admin = await signInAsAdmin(t);
    const customer = await signIn(t);
    const response = await t.app.inject({ method: "GET", url: "/api/admin/users", headers: { cookie: admin.cookie } });
    expect(response.statusCode).toBe(200);
    const users = response.json() as Record<string, unknown>[];
    expect(users.find((user) => user.id === customer.id)).toEqual({
      id: customer.id,
      username: customer.username,
      email: customer.email,
      fullName: `Test ${customer.username}`,
      phone: "",
      address: "",
      city: "",
      zipCode: "",
      isAdmin: "false",
      createdAt: expect.any(String),
    });
    expect(users.find((user) => user.id === admin.id)).toMatchObject({ isAdmin: "true" });
    expect(response.body).not.toMatch(/password|argon|scrypt|\$2[aby]\$/i);
    expect(response.body).not.toContain(customer.password);
  });

  it("is refused to guests (401) and customers (403)", async () => {
    const guest = await t.app.inject({ method: "GET", url: "/api/admin/users" });
    expect(guest.statusCode).toBe(401);
    const customer = await signIn(t);
    const refused = await t.app.inject({
      method: "GET",
      url: "/api/admin/users",
      headers: { cookie: customer.cookie },
    });
    expect(refused.statusCode).toBe(403);
  });
});
