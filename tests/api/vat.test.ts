import { parse } from "csv-parse/sync";
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRand } from "#domain/money.js";
import { orderNumber } from "#domain/order-status.js";
import type { Order } from "#domain/schemas/orders.js";
import type { PromoCheckAnswer } from "#domain/schemas/promo.js";
import type { VatReport, VatReportRate } from "#domain/schemas/vat-report.js";
import { seedOrders } from "#server/cli/seed-orders.js";
import { emails, orderItems, orders, refunds } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import type { TestApp } from "../helpers/app.js";
import { createOrderPayload } from "../helpers/orders.js";
import { pdfText } from "../helpers/pdf.js";
import { buildListeningApp, payOnEmulator, placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

const SHOP_VAT = "4123456789";

let t: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;

beforeAll(async () => {
  t = await buildListeningApp({ SHOP_VAT_NUMBER: SHOP_VAT });
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t, { fullName: "Lerato Khumalo" });
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: "GET", url, headers: { cookie: admin.cookie } });
const flat = (text: string) => text.replace(/\s+/g, " ");
/** 15/115 of an amount, rounded to the cent (no amount of whole cents holds an exact half at 15%). */
const vat15 = (cents: number) => Math.round((cents * 15) / 115);
const cents = (rand: string) => Number(rand.replace(/[R,.]/g, ""));

interface RateFigures {
  exclCents: number;
  vatCents: number;
  totalCents: number;
}

/** A document's VAT summary as its PDF prints it: "Standard-rated 15% R386.93 R58.04 R444.97", per rate. */
function ratesOf(text: string): Map<string, RateFigures> {
  const rates = new Map<string, RateFigures>();
  for (const match of text.matchAll(
    /(Standard-rated|Zero-rated) (\d+(?:\.\d+)?%) (R[\d,]+\.\d\d) (R[\d,]+\.\d\d) (R[\d,]+\.\d\d)/g,
  )) {
    const [, label, rate, excl = "", vat = "", total = ""] = match;
    rates.set(`${label} ${rate}`, { exclCents: cents(excl), vatCents: cents(vat), totalCents: cents(total) });
  }
  return rates;
}

function addRates(into: Map<string, RateFigures>, from: Map<string, RateFigures>) {
  for (const [rate, figures] of from) {
    const sum = into.get(rate) ?? { exclCents: 0, vatCents: 0, totalCents: 0 };
    into.set(rate, {
      exclCents: sum.exclCents + figures.exclCents,
      vatCents: sum.vatCents + figures.vatCents,
      totalCents: sum.totalCents + figures.totalCents,
    });
  }
}

const reportRates = (rates: readonly VatReportRate[]) =>
  new Map(
    rates.map((rate) => [
      `${rate.vatClass === "zero" ? "Zero-rated" : "Standard-rated"} ${rate.rate}`,
      { exclCents: rate.exclCents, vatCents: rate.vatCents, totalCents: rate.totalCents },
    ]),
  );

const invoiceText = async (orderId: string) =>
  flat(await pdfText((await get(`/api/orders/${orderId}/invoice.pdf`)).rawPayload));
const creditNoteText = async (orderId: string, refundId: string) =>
  flat(await pdfText((await get(`/api/orders/${orderId}/refunds/${refundId}/credit-note.pdf`)).rawPayload));

async function placeAndPay(lines: Awaited<ReturnType<typeof stockedLine>>[]) {
  const { orderId, payfastData } = await placeTestOrder(t, shopper, lines);
  await payOnEmulator(t, orderId, payfastData);
  const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new Error("no order");
  return row;
}

