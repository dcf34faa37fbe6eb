import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderNumber } from "#domain/order-status.js";
import { ORDER_SEARCH_TEXT } from "#server/orders/admin-queries.js";
import { insertOrder, signIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";

interface WireOrder {
  id: string;
  status: string;
  createdAt: string;
  customerEmail: string;
  items: { name: string; quantity: number; price: string }[];
}
interface Page {
  orders: WireOrder[];
  nextCursor: string | null;
}

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await buildTestApp();
  ({ cookie } = await signInAsAdmin(t));
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: "GET", url, headers: { cookie } });
async function page(url: string): Promise<Page> {
  const response = await get(url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Page;
}
async function ids(url: string): Promise<string[]> {
  return (await page(url)).orders.map((order) => order.id);
}
const line = (name: string, quantity: number, unitPriceCents: number) => ({
  name,
  size: "Size 3",
  quantity,
  unitPriceCents,
});
const day = (iso: string) => new Date(iso);

// The first describe runs on an empty order book: the file's database is its own.
describe("GET /api/admin/orders pages", () => {
  it("walks every order newest first, none missed or repeated, while new orders arrive between pages", async () => {
    const placed: string[] = [];
    for (let index = 0; index < 20; index++) {
      placed.push(await insertOrder(t, { createdAt: new Date(Date.UTC(2025, 5, 1, 8, index)) }));
    }
    // Five placed in the same microsecond: the id breaks the tie, and a page boundary falls among them.
    const tied = new Date(Date.UTC(2025, 5, 2, 9, 0, 0, 123));
    for (let index = 0; index < 5; index++) placed.push(await insertOrder(t, { createdAt: tied }));
    // Microseconds that a JavaScript Date cannot hold: the cursor must keep them.
    await t.pool.query(
      "update orders set created_at = created_at + interval '456 microseconds' where created_at = $1",
      [tied],
    );

    const seen: string[] = [];
    const arrived: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer: Page = await page(
        `/api/admin/orders?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      seen.push(...answer.orders.map((order) => order.id));
      const times = answer.orders.map((order) => Date.parse(order.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      cursor = answer.nextCursor;
      pages++;
      arrived.push(await insertOrder(t, { customerEmail: `arrived-${pages}@example.co.za` }));
    } while (cursor);

    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...placed].sort());
    expect(seen.some((id) => arrived.includes(id))).toBe(false);
    const { rows } = await t.pool.query<{ id: string }>(
      "select id from orders where id = any($1) order by created_at desc, id desc",
      [placed],
    );
    expect(seen).toEqual(rows.map((row) => row.id));
  });

  it("answers 50 orders by default and at most 200", async () => {
    const { rows } = await t.pool.query<{ n: number }>("select count(*)::int as n from orders");
    for (let index = rows[0]?.n ?? 0; index < 60; index++) await insertOrder(t);
    const first = await page("/api/admin/orders");
    expect(first.orders).toHaveLength(50);
    expect(first.nextCursor).toEqual(expect.any(String));
    expect((await page("/api/admin/orders?limit=200")).orders.length).toBeGreaterThanOrEqual(60);
  });
});

describe("GET /api/admin/orders filters", () => {
  it("keeps the orders of one status, and of a date range (calendar dates in South African time)", async () => {
    const email = `range-${randomUUID().slice(0, 8)}@example.co.za`;
    // 21:30 UTC on 31 October is 23:30 on the 31st in South Africa; 22:30 UTC is already 1 November there.
    const october = await insertOrder(t, { customerEmail: email, createdAt: day("2024-10-31T21:30:00Z") });
    const novemberFirst = await insertOrder(t, {
      customerEmail: email,
      status: "completed",
      createdAt: day("2024-10-31T22:30:00Z"),
    });
    const novemberLast = await insertOrder(t, {
      customerEmail: email,
      status: "processed",
      createdAt: day("2024-11-30T21:59:00Z"),
    });
    const december = await insertOrder(t, { customerEmail: email, createdAt: day("2024-11-30T22:00:00Z") });
    const q = `&q=${encodeURIComponent(email)}`;

    expect(await ids(`/api/admin/orders?from=2024-11-01&to=2024-11-30${q}`)).toEqual([novemberLast, novemberFirst]);
    expect(await ids(`/api/admin/orders?from=2024-11-01T00:00:00%2B02:00&to=2024-12-01T00:00:00%2B02:00${q}`)).toEqual([
      novemberLast,
      novemberFirst,
    ]);
    expect(await ids(`/api/admin/orders?to=2024-10-31${q}`)).toEqual([october]);
    expect(await ids(`/api/admin/orders?from=2024-12-01${q}`)).toEqual([december]);
    expect(await ids(`/api/admin/orders?status=processed${q}`)).toEqual([novemberLast]);
    expect(await ids(`/api/admin/orders?status=pending&from=2024-11-01${q}`)).toEqual([december]);
  });
});

describe("GET /api/admin/orders search", () => {
  it("finds an order by its number, with or without #, in any case, and by part of it", async () => {
    const id = await insertOrder(t);
    const number = orderNumber(id);
    expect(await ids(`/api/admin/orders?q=${number}`)).toEqual([id]);
    expect(await ids(`/api/admin/orders?q=${encodeURIComponent(`#${number.toLowerCase()}`)}`)).toEqual([id]);
    expect(await ids(`/api/admin/orders?q=${number.slice(1, 7)}`)).toContain(id);
  });

  it("finds orders by part of the customer's e-mail, name or phone, case-insensitively", async () => {
    const tag = randomUUID().slice(0, 6);
    const byEmail = await insertOrder(t, { customerEmail: `Lindiwe.${tag}@Example.co.za` });
    const byName = await insertOrder(t, { deliveryName: `Pieter van der ${tag}merwe` });
    const byPhone = await insertOrder(t, {
      deliveryPhone: `071 ${tag.replace(/\D/g, "7").slice(0, 3)} 9${tag.length}42`,
    });
    const phone = `071 ${tag.replace(/\D/g, "7").slice(0, 3)} 9${tag.length}42`;

    expect(await ids(`/api/admin/orders?q=lindiwe.${tag.toUpperCase()}`)).toEqual([byEmail]);
    expect(await ids(`/api/admin/orders?q=${encodeURIComponent(`VAN DER ${tag}`)}`)).toEqual([byName]);
    expect(await ids(`/api/admin/orders?q=${encodeURIComponent(phone.slice(0, 7))}`)).toContain(byPhone);
    expect(await ids(`/api/admin/orders?q=${phone.replace(/\D/g, "")}`)).toEqual([byPhone]);
  });

  it("takes % and _ in a search literally", async () => {
    const id = await insertOrder(t, { customerEmail: "percent_100%@example.co.za" });
    expect(await ids("/api/admin/orders?q=t_100%25")).toEqual([id]);
    expect(await ids("/api/admin/orders?q=%25%25%25")).toEqual([]);
  });

  it("searches with an expression the trigram index serves (EXPLAIN names orders_search_trgm_idx)", async () => {
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(sql`explain select id from orders where ${ORDER_SEARCH_TEXT} like '%mokoena%'`);
    });
    expect(JSON.stringify(plan.rows)).toContain("orders_search_trgm_idx");
  });
});

describe("GET /api/admin/orders/preparing", () => {
  it("pages and searches the pending orders only", async () => {
    const email = `waiting-${randomUUID().slice(0, 8)}@example.co.za`;
    const pending = [await insertOrder(t, { customerEmail: email }), await insertOrder(t, { customerEmail: email })];
    await insertOrder(t, { customerEmail: email, status: "completed" });
    const first = await page(`/api/admin/orders/preparing?limit=1&q=${email}`);
    expect(first.orders.map((order) => order.status)).toEqual(["pending"]);
    const second = await page(`/api/admin/orders/preparing?limit=1&q=${email}&cursor=${first.nextCursor}`);
    expect(second.nextCursor).toBeNull();
    expect([...first.orders, ...second.orders].map((order) => order.id).sort()).toEqual([...pending].sort());
  });
});

describe("GET /api/admin/orders/summary", () => {
  it("counts a range's orders by status and adds up what paid and shipped orders brought in", async () => {
    const at = (status: "pending" | "completed" | "processed" | "cancelled", cents: number) =>
      insertOrder(t, { status, createdAt: day("2023-03-15T10:00:00Z"), lines: [line("Pack", 1, cents)] });
    await at("pending", 60_000);
    await at("completed", 60_000);
    await at("processed", 10_000);
    await at("cancelled", 60_000);
    const response = await get("/api/admin/orders/summary?from=2023-03-01&to=2023-03-31");
    expect(response.statusCode).toBe(200);
    // R600.00 (free delivery) + R100.00 and R75.00 delivery.
    expect(response.json()).toEqual({ total: 4, pending: 1, paid: 1, shipped: 1, cancelled: 1, revenue: "775.00" });
  });
});

describe("GET /api/admin/orders/{id}", () => {
  it("shows the order's lines, customer, PayFast's notifications with their outcome, and its e-mails", async () => {
    const customer = await signIn(t);
    const id = await insertOrder(t, {
      userId: customer.id,
      customerEmail: customer.email,
      lines: [line("Snug & Dry Pants", 2, 18_990), line("Wipes", 1, 4_999)],
    });
    await t.pool.query(
      `insert into payfast_itns (order_id, pf_payment_id, payment_status, amount_gross, source_ip, outcome, reason, raw_body, received_at)
       values ($1, '1001', 'COMPLETE', '1.00', '127.0.0.1', 'wrong_amount', 'amount_gross 1.00 is not the order total', 'x', now() - interval '1 minute'),
              ($1, null, 'FAILED', '504.79', '127.0.0.1', 'failed', null, 'x', now())`,
      [id],
    );
    const paid = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${id}/confirm-payment`,
      headers: { cookie },
    });
    expect(paid.statusCode).toBe(200);

    const response = await get(`/api/admin/orders/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      order: {
        id,
        status: "completed",
        total: "504.79",
        items: [
          { name: "Snug & Dry Pants", quantity: 2, price: "189.90" },
          { name: "Wipes", quantity: 1, price: "49.99" },
        ],
        deliveryName: "Thandi Mokoena",
      },
      customer: { id: customer.id, username: customer.username, email: customer.email },
      paidBy: "admin",
      shippedAt: null,
      payments: [
        {
          outcome: "wrong_amount",
          amountGross: "1.00",
          pfPaymentId: "1001",
          reason: expect.stringContaining("amount"),
        },
        { outcome: "failed", paymentStatus: "FAILED", via: "itn" },
      ],
      emails: [{ kind: "order_confirmation", to: customer.email, status: expect.any(String) }],
    });
  });

  it("answers a guest's order with no customer, and 404 or 400 for an unknown or malformed id", async () => {
    const id = await insertOrder(t);
    expect((await get(`/api/admin/orders/${id}`)).json()).toMatchObject({ customer: null, payments: [], emails: [] });
    const unknown = await get(`/api/admin/orders/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: "Order not found", code: "NOT_FOUND" });
    expect((await get("/api/admin/orders/not-an-id")).statusCode).toBe(400);
  });
});

