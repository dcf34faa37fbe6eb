import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELIVERY_INSTRUCTIONS_MAX } from "#domain/limits.js";
import { orderNumber } from "#domain/order-status.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import type { TestApp } from "../helpers/app.js";
import { createOrderPayload, type TestCartLine } from "../helpers/orders.js";
import { pdfText } from "../helpers/pdf.js";
import { buildListeningApp, payOnEmulator, stockedLine } from "../helpers/refunds.js";
import { setStock } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;
let line: TestCartLine;

beforeAll(async () => {
  t = await buildListeningApp();
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t);
  line = await stockedLine(t, 1);
  await setStock(t.db, line.id, line.size, 1_000);
});
afterAll(() => t?.close());

const flat = (text: string) => text.replace(/\s+/g, " ");

const fullAddress = {
  address: "12 Jacaranda Street",
  complex: "Unit 4, Jacaranda Court",
  suburb: "Hatfield",
  city: "Pretoria",
  province: "Gauteng",
  zipCode: "0083",
  deliveryInstructions: "Gate code 4455, leave with security",
  altPhone: "012 555 0102",
};

function createOrder(deliveryChanges: Record<string, unknown>, drop: string[] = []) {
  const payload = createOrderPayload(shopper, [line]);
  const deliveryInfo: Record<string, unknown> = { ...payload.deliveryInfo, ...deliveryChanges };
  for (const field of drop) delete deliveryInfo[field];
  return t.app.inject({
    method: "POST",
    url: "/api/create-order",
    headers: shopper.headers,
    payload: { ...payload, deliveryInfo },
  });
}

const countOrders = async () =>
  (await t.pool.query<{ n: number }>("select count(*)::int as n from orders")).rows[0]?.n ?? 0;

/** The answer is a 400 naming the field, and no order was written. */
async function expectRefused(changes: Record<string, unknown>, field: string, drop: string[] = []) {
  const before = await countOrders();
  const response = await createOrder(changes, drop);
  expect(response.statusCode, JSON.stringify(changes)).toBe(400);
  expect(response.json()).toEqual({ message: expect.stringContaining(field), code: "VALIDATION_FAILED" });
  expect(await countOrders()).toBe(before);
}