const refund = (orderId: string, amountCents: number, reason = "Damaged in transit") =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/orders/${orderId}/refund`,
    headers: { cookie: admin.cookie },
    payload: { amountCents, reason },
  });

describe("the tax invoice, VAT per line", () => {
  it("shows a mixed cart's lines at 0% and 15%, the VAT per rate and the right VAT in all", async () => {
    const pads = await stockedLine(t, 2, 0, "zero");
    const nappies = await stockedLine(t, 1, 0, "standard");
    const order = await placeAndPay([pads, nappies]);

    const stored = await t.db
      .select({ name: orderItems.name, vatClass: orderItems.vatClass, vatRateBp: orderItems.vatRateBp })
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id))
      .orderBy(asc(orderItems.position));
    expect(stored).toEqual([
      { name: pads.name, vatClass: "zero", vatRateBp: 0 },
      { name: nappies.name, vatClass: "standard", vatRateBp: 1500 },
    ]);
    expect(order.deliveryVatRateBp).toBe(1500);

    const zeroTotal = pads.priceCents * 2;
    const standardTotal = nappies.priceCents + order.deliveryFeeCents;
    const standardVat = vat15(nappies.priceCents) + vat15(order.deliveryFeeCents);
    const text = await invoiceText(order.id);
    for (const expected of [
      "Tax Invoice",
      `${pads.name} (zero-rated) ${pads.size} 2 ${formatRand(pads.priceCents)} 0% ${formatRand(zeroTotal)}`,
      `${nappies.name} ${nappies.size} 1 ${formatRand(nappies.priceCents)} 15% ${formatRand(nappies.priceCents)}`,
      `Standard-rated 15% ${formatRand(standardTotal - standardVat)} ${formatRand(standardVat)} ${formatRand(standardTotal)}`,
      `Zero-rated 0% ${formatRand(zeroTotal)} R0.00 ${formatRand(zeroTotal)}`,
      `VAT ${formatRand(standardVat)} Total (VAT inclusive) ${formatRand(order.totalCents)}`,
    ]) {
      expect(text).toContain(expected);
    }
    // 15/115 of the whole total would overstate the VAT by the pads' share.
    expect(standardVat).toBeLessThan(vat15(order.totalCents));

    // The confirmation e-mail carries the same split.
    const [mail] = await t.db
      .select()
      .from(emails)
      .where(and(eq(emails.eventKey, order.id), eq(emails.kind, "order_confirmation")));
    expect(mail?.data).toMatchObject({
      vatCents: standardVat,
      vatByRate: [
        { vatClass: "standard", rateBp: 1500, vatCents: standardVat, totalCents: standardTotal },
        { vatClass: "zero", rateBp: 0, vatCents: 0, totalCents: zeroTotal },
      ],
    });
  });

  it("shows R0.00 VAT on an order of pads only, delivered free", async () => {
    const probe = await stockedLine(t, 1, 0, "zero");
    const quantity = Math.ceil(50_000 / probe.priceCents);
    const pads = await stockedLine(t, quantity, 0, "zero");
    const order = await placeAndPay([pads]);
    expect(order.deliveryFeeCents).toBe(0);
    const text = await invoiceText(order.id);
    expect(text).toContain(`Zero-rated 0% ${formatRand(order.totalCents)} R0.00 ${formatRand(order.totalCents)}`);
    expect(text).toContain(`VAT R0.00 Total (VAT inclusive) ${formatRand(order.totalCents)}`);
    expect(text).not.toContain("Standard-rated");
  });

  it("rates the delivery fee at 15%, also on an order of pads only", async () => {
    const pads = await stockedLine(t, 1, 0, "zero");
    const order = await placeAndPay([pads]);
    expect(order.deliveryFeeCents).toBe(7_500);
    const text = await invoiceText(order.id);
    expect(text).toContain("Delivery 1 R75.00 15% R75.00");
    expect(text).toContain("Standard-rated 15% R65.22 R9.78 R75.00");
    expect(text).toContain(`VAT R9.78 Total (VAT inclusive) ${formatRand(order.totalCents)}`);
  });
});

describe("credit notes, at the invoice's rates", () => {
  it("split a partial refund across both rates, and refunds of the whole reverse exactly the invoice's VAT", async () => {
    const pads = await stockedLine(t, 3, 0, "zero");
    const nappies = await stockedLine(t, 1, 1, "standard");
    const order = await placeAndPay([pads, nappies]);
    const invoice = ratesOf(await invoiceText(order.id));
    expect([...invoice.keys()]).toEqual(["Standard-rated 15%", "Zero-rated 0%"]);

    expect((await refund(order.id, 10_000)).statusCode).toBe(200);
    const rest = order.totalCents - 10_000;
    const answer = await refund(order.id, rest, "Returned unopened");
    expect(answer.statusCode).toBe(200);
    const { refunds: made } = answer.json() as Order;
    expect(made).toHaveLength(2);

    const credited = new Map<string, RateFigures>();
    for (const [index, made_] of made.entries()) {
      const text = await creditNoteText(order.id, made_.id);
      const rates = ratesOf(text);
      // Each credit note touches both rates, each rate adds up, and the rates add up to its amount.
      expect([...rates.keys()]).toEqual(["Standard-rated 15%", "Zero-rated 0%"]);
      for (const figures of rates.values()) expect(figures.exclCents + figures.vatCents).toBe(figures.totalCents);
      const amount = index === 0 ? 10_000 : rest;
      expect([...rates.values()].reduce((sum, rate) => sum + rate.totalCents, 0)).toBe(amount);
      expect(rates.get("Zero-rated 0%")?.vatCents).toBe(0);
      expect(text).toContain(`VAT credited ${formatRand(rates.get("Standard-rated 15%")?.vatCents ?? -1)}`);
      expect(text).toContain(`Total credited (VAT inclusive) ${formatRand(amount)}`);
      addRates(credited, rates);
    }
    // The first credits the standard-rated part in proportion: R100 of the order, its standard share.
    const standardShare = (nappies.priceCents + order.deliveryFeeCents) / order.totalCents;
    const first = ratesOf(await creditNoteText(order.id, made[0]?.id ?? ""));
    expect(Math.abs((first.get("Standard-rated 15%")?.totalCents ?? 0) - 10_000 * standardShare)).toBeLessThanOrEqual(
      1,
    );
    expect(credited).toEqual(invoice);
  });
});

/** The South African month (YYYY-MM) of a moment. */
const saMonth = (at: Date) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Johannesburg" }).format(at).slice(0, 7);

/** The figures of every tax invoice and credit note dated in [first, next) South African days, read from their PDFs. */
async function documentsOfPeriod(first: string, next: string) {
  const inPeriod = (at: unknown) =>
    sql`${at} >= (${first}::date::timestamp at time zone 'Africa/Johannesburg') and ${at} < (${next}::date::timestamp at time zone 'Africa/Johannesburg')`;
  const invoiced = await t.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(isNotNull(orders.invoiceNumber), inPeriod(orders.paidAt)));
  const notes = await t.db
    .select({ id: refunds.id, orderId: refunds.orderId })
    .from(refunds)
    .where(and(isNotNull(refunds.creditNoteNumber), inPeriod(refunds.completedAt)));
  const sales = new Map<string, RateFigures>();
  const byOrder = new Map<string, Map<string, RateFigures>>();
  for (const { id } of invoiced) {
    const rates = ratesOf(await invoiceText(id));
    byOrder.set(id, rates);
    addRates(sales, rates);
  }
  const credits = new Map<string, RateFigures>();
  for (const note of notes) addRates(credits, ratesOf(await creditNoteText(note.orderId, note.id)));
  return { sales, credits, byOrder, invoices: invoiced.length, creditNotes: notes.length };
}

describe("the VAT report and the orders CSV, against the documents", () => {
  /** A paid order of both rates with a promo code's discount spread over its lines (issue 28). */
  let discountedOrderId = "";

  beforeAll(async () => {
    const client = await t.pool.connect();
    try {
      await seedOrders(client, { orders: 400, seed: 24, end: new Date() });
    } finally {
      client.release();
    }
    const made = await t.app.inject({
      method: "POST",
      url: "/api/admin/promo-codes",
      headers: { cookie: admin.cookie },
      payload: { code: "VATSPREAD", kind: "fixed", amount: "33.33" },
    });
    expect(made.statusCode, made.body).toBe(201);
    const lines = [await stockedLine(t, 2, 0, "zero"), await stockedLine(t, 1, 0, "standard")];
    const checked = await t.app.inject({
      method: "POST",
      url: "/api/promo-codes/check",
      headers: shopper.headers,
      payload: { code: "VATSPREAD", items: lines.map(({ id, size, quantity }) => ({ id, size, quantity })) },
    });
    expect(checked.statusCode, checked.body).toBe(200);
    const figures = checked.json() as PromoCheckAnswer;
    const placed = await t.app.inject({
      method: "POST",
      url: "/api/create-order",
      headers: shopper.headers,
      payload: {
        ...createOrderPayload(shopper, lines),
        promoCode: "VATSPREAD",
        subtotal: Number(figures.subtotal),
        deliveryFee: Number(figures.deliveryFee),
        total: Number(figures.total),
      },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    const { orderId, payfastData } = placed.json() as { orderId: string; payfastData: Record<string, string> };
    await payOnEmulator(t, orderId, payfastData);
    discountedOrderId = orderId;
  });

  it("gives seeded orders both VAT classes, each line with its rate, and their invoices", async () => {
    const { rows } = await t.pool.query<{ vat_class: string; vat_rate_bp: number }>(
      `select distinct i.vat_class, i.vat_rate_bp from order_items i join orders o on o.id = i.order_id
       where o.user_id is distinct from $1 order by 1`,
      [shopper.user.id],
    );
    expect(rows.map((row) => [row.vat_class, row.vat_rate_bp])).toEqual([
      ["standard", 1500],
      ["zero", 0],
    ]);
    const { rows: unnumbered } = await t.pool.query(
      "select id from orders where paid_at is not null and invoice_number is null",
    );
    expect(unnumbered).toEqual([]);
  });

  it("adds up, this month, to the cent with its invoices and credit notes, per rate, and the CSV with it", async () => {
    const month = saMonth(new Date());
    const report = (await get(`/api/admin/vat-report?from=${month}&months=1`)).json() as VatReport;
    const next = new Date(`${report.last}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    const documents = await documentsOfPeriod(report.first, next.toISOString().slice(0, 10));
    expect(documents.creditNotes).toBeGreaterThanOrEqual(2);
    expect(documents.invoices).toBeGreaterThan(5);
    // The discounted order's invoice is among them, its lines at what was paid for them.
    const discounted = documents.byOrder.get(discountedOrderId);
    expect(discounted?.size).toBe(2);
    const [paid] = await t.db.select().from(orders).where(eq(orders.id, discountedOrderId));
    expect(paid?.discountCents).toBe(3333);
    expect([...(discounted?.values() ?? [])].reduce((sum, rate) => sum + rate.totalCents, 0)).toBe(paid?.totalCents);
    expect(report.invoices).toBe(documents.invoices);
    expect(report.creditNotes).toBe(documents.creditNotes);
    expect(reportRates(report.sales)).toEqual(documents.sales);
    expect(reportRates(report.credits)).toEqual(documents.credits);
    const net = new Map(documents.sales);
    addRates(
      net,
      new Map(
        [...documents.credits].map(([rate, figures]) => [
          rate,
          { exclCents: -figures.exclCents, vatCents: -figures.vatCents, totalCents: -figures.totalCents },
        ]),
      ),
    );
    expect(reportRates(report.net)).toEqual(net);

    // The report's CSV: every document's rows, then the same totals.
    const csv = await get(`/api/admin/vat-report.csv?from=${month}&months=1`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe(`attachment; filename="vat-${report.first}-to-${report.last}.csv"`);
    const records = parse(csv.body, { columns: true }) as Record<string, string>[];
    const detail = records.filter((row) => row.Document !== "");
    expect(new Set(detail.map((row) => row.Document)).size).toBe(documents.invoices + documents.creditNotes);
    for (const rate of report.net) {
      const label = `${rate.vatClass === "zero" ? "Zero-rated" : "Standard-rated"} ${rate.rate}`;
      const rows = detail.filter((row) => row["VAT rate"] === label);
      const sum = (column: string) => rows.reduce((total, row) => total + cents(row[column] ?? "0"), 0);
      // Credit notes are negative: the rows of a rate add up to its net figures.
      expect(sum("Excl. VAT (R)")).toBe(rate.exclCents);
      expect(sum("VAT (R)")).toBe(rate.vatCents);
      expect(sum("Total (R)")).toBe(rate.totalCents);
      const netRow = records.find((row) => row.Section === "Net (VAT201)" && row["VAT rate"] === label);
      expect(netRow?.["VAT (R)"]).toBe((rate.vatCents / 100).toFixed(2));
    }

    // The orders CSV: each invoiced order's columns per rate are its invoice's.
    const orderCsv = await get(`/api/admin/orders.csv?from=${report.first}&to=${report.last}`);
    const byNumber = new Map(
      (parse(orderCsv.body, { columns: true }) as Record<string, string>[]).map((row) => [row["Order number"], row]),
    );
    let compared = 0;
    for (const [orderId, rates] of documents.byOrder) {
      const row = byNumber.get(orderNumber(orderId));
      if (!row) continue; // paid this month, placed before it
      compared += 1;
      const standard = rates.get("Standard-rated 15%");
      expect(cents(row["Zero-rated (R)"] ?? ""), orderId).toBe(rates.get("Zero-rated 0%")?.totalCents ?? 0);
      expect(cents(row["VAT at standard rate (R)"] ?? ""), orderId).toBe(standard?.vatCents ?? 0);
      expect(cents(row["Standard-rated excl. VAT (R)"] ?? ""), orderId).toBe(standard?.exclCents ?? 0);
    }
    expect(compared).toBeGreaterThan(5);
    // The discounted order's row adds up: subtotal less the discount plus delivery is what was paid.
    const discountedRow = byNumber.get(orderNumber(discountedOrderId));
    expect(discountedRow?.["Discount (R)"]).toBe("33.33");
    expect(
      cents(discountedRow?.["Subtotal (R)"] ?? "") -
        cents(discountedRow?.["Discount (R)"] ?? "") +
        cents(discountedRow?.["Delivery (R)"] ?? ""),
    ).toBe(cents(discountedRow?.["Total (R)"] ?? ""));
  }, 120_000);

  it("adds up for a two-month VAT period of seeded orders", async () => {
    const start = new Date();
    start.setUTCMonth(start.getUTCMonth() - 4, 1);
    const from = start.toISOString().slice(0, 7);
    const report = (await get(`/api/admin/vat-report?from=${from}&months=2`)).json() as VatReport;
    const next = new Date(`${report.last}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    expect(next.getUTCMonth()).toBe((start.getUTCMonth() + 2) % 12);
    const documents = await documentsOfPeriod(report.first, next.toISOString().slice(0, 10));
    expect(documents.invoices).toBeGreaterThan(5);
    expect(report.invoices).toBe(documents.invoices);
    expect(reportRates(report.sales)).toEqual(documents.sales);
    expect(reportRates(report.net)).toEqual(documents.sales);
    expect(report.credits).toEqual([]);
  }, 120_000);

  it.each([
    ["from=2026-13&months=1", /from must be a month/],
    ["from=2026-1&months=1", /from must be a month/],
    ["from=2018-03&months=1", /from must be 2018-04 or later/],
    ["months=1", /from/],
    ["from=2026-01&months=0", /months must be 1 or 2/],
    ["from=2026-01&months=3", /months must be 1 or 2/],
    ["from=2026-01&months=1.5", /months must be 1 or 2/],
  ])("refuses %s with a 400 naming the field", async (query, message) => {
    for (const path of ["/api/admin/vat-report", "/api/admin/vat-report.csv"]) {
      const response = await get(`${path}?${query}`);
      expect(response.statusCode, path).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION_FAILED", message: expect.stringMatching(message) });
    }
  });

  it("answers the first month the rates table covers and a two-month period, and only to an admin", async () => {
    const first = await get("/api/admin/vat-report?from=2018-04&months=2");
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ first: "2018-04-01", last: "2018-05-31", invoices: 0, sales: [] });
    const december = await get("/api/admin/vat-report?from=2026-12&months=2");
    expect(december.json()).toMatchObject({ first: "2026-12-01", last: "2027-01-31" });
    const customer = await t.app.inject({
      method: "GET",
      url: "/api/admin/vat-report?from=2026-01",
      headers: shopper.headers,
    });
    expect(customer.statusCode).toBe(403);
  });
});