describe("GET /api/admin/orders.csv", () => {
  it("streams the range's orders, oldest first, with the figures an accountant needs", async () => {
    const first = await insertOrder(t, {
      status: "processed",
      createdAt: day("2022-07-01T06:15:00Z"),
      deliveryName: '=HYPERLINK("x")',
      customerEmail: "first@example.co.za",
      lines: [line("Pants", 2, 18_990)],
    });
    const second = await insertOrder(t, {
      status: "cancelled",
      createdAt: day("2022-07-31T21:59:00Z"),
      customerEmail: "second@example.co.za",
      lines: [{ ...line("Pads", 5, 11_999), vatClass: "zero" }, line("Wipes", 1, 4_999)],
    });
    await insertOrder(t, { createdAt: day("2022-07-31T22:00:00Z") });
    await insertOrder(t, { createdAt: day("2022-06-30T21:59:00Z") });

    const response = await get("/api/admin/orders.csv?from=2022-07-01&to=2022-07-31");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe('attachment; filename="orders-2022-07-01-to-2022-07-31.csv"');
    const records = parse(response.body, { columns: true }) as Record<string, string>[];
    expect(records).toEqual([
      {
        "Order number": orderNumber(first),
        "Date (SA time)": "2022-07-01 08:15",
        Customer: '\'=HYPERLINK("x")',
        "E-mail": "first@example.co.za",
        "Subtotal (R)": "379.80",
        "Discount (R)": "0.00",
        "Delivery (R)": "75.00",
        "Zero-rated (R)": "0.00",
        "Standard-rated excl. VAT (R)": "395.48",
        // Per line, rounded half up: 15/115 of R379.80 = R49.539 (R49.54), of R75.00 = R9.783 (R9.78).
        "VAT at standard rate (R)": "59.32",
        "Standard rate": "15%",
        "Total (R)": "454.80",
        Status: "Shipped",
        "Paid by": "PayFast",
      },
      {
        "Order number": orderNumber(second),
        "Date (SA time)": "2022-07-31 23:59",
        Customer: "Thandi Mokoena",
        "E-mail": "second@example.co.za",
        "Subtotal (R)": "649.94",
        "Discount (R)": "0.00",
        "Delivery (R)": "0.00",
        // The pads are zero-rated; only the wipes carry VAT: 15/115 of R49.99 = R6.520.
        "Zero-rated (R)": "599.95",
        "Standard-rated excl. VAT (R)": "43.47",
        "VAT at standard rate (R)": "6.52",
        "Standard rate": "15%",
        "Total (R)": "649.94",
        Status: "Cancelled",
        "Paid by": "",
      },
    ]);
  });

  it("answers only the header for a range with no orders", async () => {
    const response = await get("/api/admin/orders.csv?from=1999-01-01&to=1999-01-31");
    expect(response.statusCode).toBe(200);
    expect(parse(response.body)).toEqual([
      [
        "Order number",
        "Date (SA time)",
        "Customer",
        "E-mail",
        "Subtotal (R)",
        "Discount (R)",
        "Delivery (R)",
        "Zero-rated (R)",
        "Standard-rated excl. VAT (R)",
        "VAT at standard rate (R)",
        "Standard rate",
        "Total (R)",
        "Status",
        "Paid by",
      ],
    ]);
  });
});

