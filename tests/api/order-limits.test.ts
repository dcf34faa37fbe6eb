import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimal } from "#domain/money.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { createOrderPayload } from "../helpers/orders.js";
import { stockOf } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

// The shop's defaults: 3 unpaid orders per account and per network, 10 create-order or cancel
// attempts a minute. Each test names its own client address (X-Forwarded-For, believed from
// loopback only), so each has its own network budget.
let t: TestApp;
let admin: LoggedInUser;
let addressCount = 0;
const freshAddress = () => `198.51.100.${++addressCount}`;

beforeAll(async () => {
  t = await buildTestApp({
    TRUST_PROXY: "127.0.0.1",
    UNPAID_ORDERS_PER_ACCOUNT: "3",
    UNPAID_ORDERS_PER_ADDRESS: "3",
    ORDER_RATE_LIMIT_PER_MINUTE: "10",
  });
  admin = await registerAndLogin(t, { admin: true });
});
afterAll(() => t.close());

interface TestProduct {
  id: string;
  name: string;
  priceCents: number;
}

/** A product of one size "M" (no digits in its name, so a refusal's figures are only counts). */
async function productWith(units: number, maxPerOrder?: number): Promise<TestProduct> {
  const name = `Hoard test pants ${"abcdefghij"[randomInt(10)]}${randomInt(1e9).toString(36).replace(/\d/g, "x")}`;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/admin/products",
    headers: admin.headers,
    payload: {
      name,
      category: "kids",
      price: centsToDecimal(9_999),
      image: "/images/products/kids-pull-up-pants.svg",
      sizes: ["M"],
      stock: { M: units },
      ...(maxPerOrder === undefined ? {} : { maxPerOrder }),
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { id: (response.json() as { id: string }).id, name, priceCents: 9_999 };
}

function buy(product: TestProduct, buyer: LoggedInUser, address: string, quantities: number[] = [1]) {
  return t.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: { ...buyer.headers, "x-forwarded-for": address },
    payload: createOrderPayload(
      buyer,
      quantities.map((quantity) => ({ ...product, size: "M", quantity })),
    ),
  });
}

function cancel(orderId: string, buyer: LoggedInUser, address: string) {
  return t.app.inject({
    method: "POST",
    url: `/api/orders/${orderId}/cancel`,
    headers: { ...buyer.headers, "x-forwarded-for": address },
  });
}

const unpaidOf = async (userId: string) =>
  Number(
    (await t.pool.query("select count(*) from orders where user_id = $1 and status = 'pending'", [userId])).rows[0]
      .count,
  );

/** Any figure above the public low-stock limit (5) in a refusal's message. */
const countAboveFive = (message: string) => message.match(/\d+/g)?.find((figure) => Number(figure) > 5);

describe("unpaid orders per account", () => {
  it("a script placing orders one after another holds no more than three, then gets a clear 409", async () => {
    const product = await productWith(100);
    const script = await registerAndLogin(t);
    const address = freshAddress();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await buy(product, script, address));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 409, 409, 409]);
    expect(answers[3]?.json()).toEqual({
      code: "TOO_MANY_UNPAID_ORDERS",
      message:
        "Your account already has as many unpaid orders as it may hold. Please pay or cancel one (My Account lists your orders), or wait for an unpaid one to expire, then try again.",
    });
    expect(await unpaidOf(script.user.id)).toBe(3);
    expect(await stockOf(t.db, product.id, "M")).toEqual({ quantity: 100, held: 3 });

    // Cancelling one frees its place; expiring one does too.
    const [first, second] = answers.map((answer) => answer.json().orderId as string);
    expect((await cancel(first as string, script, address)).statusCode).toBe(200);
    expect((await buy(product, script, address)).statusCode).toBe(200);
    await t.pool.query("update orders set created_at = now() - interval '2 hours' where id = $1", [second]);
    expect(await t.app.expireOrders()).toBeGreaterThanOrEqual(1);
    expect((await buy(product, script, address)).statusCode).toBe(200);
    expect(await unpaidOf(script.user.id)).toBe(3);
  });

  it("twenty orders sent at once by one account leave exactly three unpaid", async () => {
    const product = await productWith(100);
    const script = await registerAndLogin(t);
    const address = freshAddress();
    const answers = await Promise.all(Array.from({ length: 20 }, () => buy(product, script, address)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    // The rest are refused by the cap (409) or, past ten in the minute, by the rate limit (429).
    expect(statuses.filter((status) => status !== 200).every((status) => status === 409 || status === 429)).toBe(true);
    expect(await unpaidOf(script.user.id)).toBe(3);
    expect(await stockOf(t.db, product.id, "M")).toEqual({ quantity: 100, held: 3 });
  });
});

