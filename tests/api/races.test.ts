import { randomBytes, randomInt } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimal } from "#domain/money.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { completeItn as signedItn } from "../helpers/payfast.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

/**
 * Races: many copies of one request at once must do the thing once. Each burst is started
 * together (Promise.all over app.inject), so the handlers interleave on the database.
 */

/** Stands in for PayFast's /eng/query/validate: answers VALID to everything, after a short delay. */
const validator = http.createServer((request, response) => {
  request.resume();
  // A few milliseconds of "network", so the copies overtake each other between the checks and the update.
  request.on("end", () => setTimeout(() => response.writeHead(200, { "content-type": "text/plain" }).end("VALID"), 5));
});

let t: TestApp;
let shopper: LoggedInUser;
let admin: LoggedInUser;

beforeAll(async () => {
  await new Promise<void>((resolve) => validator.listen(0, "127.0.0.1", resolve));
  const { port } = validator.address() as AddressInfo;
  t = await buildTestApp({ PAYFAST_VALIDATE_URL: `http://127.0.0.1:${port}/eng/query/validate` });
  shopper = await registerAndLogin(t);
  admin = await registerAndLogin(t, { admin: true });
});

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => validator.close(resolve));
});

/** A pending order made through POST /api/create-order, as a shopper makes one. */
async function placeOrder(): Promise<{ id: string; total: string }> {
  // Each size has its own price (size_prices, cents; sizes left out cost the product's price).
  const { rows } = await t.pool.query<{ id: string; price_cents: number; size: string }>(
    `select products.id, coalesce((products.size_prices ->> product_stock.size)::int, products.price_cents) as price_cents,
       product_stock.size from products
     join product_stock on product_stock.product_id = products.id and product_stock.quantity > product_stock.held
     order by products.name, product_stock.size limit 1`,
  );
  const product = rows[0];
  if (!product) throw new Error("no seeded product");
  const subtotal = product.price_cents;
  const delivery = subtotal >= 50_000 ? 0 : 7_500;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: shopper.headers,
    payload: {
      subtotal: subtotal / 100,
      deliveryFee: delivery / 100,
      total: (subtotal + delivery) / 100,
      items: [{ id: product.id, size: product.size, quantity: 1, price: subtotal / 100 }],
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
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { id: (response.json() as { orderId: string }).orderId, total: centsToDecimal(subtotal + delivery) };
}

/** A valid COMPLETE ITN for the order, as PayFast posts it. */
function completeItn(order: { id: string; total: string }, pfPaymentId = String(randomInt(1_000_000, 9_999_999))) {
  return signedItn(order.id, order.total, pfPaymentId, shopper.user.email, t.app.config.payfast);
}

function notify(body: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/payfast/notify",
    remoteAddress: "127.0.0.1",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: body,
  });
}

async function paymentRecord(orderId: string) {
  const { rows } = await t.pool.query<{
    status: string;
    paid_by: string | null;
    paid_at: Date | null;
    pf_payment_id: string | null;
  }>("select status, paid_by, paid_at, pf_payment_id from orders where id = $1", [orderId]);
  const { rows: itns } = await t.pool.query<{ outcome: string }>(
    "select outcome from payfast_itns where order_id = $1",
    [orderId],
  );
  return { order: rows[0], outcomes: itns.map((row) => row.outcome) };
}

const count = (values: readonly unknown[], value: unknown) => values.filter((item) => item === value).length;

