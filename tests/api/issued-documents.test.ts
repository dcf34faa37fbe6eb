import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminOrderDetail } from "#domain/schemas/admin-orders.js";
import type { Order } from "#domain/schemas/orders.js";
import { documentCounters, issuedDocuments } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import type { TestApp } from "../helpers/app.js";
import { onlyAuditRecord } from "../helpers/audit.js";
import { pdfText } from "../helpers/pdf.js";
import { buildListeningApp, payOnEmulator, placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

/** The shop as first set up: not registered for VAT, in Durban, a close corporation. */
const BEFORE = {
  SHOP_ADDRESS: "3 Old Mill Road, Durban, 4001",
  SHOP_LEGAL_NAME: "Nappy Folk Trading",
  SHOP_LEGAL_STATUS: "CC",
};
/** ...and after: registered for VAT, moved to Cape Town, trading through a company. */
const AFTER = {
  SHOP_VAT_NUMBER: "4123456789",
  SHOP_ADDRESS: "14 Loop Street, Cape Town, 8001",
  SHOP_LEGAL_NAME: "Snug and Dry Holdings",
  SHOP_LEGAL_STATUS: "(Pty) Ltd",
};

let shop: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;

beforeAll(async () => {
  shop = await buildListeningApp(BEFORE);
  admin = await signInAsAdmin(shop);
  shopper = await registerAndLogin(shop, { fullName: "Thandi Mokoena" });
});
afterAll(async () => {
  await shop?.close();
});

/** The shop stops and starts again on the same data with other settings. */
async function restart(env: Record<string, string>) {
  const stopped = shop;
  await stopped.close();
  shop = await buildListeningApp(env, stopped.databaseUrl);
}

const flat = (text: string) => text.replace(/\s+/g, " ").trim();
/** The copy line printed above a copy: "Copy of Invoice INV-000001 as issued; first downloaded on 2 December 2026." */
const COPY_LINE = /Copy of [^;]+; first downloaded on \d{1,2} \w+ \d{4}\. ?/g;

async function download(url: string, headers: Record<string, string> = { cookie: admin.cookie }) {
  const response = await shop.app.inject({ method: "GET", url, headers });
  expect(response.statusCode).toBe(200);
  return flat(await pdfText(response.rawPayload));
}

async function paidOrder(lines: Awaited<ReturnType<typeof stockedLine>>[]) {
  const { orderId, payfastData } = await placeTestOrder(shop, shopper, lines);
  await payOnEmulator(shop, orderId, payfastData);
  return orderId;
}

const adminOrder = async (orderId: string) =>
  (
    await shop.app.inject({ method: "GET", url: `/api/admin/orders/${orderId}`, headers: { cookie: admin.cookie } })
  ).json() as AdminOrderDetail;

describe("documents as issued", () => {
  it("downloads an invoice and a credit note as issued after the VAT number, address and legal name change, marked Copy; new orders get the new details", async () => {
    const orderId = await paidOrder([await stockedLine(shop, 1, 0, "zero"), await stockedLine(shop, 2, 0, "standard")]);
    const refunded = await shop.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/refund`,
      headers: { cookie: admin.cookie },
      payload: { amountCents: 1_500, reason: "Pack arrived torn" },
    });
    expect(refunded.statusCode).toBe(200);
    const refundId = (refunded.json() as Order).refunds[0]?.id;
    const invoiceUrl = `/api/orders/${orderId}/invoice.pdf`;
    const creditNoteUrl = `/api/orders/${orderId}/refunds/${refundId}/credit-note.pdf`;

    const invoice = await download(invoiceUrl, shopper.headers);
    const creditNote = await download(creditNoteUrl, shopper.headers);
    for (const issued of [invoice, creditNote]) {
      // The trading name beside the full registered name and status (CPA s26(3)).
      expect(issued).toContain("Snug & Dry Nappy Folk Trading CC");
      expect(issued).toContain("3 Old Mill Road, Durban, 4001");
      expect(issued).not.toContain("VAT");
      expect(issued).not.toContain("Copy");
    }
    expect(invoice).toMatch(/^Snug & Dry .*Invoice/);
    expect(invoice).not.toContain("Tax Invoice");
    expect(creditNote).not.toContain("Tax Credit Note");

    await restart(AFTER);
    const invoiceAgain = await download(invoiceUrl, shopper.headers);
    const creditNoteAgain = await download(creditNoteUrl, shopper.headers);
    // The same numbers, words and (no) VAT, word for word, under a line that says it is a copy.
    expect(invoiceAgain).toMatch(COPY_LINE);
    expect(creditNoteAgain).toMatch(COPY_LINE);
    expect(flat(invoiceAgain.replace(COPY_LINE, ""))).toBe(invoice);
    expect(flat(creditNoteAgain.replace(COPY_LINE, ""))).toBe(creditNote);
    for (const again of [invoiceAgain, creditNoteAgain]) {
      expect(again).not.toContain(AFTER.SHOP_VAT_NUMBER);
      expect(again).not.toContain("Loop Street");
      expect(again).not.toContain("Snug and Dry Holdings");
    }
    // An admin's download is a download too: still a copy.
    expect(await download(invoiceUrl)).toMatch(COPY_LINE);

    // Registering changes only documents issued from now on: a new order gets a tax invoice with the new details.
    const laterId = await paidOrder([await stockedLine(shop, 1, 0, "zero"), await stockedLine(shop, 1, 0, "standard")]);
    const later = await download(`/api/orders/${laterId}/invoice.pdf`, shopper.headers);
    for (const expected of [
      "Tax Invoice",
      "Snug and Dry Holdings (Pty) Ltd",
      "14 Loop Street, Cape Town, 8001",
      `VAT number: ${AFTER.SHOP_VAT_NUMBER}`,
      "Standard-rated 15%",
    ]) {
      expect(later).toContain(expected);
    }
    expect(later).not.toContain("Durban");
    expect(later).not.toContain("Copy");
  }, 120_000);

  it("freezes a document issued before documents were stored the first time it is needed, and reads it the same after", async () => {
    const orderId = await paidOrder([await stockedLine(shop, 1)]);
    // As if paid before this change: no stored invoice.
    await shop.db
      .delete(issuedDocuments)
      .where(and(eq(issuedDocuments.orderId, orderId), eq(issuedDocuments.kind, "invoice")));
    const first = await download(`/api/orders/${orderId}/invoice.pdf`);
    expect(first).toContain("Tax Invoice");
    expect(first).not.toContain("Copy");
    const [row] = await shop.db.select().from(issuedDocuments).where(eq(issuedDocuments.orderId, orderId));
    expect(row).toMatchObject({ kind: "invoice", frozen: "first_use", downloads: 1 });
    await restart(BEFORE);
    const again = await download(`/api/orders/${orderId}/invoice.pdf`);
    expect(flat(again.replace(COPY_LINE, ""))).toBe(first);
    expect((await adminOrder(orderId)).documents).toEqual([
      expect.objectContaining({ kind: "invoice", frozen: "first_use", downloads: 2 }),
    ]);
    await restart(AFTER);
  }, 120_000);
});

describe("a corrected invoice (VAT Act s20(1B))", () => {
  it("gets the next invoice number, names the invoice it replaces, keeps the date of supply, and leaves the replaced one readable", async () => {
    const orderId = await paidOrder([await stockedLine(shop, 1)]);
    const original = (await adminOrder(orderId)).order.invoiceNumber as string;
    const before = await download(`/api/orders/${orderId}/invoice.pdf`, shopper.headers);
    const correct = (payload: Record<string, unknown>, id = orderId) =>
      shop.app.inject({
        method: "POST",
        url: `/api/admin/orders/${id}/invoice/corrections`,
        headers: { cookie: admin.cookie },
        payload,
      });

    // Bad input changes nothing.
    expect((await correct({ reason: "Company", vatNumber: "123" })).json()).toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect((await correct({ reason: "Nothing at all" })).statusCode).toBe(400);
    const unpaid = await placeTestOrder(shop, shopper, [await stockedLine(shop, 1)]);
    expect((await correct({ reason: "Company", companyName: "X" }, unpaid.orderId)).json()).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await shop.db.select().from(issuedDocuments).where(eq(issuedDocuments.orderId, orderId))).toHaveLength(1);

    const corrected = await correct({
      reason: "The buyer asked for the company's name and VAT number",
      companyName: "Mokoena Care Homes (Pty) Ltd",
      vatNumber: "4987654321",
    });
    expect(corrected.statusCode).toBe(201);
    const { number, replaces } = corrected.json() as { number: string; replaces: string };
    expect(replaces).toBe(original);
    // From the one gapless invoice series: the counter's last number.
    const [counter] = await shop.db
      .select({ last: documentCounters.last })
      .from(documentCounters)
      .where(eq(documentCounters.series, "invoice"));
    expect(number).toBe(`INV-${String(counter?.last).padStart(6, "0")}`);

    const now = await download(`/api/orders/${orderId}/invoice.pdf`, shopper.headers);
    for (const expected of [
      `Invoice number ${number}`,
      `Replaces ${original}`,
      "Mokoena Care Homes (Pty) Ltd",
      "VAT number: 4987654321",
      `This corrected invoice replaces ${original}`,
    ]) {
      expect(now).toContain(expected);
    }
    // The date of supply and the amounts are the replaced invoice's.
    const dateOf = (text: string) => /Invoice date (\d{1,2} \w+ \d{4})/.exec(text)?.[1];
    expect(dateOf(now)).toBe(dateOf(before));
    const totalOf = (text: string) => /Total \(VAT inclusive\) (R[\d,.]+)/.exec(text)?.[1];
    expect(totalOf(now)).toBe(totalOf(before));
    expect(now).not.toContain("Copy");

    // The replaced invoice stays readable as it was issued (its second download: a copy).
    const replaced = await download(`/api/orders/${orderId}/invoice.pdf?number=${original}`, shopper.headers);
    expect(flat(replaced.replace(COPY_LINE, ""))).toBe(before);
    expect(replaced).toMatch(COPY_LINE);
    const unknown = await shop.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}/invoice.pdf?number=INV-999999`,
      headers: shopper.headers,
    });
    expect(unknown.json()).toMatchObject({ code: "NOT_FOUND" });

    const audit = await onlyAuditRecord(shop, "order.invoice_corrected", orderId);
    expect(audit.actor_id).toBe(admin.id);
    expect(audit.before).toMatchObject({ invoice: original, customer: { companyName: null } });
    expect(audit.after).toMatchObject({ invoice: number, customer: { companyName: "Mokoena Care Homes (Pty) Ltd" } });
    expect((await adminOrder(orderId)).documents).toEqual([
      expect.objectContaining({ kind: "invoice", number, replaces: original }),
      expect.objectContaining({ kind: "invoice", number: original, replaces: null }),
    ]);
  }, 120_000);

  it("keeps a supply made before VAT registration a plain invoice, with the seller's details taken as set today", async () => {
    await restart(BEFORE);
    const orderId = await paidOrder([await stockedLine(shop, 1)]);
    await restart(AFTER);
    const corrected = await shop.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/invoice/corrections`,
      headers: { cookie: admin.cookie },
      payload: { reason: "The shop's address was wrong", sellerDetails: "current" },
    });
    expect(corrected.statusCode).toBe(201);
    const text = await download(`/api/orders/${orderId}/invoice.pdf`);
    expect(text).toContain("14 Loop Street, Cape Town, 8001");
    expect(text).not.toContain("Tax Invoice");
    expect(text).not.toContain("VAT");
  }, 120_000);
});

describe("the admin's order view", () => {
  it("shows each line's VAT class and rate as stored when it was sold, and the delivery fee's", async () => {
    const orderId = await paidOrder([await stockedLine(shop, 1, 0, "zero"), await stockedLine(shop, 1, 0, "standard")]);
    const detail = await adminOrder(orderId);
    expect(detail.lineVat).toEqual([
      { vatClass: "zero", vatRateBp: 0 },
      { vatClass: "standard", vatRateBp: 1500 },
    ]);
    expect(detail.deliveryVatRateBp).toBe(1500);
  }, 120_000);
});