describe("unpaid orders per client address", () => {
  it("fresh sign-ups from one address hold three orders between them; another address is not affected", async () => {
    const product = await productWith(100);
    const address = freshAddress();
    const accounts = await Promise.all(Array.from({ length: 4 }, () => registerAndLogin(t)));
    const answers = [];
    for (const account of accounts) answers.push(await buy(product, account, address));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 409]);
    expect(answers[3]?.json()).toMatchObject({
      code: "TOO_MANY_UNPAID_ORDERS",
      message: expect.stringMatching(/^Your network already has as many unpaid orders as it may hold\./),
    });
    expect((await buy(product, accounts[3] as LoggedInUser, freshAddress())).statusCode).toBe(200);
  });

  it("counts an IPv6 /64 as one address", async () => {
    const product = await productWith(100);
    const accounts = await Promise.all(Array.from({ length: 4 }, () => registerAndLogin(t)));
    const answers = [];
    for (const [index, account] of accounts.entries()) {
      answers.push(await buy(product, account, `2001:db8:26:1::${index + 1}`));
    }
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 409]);
  });
});

describe("rate limit on create-order and cancel", () => {
  it("answers 429 with Retry-After after ten attempts in a minute, refused ones included", async () => {
    const soldOut = await productWith(0);
    const script = await registerAndLogin(t);
    const address = freshAddress();
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await buy(soldOut, script, address)).statusCode);
    expect(statuses).toEqual([...Array(10).fill(409), 429]);
    const limited = await buy(soldOut, script, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: "RATE_LIMITED",
      message: "Too many orders in a minute. Please wait a minute and try again.",
    });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("limits one address across accounts", async () => {
    const soldOut = await productWith(0);
    const address = freshAddress();
    const accounts = await Promise.all(Array.from({ length: 11 }, () => registerAndLogin(t)));
    const statuses = [];
    for (const account of accounts) statuses.push((await buy(soldOut, account, address)).statusCode);
    expect(statuses).toEqual([...Array(10).fill(409), 429]);
  });

  it("limits cancels", async () => {
    const script = await registerAndLogin(t);
    const address = freshAddress();
    const statuses = [];
    // Cancelling an order that is not there still counts: a script cannot probe for free.
    for (let i = 0; i < 11; i++) {
      statuses.push((await cancel("00000000-0000-4000-8000-000000000026", script, address)).statusCode);
    }
    expect(statuses).toEqual([...Array(10).fill(404), 429]);
  });
});