describe("the delivery address at checkout", () => {
  it("stores the suburb, complex, instructions and other number and shows them on the order", async () => {
    const response = await createOrder(fullAddress);
    expect(response.statusCode).toBe(200);
    const { orderId } = response.json() as { orderId: string };

    const mine = await t.app.inject({ method: "GET", url: `/api/orders/${orderId}`, headers: shopper.headers });
    expect(mine.json()).toMatchObject({
      deliveryAddress: "12 Jacaranda Street",
      deliveryComplex: "Unit 4, Jacaranda Court",
      deliverySuburb: "Hatfield",
      deliveryCity: "Pretoria",
      deliveryProvince: "Gauteng",
      deliveryZipCode: "0083",
      deliveryInstructions: "Gate code 4455, leave with security",
      deliveryAltPhone: "012 555 0102",
    });
    const adminView = await t.app.inject({
      method: "GET",
      url: `/api/admin/orders/${orderId}`,
      headers: { cookie: admin.cookie },
    });
    expect(adminView.body).toContain("Gate code 4455, leave with security");
    expect(adminView.body).toContain("Hatfield");
  });

  it("accepts delivery instructions of 200 characters and refuses 201", async () => {
    const edge = "g".repeat(DELIVERY_INSTRUCTIONS_MAX);
    expect(DELIVERY_INSTRUCTIONS_MAX).toBe(200);
    const accepted = await createOrder({ deliveryInstructions: edge });
    expect(accepted.statusCode).toBe(200);
    const { orderId } = accepted.json() as { orderId: string };
    const stored = await t.pool.query("select delivery_instructions from orders where id = $1", [orderId]);
    expect(stored.rows[0]?.delivery_instructions).toBe(edge);
    await expectRefused({ deliveryInstructions: `${edge}g` }, "deliveryInstructions must be at most 200 characters");
  });

  it("takes a four-digit postal code, leading zero kept, and refuses any other", async () => {
    expect((await createOrder({ zipCode: "0001" })).statusCode).toBe(200);
    expect((await createOrder({ zipCode: " 9999 " })).statusCode).toBe(200);
    for (const zipCode of ["181", "01811", "01a1", "12 34", "abcd", ""]) {
      await expectRefused({ zipCode }, "zipCode");
    }
  });

  it("requires the suburb and bounds it", async () => {
    await expectRefused({}, "suburb is required", ["suburb"]);
    await expectRefused({ suburb: "   " }, "suburb is required");
    await expectRefused({ suburb: "s".repeat(81) }, "suburb must be at most 80 characters");
    expect((await createOrder({ suburb: "s".repeat(80) })).statusCode).toBe(200);
  });

  it("checks the other number like the phone, and the complex's length; both may be left out", async () => {
    await expectRefused({ altPhone: "0".repeat(31) }, "altPhone must be at most 30 characters");
    expect((await createOrder({ altPhone: "0".repeat(30) })).statusCode).toBe(200);
    await expectRefused({ complex: "c".repeat(121) }, "complex must be at most 120 characters");
    await expectRefused({ altPhone: 821234567 }, "altPhone");
    await expectRefused({ province: "Gautengg" }, "province must be one of the nine provinces");
    expect((await createOrder({}, ["complex", "altPhone", "deliveryInstructions"])).statusCode).toBe(200);
  });

  it("finds the order by its suburb in the admin's search", async () => {
    const suburb = `Waterkloof Ridge ${Math.random().toString(36).slice(2, 8)}`;
    const response = await createOrder({ suburb });
    const { orderId } = response.json() as { orderId: string };
    const found = await t.app.inject({
      method: "GET",
      url: `/api/admin/orders?q=${encodeURIComponent(suburb.toUpperCase())}`,
      headers: { cookie: admin.cookie },
    });
    expect(found.statusCode).toBe(200);
    const ids = (found.json() as { orders: { id: string }[] }).orders.map((order) => order.id);
    expect(ids).toEqual([orderId]);
  });

  it("prints the whole address, the other number and the instructions on the packing slip", async () => {
    const response = await createOrder(fullAddress);
    const { orderId, payfastData } = response.json() as { orderId: string; payfastData: Record<string, string> };
    await payOnEmulator(t, orderId, payfastData);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Johannesburg" }).format(new Date());
    const slip = await t.app.inject({
      method: "GET",
      url: `/api/admin/packing-slips.pdf?date=${today}`,
      headers: { cookie: admin.cookie },
    });
    const text = flat(await pdfText(slip.rawPayload));
    // The only order paid in this database, so the only slip.
    expect(text).toContain("Slip 1 of 1");
    expect(text).toContain(`#${orderNumber(orderId)}`);
    for (const part of [
      "Unit 4, Jacaranda Court",
      "12 Jacaranda Street",
      "Hatfield",
      "Pretoria, Gauteng, 0083",
      "Other number: 012 555 0102",
      "Instructions: Gate code 4455, leave with security",
    ]) {
      expect(text).toContain(part);
    }
    // The invoice's address has the complex and suburb; the courier's notes stay off the tax document.
    const invoice = await t.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}/invoice.pdf`,
      headers: shopper.headers,
    });
    expect(invoice.statusCode).toBe(200);
    const invoiceText = flat(await pdfText(invoice.rawPayload));
    for (const part of ["Unit 4, Jacaranda Court", "12 Jacaranda Street", "Hatfield", "Pretoria, Gauteng, 0083"]) {
      expect(invoiceText).toContain(part);
    }
    expect(invoiceText).not.toContain("Gate code");
    // The confirmation e-mail carries them too.
    const mail = await t.pool.query("select data from emails where kind = 'order_confirmation' and event_key = $1", [
      orderId,
    ]);
    expect(mail.rows[0]?.data.delivery).toMatchObject({
      suburb: "Hatfield",
      complex: "Unit 4, Jacaranda Court",
      deliveryInstructions: "Gate code 4455, leave with security",
      altPhone: "012 555 0102",
    });
  });

  it("shows an order placed before the suburb as it was", async () => {
    const response = await createOrder({});
    const { orderId } = response.json() as { orderId: string };
    await t.pool.query(
      "update orders set delivery_suburb = default, delivery_complex = default, delivery_instructions = default, delivery_alt_phone = default where id = $1",
      [orderId],
    );
    const mine = await t.app.inject({ method: "GET", url: `/api/orders/${orderId}`, headers: shopper.headers });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      deliverySuburb: "",
      deliveryComplex: "",
      deliveryAddress: "12 Jacaranda Street",
    });
  });
});

describe("the address on the profile", () => {
  const put = (who: LoggedInUser, payload: object) =>
    t.app.inject({ method: "PUT", url: `/api/users/${who.user.id}`, headers: who.headers, payload });

  it("keeps the whole address, the province included, for checkout to pre-fill", async () => {
    const customer = await registerAndLogin(t);
    const response = await put(customer, {
      fullName: "Thandi Mokoena",
      email: customer.user.email,
      phone: "082 555 0101",
      ...fullAddress,
    });
    expect(response.statusCode).toBe(200);
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie: customer.cookie } });
    expect(me.json()).toMatchObject(fullAddress);
  });

  it("lets every address field stay empty but checks each one given", async () => {
    const customer = await registerAndLogin(t);
    const base = { fullName: "Thandi Mokoena", email: customer.user.email };
    const empty = await put(customer, base);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({
      suburb: "",
      province: "",
      complex: "",
      deliveryInstructions: "",
      altPhone: "",
    });
    for (const [changes, field] of [
      [{ zipCode: "181" }, "zipCode"],
      [{ province: "Gotham" }, "province"],
      [{ deliveryInstructions: "d".repeat(201) }, "deliveryInstructions must be at most 200 characters"],
      [{ altPhone: "0".repeat(31) }, "altPhone must be at most 30 characters"],
    ] as const) {
      const refused = await put(customer, { ...base, ...changes });
      expect(refused.statusCode, field).toBe(400);
      expect(refused.json()).toEqual({ message: expect.stringContaining(field), code: "VALIDATION_FAILED" });
    }
    expect((await put(customer, { ...base, deliveryInstructions: "d".repeat(200) })).statusCode).toBe(200);
  });
});