describe("bad inputs", () => {
  it.each([
    ["/api/admin/orders?cursor=nonsense", /cursor/],
    [`/api/admin/orders?cursor=${Buffer.from("12:not-a-uuid").toString("base64url")}`, /cursor/],
    [`/api/admin/orders?cursor=${"A".repeat(300)}`, /cursor/],
    ["/api/admin/orders?limit=0", /limit/],
    ["/api/admin/orders?limit=201", /limit/],
    ["/api/admin/orders?limit=ten", /limit/],
    ["/api/admin/orders?limit=1.5", /limit/],
    ["/api/admin/orders?status=shipped", /status/],
    ["/api/admin/orders?q=a", /q/],
    [`/api/admin/orders?q=${"a".repeat(101)}`, /q/],
    ["/api/admin/orders?from=2025-02-30", /from/],
    ["/api/admin/orders?from=yesterday", /from/],
    ["/api/admin/orders?to=2025-11-01T10:00", /to/],
    ["/api/admin/orders?from=2025-11-02&to=2025-11-01", /from/],
    ["/api/admin/orders/preparing?cursor=%00", /cursor/],
    ["/api/admin/orders/summary?from=31-12-2024", /from/],
    ["/api/admin/orders.csv?to=2025-13-01", /to/],
    ["/api/admin/orders.csv?from=2025-11-02&to=2025-11-01", /from/],
  ])("refuses %s with 400 and a code", async (url, field) => {
    const before = await t.pool.query("select count(*)::int as n, max(created_at) as newest from orders");
    const response = await get(url);
    expect(response.statusCode).toBe(400);
    const body = response.json() as { message: string; code: string };
    expect(body.code).toBe("VALIDATION_FAILED");
    expect(body.message).toMatch(field);
    expect((await t.pool.query("select count(*)::int as n, max(created_at) as newest from orders")).rows).toEqual(
      before.rows,
    );
  });
});