describe("packs per line", () => {
  it("takes 20 of a size, refuses 21 (also split over two lines) with LINE_LIMIT, and follows the product's own limit", async () => {
    const product = await productWith(1_000);
    const buyer = await registerAndLogin(t);
    const refused = await buy(product, buyer, freshAddress(), [21]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: "LINE_LIMIT",
      message: `You can order at most 20 of ${product.name} (M) per order. Please lower the quantity and try again.`,
    });
    expect((await buy(product, buyer, freshAddress(), [12, 9])).json().code).toBe("LINE_LIMIT");
    expect((await buy(product, buyer, freshAddress(), [20])).statusCode).toBe(200);

    const bulk = await productWith(1_000, 120);
    expect((await buy(bulk, buyer, freshAddress(), [120])).statusCode).toBe(200);
    expect((await buy(bulk, buyer, freshAddress(), [121])).json().code).toBe("LINE_LIMIT");
    expect(await stockOf(t.db, product.id, "M")).toEqual({ quantity: 1_000, held: 20 });
  });

  it("keeps a product's limit between 1 and 999 and shows it in the catalogue", async () => {
    const product = await productWith(5, 48);
    const listed = await t.app.inject({ method: "GET", url: "/api/admin/products", headers: admin.headers });
    expect((listed.json() as { id: string }[]).find((row) => row.id === product.id)).toMatchObject({ maxPerOrder: 48 });
    for (const maxPerOrder of [0, 1_000, 2.5]) {
      const response = await t.app.inject({
        method: "PUT",
        url: `/api/admin/products/${product.id}`,
        headers: admin.headers,
        payload: {
          name: product.name,
          category: "kids",
          price: "99.99",
          image: "/images/products/kids-pull-up-pants.svg",
          sizes: ["M"],
          maxPerOrder,
        },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe("VALIDATION_FAILED");
    }
  });
});

describe("what a refusal tells", () => {
  it("says 'Only a few left' above five and the count at five or fewer, and no refusal names a count above five", async () => {
    const product = await productWith(47, 999);
    const buyer = await registerAndLogin(t);
    const messages: string[] = [];
    const many = await buy(product, buyer, freshAddress(), [48]);
    expect(many.json()).toEqual({
      code: "OUT_OF_STOCK",
      message: `Only a few left of ${product.name} (M). Please update your cart and try again.`,
    });
    messages.push(many.json().message);

    const few = await productWith(4);
    const short = await buy(few, buyer, freshAddress(), [5]);
    expect(short.json().message).toBe(`Only 4 left of ${few.name} (M). Please update your cart and try again.`);
    messages.push(short.json().message);

    // A script probing quantities around what is left learns only "a few".
    const probe = await productWith(47, 999);
    const script = await registerAndLogin(t);
    for (let quantity = 44; quantity <= 50; quantity++) {
      const answer = await buy(probe, script, freshAddress(), [quantity]);
      if (answer.statusCode !== 200) messages.push(answer.json().message);
      // Each order that went through is cancelled, so the cap is not what answers.
      else await cancel(answer.json().orderId, script, freshAddress());
    }
    const limited = await productWith(3);
    for (const account of [buyer, script]) {
      const answer = await buy(limited, account, freshAddress(), [6]);
      messages.push(answer.json().message);
    }
    expect(messages.length).toBeGreaterThanOrEqual(4);
    expect(messages.filter(countAboveFive)).toEqual([]);
  });
});

describe("admin: who holds what, and disabling an account", () => {
  it("lists unpaid orders by customer and by network, biggest holders first", async () => {
    const product = await productWith(100);
    const hoarder = await registerAndLogin(t);
    const address = freshAddress();
    for (const quantity of [20, 20, 5]) expect((await buy(product, hoarder, address, [quantity])).statusCode).toBe(200);
    const answer = await t.app.inject({ method: "GET", url: "/api/admin/holders", headers: admin.headers });
    expect(answer.statusCode).toBe(200);
    const { customers, networks } = answer.json() as {
      customers: { userId: string; unitsHeld: number }[];
      networks: { network: string; unpaidOrders: number; accounts: number }[];
    };
    const units = customers.map((row) => row.unitsHeld);
    expect(units).toEqual([...units].sort((a, b) => b - a));
    expect(customers.find((row) => row.userId === hoarder.user.id)).toMatchObject({
      userId: hoarder.user.id,
      username: hoarder.user.username,
      unpaidOrders: 3,
      unitsHeld: 45,
      // The order of 5 (R499.95) pays the R75 delivery fee.
      total: centsToDecimal(45 * 9_999 + 7_500),
      networks: [address],
      disabled: false,
    });
    expect(networks).toContainEqual({ network: address, unpaidOrders: 3, accounts: 1 });
    // Customers may not look.
    const refused = await t.app.inject({ method: "GET", url: "/api/admin/holders", headers: hoarder.headers });
    expect(refused.statusCode).toBe(403);
  });

  it("disabling ends the account's sessions, releases its holds, refuses its logins, and is audited", async () => {
    const product = await productWith(30);
    const hoarder = await registerAndLogin(t);
    const address = freshAddress();
    for (let i = 0; i < 2; i++) expect((await buy(product, hoarder, address, [10])).statusCode).toBe(200);
    expect(await stockOf(t.db, product.id, "M")).toEqual({ quantity: 30, held: 20 });

    const disabled = await t.app.inject({
      method: "POST",
      url: `/api/admin/users/${hoarder.user.id}/disable`,
      headers: admin.headers,
      payload: { reason: "Holding the whole drop" },
    });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toEqual({ id: hoarder.user.id, disabled: true, ordersCancelled: 2, sessionsEnded: 1 });
    expect(await stockOf(t.db, product.id, "M")).toEqual({ quantity: 30, held: 0 });
    expect(await unpaidOf(hoarder.user.id)).toBe(0);

    // The old session is gone; the right password no longer signs in.
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: hoarder.headers });
    expect(me.statusCode).toBe(401);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: hoarder.user.username, password: hoarder.password },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().code).toBe("ACCOUNT_DISABLED");
    // A wrong password is answered as for anyone: the refusal tells a guesser nothing.
    const guess = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: hoarder.user.username, password: "not-the-password" },
    });
    expect(guess.statusCode).toBe(401);

    const { rows } = await t.pool.query(
      "select action, actor_id, subject_id, after from audit_log where subject_id = $1 or subject_id in (select id::text from orders where user_id = $2) order by id",
      [hoarder.user.id, hoarder.user.id],
    );
    expect(rows.map((row) => row.action)).toEqual(
      expect.arrayContaining(["user.disabled", "order.cancelled", "order.cancelled"]),
    );
    expect(rows.find((row) => row.action === "user.disabled")).toMatchObject({
      actor_id: admin.user.id,
      after: { disabled: true, sessionsEnded: 1, reason: "Holding the whole drop" },
    });

    const customer = await t.app.inject({
      method: "GET",
      url: `/api/admin/users/${hoarder.user.id}`,
      headers: admin.headers,
    });
    expect(customer.json()).toMatchObject({ disabled: true });

    // Enabled again, the account signs in.
    const enabled = await t.app.inject({
      method: "POST",
      url: `/api/admin/users/${hoarder.user.id}/enable`,
      headers: admin.headers,
    });
    expect(enabled.json()).toMatchObject({ disabled: false });
    const again = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { username: hoarder.user.username, password: hoarder.password },
    });
    expect(again.statusCode).toBe(200);
  });

  it("refuses an admin disabling their own account, and an unknown account", async () => {
    const self = await t.app.inject({
      method: "POST",
      url: `/api/admin/users/${admin.user.id}/disable`,
      headers: admin.headers,
      payload: {},
    });
    expect(self.statusCode).toBe(409);
    expect(self.json().code).toBe("CANNOT_DISABLE_SELF");
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/admin/users/00000000-0000-4000-8000-000000000026/disable",
      headers: admin.headers,
      payload: {},
    });
    expect(unknown.statusCode).toBe(404);
  });
});
