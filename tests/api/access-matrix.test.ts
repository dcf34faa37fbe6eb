import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedIn, signIn } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

/**
 * Every /api/admin route and every /api/users/{id}/... route, times every kind of caller, with
 * the exact status each must answer. Admin calls carry valid bodies and, where a route takes an
 * id, an id that does not exist: an admin then gets the route's own 404, proving the guard let
 * them through without changing anything.
 */

type Caller = "no session" | "customer" | "other customer" | "admin" | "customer forging the admin's x-user-id";
const CALLERS: Caller[] = [
  "no session",
  "customer",
  "other customer",
  "admin",
  "customer forging the admin's x-user-id",
];

interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The path as docs/product.md §7 writes it. */
  path: string;
  url: () => string;
  body?: () => unknown;
  expected: Record<Caller, number>;
}

let t: TestApp;
let customer: SignedIn;
let otherCustomer: SignedIn;
let admin: SignedIn;

beforeAll(async () => {
  t = await buildTestApp();
  customer = await signIn(t);
  otherCustomer = await signIn(t);
  admin = await signIn(t, { admin: true });
});
afterAll(() => t.close());

const unknownId = randomUUID();
const uniqueName = () => `matrix-${randomUUID().slice(0, 8)}`;

/** Only an admin passes; a forged x-user-id is refused before anything else. */
const adminOnly = (adminStatus: number): Record<Caller, number> => ({
  "no session": 401,
  customer: 403,
  "other customer": 403,
  admin: adminStatus,
  "customer forging the admin's x-user-id": 401,
});

/** The customer's own account: the customer and an admin pass, another customer does not. */
const selfOrAdmin: Record<Caller, number> = {
  "no session": 401,
  customer: 200,
  "other customer": 403,
  admin: 200,
  "customer forging the admin's x-user-id": 401,
};

const productBody = () => ({
  name: uniqueName(),
  category: "baby",
  price: "199.99",
  image: "/images/products/baby-nappies-value-pack.svg",
  description: "Made by the access matrix test",
  sizes: ["Size 3"],
  sizeImages: {},
  sizeOutOfStock: {},
  outOfStock: false,
  promoText: "",
});