describe("races", () => {
  it("marks the order paid exactly once when 50 copies of one valid ITN arrive at once", async () => {
    const order = await placeOrder();
    const body = completeItn(order);

    const answers = await Promise.all(Array.from({ length: 50 }, () => notify(body)));

    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const { order: paid, outcomes: recorded } = await paymentRecord(order.id);
    expect(count(recorded, "duplicate")).toBe(49);
    expect(paid).toMatchObject({ status: "completed", paid_by: "itn" });
    expect(paid?.paid_at).toBeInstanceOf(Date);
    expect(count(recorded, "accepted")).toBe(1);
    expect(recorded).toHaveLength(50);

    // paid_at was set once: later copies change nothing.
    await Promise.all(Array.from({ length: 10 }, () => notify(body)));
    const again = await paymentRecord(order.id);
    expect(again.order?.paid_at?.getTime()).toBe(paid?.paid_at?.getTime());
    expect(count(again.outcomes, "accepted")).toBe(1);
  });

  it("books one of 50 different payments for one order and flags the other 49 as paid twice", async () => {
    const order = await placeOrder();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => notify(completeItn(order, `77${index}`))),
    );

    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const { order: paid, outcomes } = await paymentRecord(order.id);
    expect(paid).toMatchObject({ status: "completed", paid_by: "itn" });
    expect(count(outcomes, "accepted")).toBe(1);
    expect(count(outcomes, "paid_twice")).toBe(49);
  });

  it("lets either the ITN or the admin's confirmation move an order to paid, never both, when they arrive together", async () => {
    for (let round = 0; round < 5; round++) {
      const order = await placeOrder();
      const body = completeItn(order);
      const [itnAnswers, confirmations] = await Promise.all([
        Promise.all(Array.from({ length: 10 }, () => notify(body))),
        Promise.all(
          Array.from({ length: 10 }, () =>
            t.app.inject({
              method: "PATCH",
              url: `/api/admin/orders/${order.id}/confirm-payment`,
              headers: admin.headers,
            }),
          ),
        ),
      ]);
      const confirmed = confirmations.filter((answer) => answer.statusCode === 200).length;
      for (const answer of confirmations) expect([200, 409]).toContain(answer.statusCode);
      for (const answer of itnAnswers) expect(answer.statusCode, answer.body).toBe(200);
      const { order: paid, outcomes } = await paymentRecord(order.id);
      const byItn = paid?.paid_by === "itn" ? 1 : 0;
      expect(byItn + confirmed, `round ${round}: one move to paid in all`).toBe(1);
      expect(paid?.status).toBe("completed");
      // Whichever won, the one PayFast payment is booked once, as this order's payment.
      expect(count(outcomes, "accepted")).toBe(1);
      expect(count(outcomes, "duplicate")).toBe(9);
      expect(paid?.pf_payment_id).toBe(new URLSearchParams(body).get("pf_payment_id"));
    }
  });

  it("makes one transition of 50 concurrent status changes on one order and refuses the rest with 409", async () => {
    const order = await placeOrder();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.app.inject({
          method: "PATCH",
          url: `/api/admin/orders/${order.id}/status`,
          headers: admin.headers,
          payload: { status: "completed" },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(count(statuses, 200)).toBe(1);
    expect(count(statuses, 409)).toBe(49);
    for (const answer of answers.filter((a) => a.statusCode === 409)) {
      expect(answer.json()).toEqual({ message: expect.any(String), code: "ORDER_STATUS_CONFLICT" });
    }
    const { order: paid } = await paymentRecord(order.id);
    expect(paid).toMatchObject({ status: "completed", paid_by: "admin" });
  });

  it("ships an order once when 50 admins press Mark as Shipped together", async () => {
    const order = await placeOrder();
    await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${order.id}/confirm-payment`,
      headers: admin.headers,
    });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.app.inject({
          method: "PATCH",
          url: `/api/admin/orders/${order.id}/status`,
          headers: admin.headers,
          payload: { status: "processed" },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(count(statuses, 200)).toBe(1);
    expect(count(statuses, 409)).toBe(49);
    const { rows } = await t.pool.query<{ status: string; shipped_at: Date | null }>(
      "select status, shipped_at from orders where id = $1",
      [order.id],
    );
    expect(rows[0]?.status).toBe("processed");
    expect(rows[0]?.shipped_at).toBeInstanceOf(Date);
  });

  it("makes one account of two concurrent registrations of one username, answering the other 409", async () => {
    for (let round = 0; round < 5; round++) {
      const username = `racer_${randomBytes(4).toString("hex")}`;
      const register = (email: string) =>
        t.app.inject({
          method: "POST",
          url: "/api/auth/register",
          payload: { username, email, password: "a long enough password", fullName: "Race Runner" },
        });
      const answers = await Promise.all([
        register(`${username}@example.co.za`),
        register(`${username}.2@example.co.za`),
      ]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses, answers.map((answer) => answer.body).join("\n")).toEqual([201, 409]);
      const conflict = answers.find((answer) => answer.statusCode === 409);
      expect(conflict?.json()).toEqual({ message: expect.any(String), code: "USERNAME_TAKEN" });
      const { rows } = await t.pool.query("select id from users where lower(username) = lower($1)", [username]);
      expect(rows).toHaveLength(1);
    }
  });

  it("makes one account of ten concurrent registrations of one e-mail under different usernames", async () => {
    const email = `racer_${randomBytes(4).toString("hex")}@example.co.za`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        t.app.inject({
          method: "POST",
          url: "/api/auth/register",
          payload: {
            username: `racer_${index}_${randomBytes(3).toString("hex")}`,
            email,
            password: "a long enough password",
            fullName: "Race Runner",
          },
        }),
      ),
    );
    // A taken address is answered as a new sign-up (docs/decisions/041), the race's losers too.
    const statuses = answers.map((answer) => answer.statusCode);
    expect(count(statuses, 201)).toBe(10);
    const { rows } = await t.pool.query("select id from users where lower(email) = lower($1)", [email]);
    expect(rows).toHaveLength(1);
  });

  it("counts 30 simultaneous failed logins exactly: 10 reach the password check, 20 answer 429", async () => {
    const limited = await buildTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: "10" });
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, () =>
          limited.app.inject({
            method: "POST",
            url: "/api/auth/login",
            remoteAddress: "203.0.113.7",
            payload: { username: "nobody-at-all", password: "not the password" },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(count(statuses, 401)).toBe(10);
      expect(count(statuses, 429)).toBe(20);
    } finally {
      await limited.close();
    }
  });
});
