import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimal, formatRand } from "#domain/money.js";
import { orderNumber } from "#domain/order-status.js";
import { formatDocumentDate } from "#domain/sa-format.js";
import type { Order } from "#domain/schemas/orders.js";
import { creditNoteVats, formatVatRate, invoiceVat, invoiceVatLines } from "#domain/vat.js";
import { documentIssuer } from "#server/orders/issued-documents.js";
import { bookPayment } from "#server/payments/book-payment.js";
import { orderItems, orders } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import type { TestApp } from "../helpers/app.js";
import { pdfFonts, pdfText } from "../helpers/pdf.js";
import { buildListeningApp, payOnEmulator, placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { setStock } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

const SHOP_VAT = "4123456789";
const BUYER_VAT = "4987654321";

let t: TestApp;
/** A second instance on the same data, for a shop that is not VAT-registered. */
let unregistered: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;

beforeAll(async () => {
  // 50 payments at once: a pool of 10 keeps a busy machine from answering 503 while they wait for a connection.
  t = await buildListeningApp(
    { SHOP_VAT_NUMBER: SHOP_VAT, SHOP_ADDRESS: "14 Loop Street, Cape Town, 8001" },
    undefined,
    10,
  );
  unregistered = await buildListeningApp({}, t.databaseUrl);
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t, { fullName: "Thandi Mokoena" });
});
afterAll(async () => {
  await unregistered?.close();
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = { cookie: admin.cookie }, app: TestApp = t) =>
  app.app.inject({ method: "GET", url, headers });

async function orderRow(id: string) {
  const [row] = await t.db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw new Error("no order");
  return row;
}

/** The order's VAT as its stored lines give it. */
async function vatOf(id: string) {
  const row = await orderRow(id);
  const lines = await t.db.select().from(orderItems).where(eq(orderItems.orderId, id)).orderBy(orderItems.position);
  return { lines, order: { lines, deliveryFeeCents: row.deliveryFeeCents, deliveryVatRateBp: row.deliveryVatRateBp } };
}

/** Collapses the extracted text's line breaks and runs of spaces, so a check does not depend on the layout. */
const flat = (text: string) => text.replace(/\s+/g, " ");

describe("invoice numbers", () => {
  it("gives 50 orders paid at once, by PayFast and by admins, 50 distinct consecutive numbers", async () => {
    const line = await stockedLine(t, 1);
    await setStock(t.db, line.id, line.size, 10_000);
    const placed = [];
    for (let index = 0; index < 50; index++) placed.push(await placeTestOrder(t, shopper, [line]));
    // Half are booked as PayFast payments (what a verified ITN or reconciliation runs), half by an
    // admin's Confirm Payment over HTTP, all at once.
    const totals = await t.db
      .select({ id: orders.id, totalCents: orders.totalCents })
      .from(orders)
      .where(
        inArray(
          orders.id,
          placed.map((order) => order.orderId),
        ),
      );
    const totalOf = new Map(totals.map((row) => [row.id, row.totalCents]));
    const answers = await Promise.all(
      placed.map(({ orderId }, index) => {
        const cents = totalOf.get(orderId) ?? 0;
        return index % 2 === 0
          ? bookPayment(
              t.db,
              {
                via: "itn",
                orderId,
                pfPaymentId: `9${String(index).padStart(6, "0")}${Date.now() % 1_000_000}`,
                paymentStatus: "COMPLETE",
                amountGross: centsToDecimal(cents),
                sourceIp: "127.0.0.1",
                referer: null,
                rawBody: "",
              },
              cents,
              documentIssuer(t.app.config),
            )
          : t.app.inject({
              method: "PATCH",
              url: `/api/admin/orders/${orderId}/confirm-payment`,
              headers: { cookie: admin.cookie },
            });
      }),
    );
    for (const answer of answers) {
      if ("outcome" in answer) expect(answer.outcome).toBe("accepted");
      else expect(answer.statusCode).toBe(200);
    }
    const rows = await t.db
      .select({ invoiceNumber: orders.invoiceNumber, status: orders.status })
      .from(orders)
      .where(
        inArray(
          orders.id,
          placed.map((order) => order.orderId),
        ),
      );
    expect(rows.every((row) => row.status === "completed")).toBe(true);
    const numbers = rows.map((row) => row.invoiceNumber ?? 0).sort((a, b) => a - b);
    const first = numbers[0] ?? 0;
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, index) => first + index));
    // And nothing before them was skipped: the series has no gap from INV-000001 on.
    const all = (await t.db.select({ n: orders.invoiceNumber }).from(orders))
      .map((row) => row.n)
      .filter((n): n is number => n !== null)
      .sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: all.length }, (_, index) => index + 1));
  }, 120_000);

  it("gives an unpaid order no invoice", async () => {
    const { orderId } = await placeTestOrder(t, shopper, [await stockedLine(t, 1)]);
    const order = (await get(`/api/orders/${orderId}`, shopper.headers)).json() as Order;
    expect(order.invoiceNumber).toBeNull();
    const pdf = await get(`/api/orders/${orderId}/invoice.pdf`, shopper.headers);
    expect(pdf.statusCode).toBe(404);
    expect(pdf.json()).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("the invoice PDF", () => {
  it("is a SARS tax invoice with every required field when the shop has a VAT number", async () => {
    const line = await stockedLine(t, 2);
    const { orderId, payfastData } = await placeTestOrder(t, shopper, [line], {
      companyName: "Mokoena Care Homes (Pty) Ltd",
      vatNumber: BUYER_VAT,
    });
    await payOnEmulator(t, orderId, payfastData);
    const order = (await get(`/api/orders/${orderId}`, shopper.headers)).json() as Order;
    expect(order.invoiceNumber).toMatch(/^INV-\d{6}$/);
    expect(order).toMatchObject({ companyName: "Mokoena Care Homes (Pty) Ltd", vatNumber: BUYER_VAT });

    const response = await get(`/api/orders/${orderId}/invoice.pdf`, shopper.headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["cache-control"]).toBe("no-store");
    const text = flat(await pdfText(response.rawPayload));
    const row = await orderRow(orderId);
    const stored = await vatOf(orderId);
    for (const expected of [
      "Tax Invoice",
      "Snug & Dry",
      "14 Loop Street, Cape Town, 8001",
      `VAT number: ${SHOP_VAT}`,
      order.invoiceNumber ?? "missing",
      formatDocumentDate(row.paidAt ?? new Date(0)),
      "Thandi Mokoena",
      "12 Jacaranda Street",
      "Pretoria, Gauteng, 0181",
      "Mokoena Care Homes (Pty) Ltd",
      `VAT number: ${BUYER_VAT}`,
      line.name,
      line.size,
      `2 ${formatRand(line.priceCents)} ${formatVatRate(stored.lines[0]?.vatRateBp ?? -1)} ${formatRand(line.priceCents * 2)}`,
      `Delivery 1 ${formatRand(row.deliveryFeeCents)} ${row.deliveryFeeCents > 0 ? "15% " : ""}${formatRand(row.deliveryFeeCents)}`,
      `VAT ${formatRand(invoiceVat(stored.order).vatCents)}`,
      `Total (VAT inclusive) ${formatRand(row.totalCents)}`,
      `#${orderNumber(orderId)}`,
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("is a plain Invoice without a VAT line when the shop has no VAT number", async () => {
    // Paid on the shop that is not registered: an invoice says what it said when it was issued.
    const { orderId, payfastData } = await placeTestOrder(unregistered, shopper, [await stockedLine(t, 1)]);
    await payOnEmulator(unregistered, orderId, payfastData);
    const row = await orderRow(orderId);
    const text = flat(
      await pdfText(
        (await get(`/api/orders/${orderId}/invoice.pdf`, { cookie: admin.cookie }, unregistered)).rawPayload,
      ),
    );
    expect(text).toContain("Invoice");
    expect(text).not.toContain("Tax Invoice");
    expect(text).not.toContain("VAT");
    expect(text).toContain(`Total ${formatRand(row.totalCents)}`);
  });

  it("embeds its fonts, so it reads the same everywhere", async () => {
    const { orderId, payfastData } = await placeTestOrder(t, shopper, [await stockedLine(t, 1)]);
    await payOnEmulator(t, orderId, payfastData);
    const pdf = (await get(`/api/orders/${orderId}/invoice.pdf`)).rawPayload;
    const fonts = pdfFonts(pdf);
    expect(fonts.names.length).toBeGreaterThan(0);
    expect(fonts.names.every((name) => /^[A-Z]{6}\+DejaVuSans/.test(name))).toBe(true);
    // A Type0 font names its subset twice (itself and its descendant): one embedded program per subset.
    expect(fonts.embedded).toBe(new Set(fonts.names).size);
  });

  it("answers only the order's owner or an admin", async () => {
    const { orderId, payfastData } = await placeTestOrder(t, shopper, [await stockedLine(t, 1)]);
    await payOnEmulator(t, orderId, payfastData);
    const stranger = await registerAndLogin(t);
    expect((await get(`/api/orders/${orderId}/invoice.pdf`, stranger.headers)).statusCode).toBe(404);
    expect((await get(`/api/orders/${orderId}/invoice.pdf`, {})).statusCode).toBe(401);
    expect((await get(`/api/orders/${orderId}/invoice.pdf`)).statusCode).toBe(200);
    expect((await get(`/api/orders/${orderId}/invoice.pdf`, shopper.headers)).statusCode).toBe(200);
  });
});

describe("credit notes", () => {
  it("gives each refund a consecutive credit note naming the invoice, the amount, its VAT and the reason", async () => {
    const { orderId, payfastData } = await placeTestOrder(t, shopper, [await stockedLine(t, 1)], {
      companyName: "Mokoena Care Homes (Pty) Ltd",
      vatNumber: BUYER_VAT,
    });
    await payOnEmulator(t, orderId, payfastData);
    const refund = (amountCents: number, reason: string) =>
      t.app.inject({
        method: "POST",
        url: `/api/admin/orders/${orderId}/refund`,
        headers: { cookie: admin.cookie },
        payload: { amountCents, reason },
      });
    expect((await refund(2_300, "Pack arrived torn")).statusCode).toBe(200);
    const order = (await refund(1_150, "Late delivery")).json() as Order;
    const [first, second] = order.refunds;
    const number = (text: string | null | undefined) => Number(text?.slice(3));
    expect(number(second?.creditNoteNumber)).toBe(number(first?.creditNoteNumber) + 1);

    const response = await get(`/api/orders/${orderId}/refunds/${first?.id}/credit-note.pdf`, shopper.headers);
    expect(response.statusCode).toBe(200);
    const text = flat(await pdfText(response.rawPayload));
    for (const expected of [
      "Tax Credit Note",
      "Snug & Dry",
      `VAT number: ${SHOP_VAT}`,
      first?.creditNoteNumber ?? "missing",
      `Credits invoice ${order.invoiceNumber}`,
      "Mokoena Care Homes (Pty) Ltd",
      `VAT number: ${BUYER_VAT}`,
      "Refund: Pack arrived torn",
      `VAT credited ${formatRand(creditNoteVats(invoiceVatLines((await vatOf(orderId)).order), [2_300])[0]?.vatCents ?? -1)}`,
      `Total credited (VAT inclusive) ${formatRand(2_300)}`,
    ]) {
      expect(text).toContain(expected);
    }
    const stranger = await registerAndLogin(t);
    expect(
      (await get(`/api/orders/${orderId}/refunds/${first?.id}/credit-note.pdf`, stranger.headers)).statusCode,
    ).toBe(404);
  });
});

describe("packing slips", () => {
  it("prints a slip per order paid on the day with lines, sizes, quantities and the address, and no prices", async () => {
    const line = await stockedLine(t, 3);
    const { orderId, payfastData } = await placeTestOrder(t, shopper, [line]);
    await payOnEmulator(t, orderId, payfastData);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Johannesburg" }).format(new Date());
    const response = await get(`/api/admin/packing-slips.pdf?date=${today}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    const text = flat(await pdfText(response.rawPayload));
    expect(text).toContain("Packing slip");
    expect(text).toContain(`#${orderNumber(orderId)}`);
    expect(text).toContain(`${line.name} ${line.size} 3`);
    expect(text).toContain("12 Jacaranda Street");
    expect(text).not.toMatch(/R\d/);

    const empty = flat(await pdfText((await get("/api/admin/packing-slips.pdf?date=2001-01-01")).rawPayload));
    expect(empty).toContain("No orders were paid on 1 January 2001.");
  });

  it("refuses a bad date with a 400 and a customer with a 403", async () => {
    for (const date of ["", "2026-13-01", "2026-02-30", "yesterday"]) {
      const response = await get(`/api/admin/packing-slips.pdf?date=${date}`);
      expect(response.statusCode, date).toBe(400);
    }
    expect((await get("/api/admin/packing-slips.pdf?date=2026-01-01", shopper.headers)).statusCode).toBe(403);
  });
});

describe("checkout's business fields", () => {
  it("refuses a VAT number that is not a South African one", async () => {
    await expect(
      placeTestOrder(t, shopper, [await stockedLine(t, 1)], { companyName: "Acme", vatNumber: "123456789" }),
    ).rejects.toThrow(/400.*vatNumber must be a South African VAT number/);
  });
});