const ROUTES: Route[] = [
  { method: "GET", path: "/api/admin/categories", url: () => `/api/admin/categories`, expected: adminOnly(200) },
  {
    method: "POST",
    path: "/api/admin/categories",
    url: () => `/api/admin/categories`,
    body: () => ({ name: uniqueName(), description: "" }),
    expected: adminOnly(201),
  },
  {
    method: "PUT",
    path: "/api/admin/categories/{id}",
    url: () => `/api/admin/categories/${unknownId}`,
    body: () => ({ name: uniqueName(), description: "" }),
    expected: adminOnly(404),
  },
  {
    method: "DELETE",
    path: "/api/admin/categories/{id}",
    url: () => `/api/admin/categories/${unknownId}`,
    expected: adminOnly(404),
  },
  {
    method: "POST",
    path: "/api/admin/products",
    url: () => `/api/admin/products`,
    body: productBody,
    expected: adminOnly(201),
  },
  {
    method: "PUT",
    path: "/api/admin/products/{id}",
    url: () => `/api/admin/products/${unknownId}`,
    body: productBody,
    expected: adminOnly(404),
  },
  {
    method: "DELETE",
    path: "/api/admin/products/{id}",
    url: () => `/api/admin/products/${unknownId}`,
    expected: adminOnly(404),
  },
  { method: "GET", path: "/api/admin/orders", url: () => `/api/admin/orders`, expected: adminOnly(200) },
  {
    method: "PATCH",
    path: "/api/admin/orders/{id}/status",
    url: () => `/api/admin/orders/${unknownId}/status`,
    body: () => ({ status: "completed" }),
    expected: adminOnly(404),
  },
  {
    method: "GET",
    path: "/api/admin/orders/preparing",
    url: () => `/api/admin/orders/preparing`,
    expected: adminOnly(200),
  },
  {
    method: "GET",
    path: "/api/admin/orders/{id}",
    url: () => `/api/admin/orders/${unknownId}`,
    expected: adminOnly(404),
  },
  {
    method: "GET",
    path: "/api/admin/orders/summary",
    url: () => `/api/admin/orders/summary`,
    expected: adminOnly(200),
  },
  { method: "GET", path: "/api/admin/orders.csv", url: () => `/api/admin/orders.csv`, expected: adminOnly(200) },
  {
    method: "GET",
    path: "/api/admin/vat-report",
    url: () => `/api/admin/vat-report?from=2026-10&months=2`,
    expected: adminOnly(200),
  },
  {
    method: "GET",
    path: "/api/admin/vat-report.csv",
    url: () => `/api/admin/vat-report.csv?from=2026-10`,
    expected: adminOnly(200),
  },
  {
    method: "GET",
    path: "/api/admin/delivery-costs",
    url: () => `/api/admin/delivery-costs?from=2026-01&to=2026-03`,
    expected: adminOnly(200),
  },
  {
    method: "GET",
    path: "/api/admin/delivery/boxes",
    url: () => `/api/admin/delivery/boxes`,
    expected: adminOnly(200),
  },
  {
    method: "DELETE",
    path: "/api/admin/delivery/boxes/{code}",
    url: () => `/api/admin/delivery/boxes/NONE`,
    expected: adminOnly(404),
  },
  {
    method: "PATCH",
    path: "/api/admin/orders/{id}/confirm-payment",
    url: () => `/api/admin/orders/${unknownId}/confirm-payment`,
    expected: adminOnly(404),
  },
  {
    method: "POST",
    path: "/api/admin/orders/{id}/cancel",
    url: () => `/api/admin/orders/${unknownId}/cancel`,
    body: () => ({ reason: "Customer phoned" }),
    expected: adminOnly(404),
  },
  {
    method: "POST",
    path: "/api/admin/orders/{id}/refund",
    url: () => `/api/admin/orders/${unknownId}/refund`,
    body: () => ({ amountCents: 1_000, reason: "Damaged", restock: false }),
    expected: adminOnly(404),
  },
  {
    method: "POST",
    path: "/api/admin/orders/{id}/refunds/record",
    url: () => `/api/admin/orders/${unknownId}/refunds/record`,
    body: () => ({
      amountCents: 1_000,
      reason: "Refunded in PayFast",
      restock: false,
      refundedOn: "2026-01-05",
      payfastReference: "PF-12345",
    }),
    expected: adminOnly(404),
  },
  {
    method: "GET",
    path: "/api/admin/packing-slips.pdf",
    url: () => "/api/admin/packing-slips.pdf?date=2026-01-05",
    expected: adminOnly(200),
  },
  { method: "GET", path: "/api/admin/returns", url: () => "/api/admin/returns", expected: adminOnly(200) },
  {
    method: "GET",
    path: "/api/admin/returns/register.csv",
    url: () => "/api/admin/returns/register.csv",
    expected: adminOnly(200),
  },
  ...(
    [
      ["accept", {}],
      ["decline", { reason: "Outside the window" }],
      ["receive", { restock: [] }],
      ["refund", {}],
      ["exchange", { note: "Sent another size" }],
      ["resolve", { outcome: "Apologised" }],
    ] as const
  ).map(
    ([action, body]): Route => ({
      method: "POST",
      path: `/api/admin/returns/{id}/${action}`,
      url: () => `/api/admin/returns/${unknownId}/${action}`,
      body: () => body,
      expected: adminOnly(404),
    }),
  ),
  {
    method: "POST",
    path: "/api/admin/orders/{id}/delivered",
    url: () => `/api/admin/orders/${unknownId}/delivered`,
    body: () => ({}),
    expected: adminOnly(404),
  },
  { method: "GET", path: "/api/admin/users", url: () => `/api/admin/users`, expected: adminOnly(200) },
  {
    method: "GET",
    path: "/api/admin/users/{id}",
    url: () => `/api/admin/users/${unknownId}`,
    expected: adminOnly(404),
  },
  {
    method: "GET",
    path: "/api/admin/users/{id}/orders",
    url: () => `/api/admin/users/${unknownId}/orders`,
    expected: adminOnly(404),
  },
  {
    method: "PATCH",
    path: "/api/admin/users/{id}",
    url: () => `/api/admin/users/${unknownId}`,
    body: () => ({ isAdmin: true }),
    expected: adminOnly(404),
  },
  { method: "GET", path: "/api/admin/audit", url: () => `/api/admin/audit`, expected: adminOnly(200) },
  { method: "GET", path: "/api/admin/dashboard", url: () => `/api/admin/dashboard`, expected: adminOnly(200) },
  {
    method: "GET",
    path: "/api/admin/launch-checklist",
    url: () => `/api/admin/launch-checklist`,
    expected: adminOnly(200),
  },
  {
    method: "PUT",
    path: "/api/admin/launch-checklist/{itemId}",
    url: () => `/api/admin/launch-checklist/no-such-duty`,
    body: () => ({ done: true }),
    expected: adminOnly(404),
  },
  {
    method: "GET",
    path: "/api/admin/launch-checklist.csv",
    url: () => `/api/admin/launch-checklist.csv`,
    expected: adminOnly(200),
  },
  {
    method: "PUT",
    path: "/api/users/{id}",
    url: () => `/api/users/${customer.id}`,
    body: () => ({
      fullName: "Thandi Mokoena",
      email: customer.email,
      phone: "082 555 0101",
      address: "12 Jacaranda Street",
      city: "Pretoria",
      zipCode: "0181",
    }),
    expected: selfOrAdmin,
  },
  {
    method: "GET",
    path: "/api/users/{id}/orders",
    url: () => `/api/users/${customer.id}/orders`,
    expected: selfOrAdmin,
  },
];

function headersFor(caller: Caller): Record<string, string> {
  switch (caller) {
    case "no session":
      return {};
    case "customer":
      return { cookie: customer.cookie, "x-user-id": customer.id };
    case "other customer":
      return { cookie: otherCustomer.cookie, "x-user-id": otherCustomer.id };
    case "admin":
      return { cookie: admin.cookie, "x-user-id": admin.id };
    case "customer forging the admin's x-user-id":
      return { cookie: customer.cookie, "x-user-id": admin.id };
  }
}

describe("access matrix", () => {
  for (const route of ROUTES) {
    describe(`${route.method} ${route.path}`, () => {
      for (const caller of CALLERS) {
        const expected = route.expected[caller];
        it(`answers ${expected} to ${caller}`, async () => {
          const body = route.body?.();
          const response = await t.app.inject({
            method: route.method,
            url: route.url(),
            headers: headersFor(caller),
            ...(body === undefined ? {} : { payload: body as object }),
          });
          expect(response.statusCode, response.body).toBe(expected);
          if (expected >= 400)
            expect(response.json()).toEqual({ message: expect.any(String), code: expect.any(String) });
        });
      }
    });
  }

  it("lets no caller but the admin create anything", async () => {
    const names = new Set<string>();
    for (const caller of CALLERS.filter((c) => c !== "admin")) {
      const name = uniqueName();
      names.add(name);
      const response = await t.app.inject({
        method: "POST",
        url: "/api/admin/categories",
        headers: headersFor(caller),
        payload: { name, description: "" },
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(401);
    }
    const { rows } = await t.pool.query<{ name: string }>("select name from categories where name = any($1)", [
      [...names],
    ]);
    expect(rows).toEqual([]);
  });

  it("checks access before the body, so a customer learns nothing from validation errors", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/admin/products",
      headers: headersFor("customer"),
      payload: { nonsense: true },
    });
    expect(response.statusCode).toBe(403);
    const other = await t.app.inject({
      method: "PUT",
      url: `/api/users/${customer.id}`,
      headers: headersFor("other customer"),
      payload: { nonsense: true },
    });
    expect(other.statusCode).toBe(403);
  });

  it("refuses a customer who sends no x-user-id on an admin route with 403, not 401", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/admin/orders",
      headers: { cookie: customer.cookie },
    });
    expect(response.statusCode).toBe(403);
  });
});
