import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRand } from "#domain/money.js";
import { includedVatCents } from "#domain/vat.js";
import { emails, orderItems, orders } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import type { TestApp } from "../helpers/app.js";
import type { TestCartLine } from "../helpers/orders.js";
import { pdfText } from "../helpers/pdf.js";
import { buildListeningApp, payOnEmulator, placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

/**
 * Issue 24: "a future change of rate is a data change, not a code change", and every document reads
 * the rate its order was placed at, never today's table. A new standard rate from today (16%, a
 * figure no code names) is one row in vat_rates: orders placed after it take it, on their lines and
 * their delivery fee; an order placed before keeps 15% on its invoice and on a credit note issued
 * after the change.
 */

let t: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;

beforeAll(async () => {
  t = await buildListeningApp({ SHOP_VAT_NUMBER: "4123456789" });
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t);
});
afterAll(() => t?.close());

const flat = (text: string) => text.replace(/\s+/g, " ");
const get = (url: string) => t.app.inject({ method: "GET", url, headers: { cookie: admin.cookie } });
const invoiceText = async (orderId: string) =>
  flat(await pdfText((await get(`/api/orders/${orderId}/invoice.pdf`)).rawPayload));

async function placeAndPay(lines: TestCartLine[]) {
  const { orderId, payfastData } = await placeTestOrder(t, shopper, lines);
  await payOnEmulator(t, orderId, payfastData);
  const [order] = await t.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error("no order");
  return order;
}

describe("a change of the VAT rate", () => {
  it("is a row in vat_rates: new orders take it, orders placed before keep their rate on every document", async () => {
    const nappies = await stockedLine(t, 1, 0, "standard");
    const pads = await stockedLine(t, 1, 0, "zero");
    const before = await placeAndPay([nappies]);
    expect(before.deliveryFeeCents).toBeGreaterThan(0);
    const beforeTotal = before.totalCents;
    const beforeVat = includedVatCents(nappies.priceCents, 1500) + includedVatCents(before.deliveryFeeCents, 1500);
    const beforeInvoice = await invoiceText(before.id);
    expect(beforeInvoice).toContain(`VAT ${formatRand(beforeVat)} Total (VAT inclusive) ${formatRand(beforeTotal)}`);

    // The change: standard-rated at 16% from today (South African day). No code names 16%.
    const { rowCount } = await t.pool.query(
      `insert into vat_rates (vat_class, effective_from, rate_bp)
       values ('standard', (now() at time zone 'Africa/Johannesburg')::date, 1600)`,
    );
    expect(rowCount).toBe(1);

    const after = await placeAndPay([nappies, pads]);
    const lines = await t.db
      .select({ vatClass: orderItems.vatClass, vatRateBp: orderItems.vatRateBp })
      .from(orderItems)
      .where(eq(orderItems.orderId, after.id))
      .orderBy(asc(orderItems.position));
    expect(lines).toEqual([
      { vatClass: "standard", vatRateBp: 1600 },
      { vatClass: "zero", vatRateBp: 0 },
    ]);
    expect(after.deliveryVatRateBp).toBe(1600);

    const standardTotal = nappies.priceCents + after.deliveryFeeCents;
    const standardVat = includedVatCents(nappies.priceCents, 1600) + includedVatCents(after.deliveryFeeCents, 1600);
    const afterInvoice = await invoiceText(after.id);
    expect(afterInvoice).toContain(
      `${nappies.name} ${nappies.size} 1 ${formatRand(nappies.priceCents)} 16% ${formatRand(nappies.priceCents)}`,
    );
    expect(afterInvoice).toContain(
      `Standard-rated 16% ${formatRand(standardTotal - standardVat)} ${formatRand(standardVat)} ${formatRand(standardTotal)}`,
    );
    expect(afterInvoice).toContain(`Zero-rated 0% ${formatRand(pads.priceCents)} R0.00`);
    const [mail] = await t.db
      .select()
      .from(emails)
      .where(and(eq(emails.eventKey, after.id), eq(emails.kind, "order_confirmation")));
    expect(mail?.data).toMatchObject({ vatCents: standardVat, vatByRate: [{ rateBp: 1600 }, { rateBp: 0 }] });

    // The order placed before: its invoice as issued, and a credit note made now reverses at 15%.
    // A download after the first is marked a copy (decision 035); otherwise the same words.
    expect((await invoiceText(before.id)).replace(/ Copy of .+? as issued; first downloaded on [^.]+\./, "")).toBe(
      beforeInvoice,
    );
    expect(beforeInvoice).not.toContain("16%");
    const refunded = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${before.id}/refund`,
      headers: { cookie: admin.cookie },
      payload: { amountCents: beforeTotal, reason: "Damaged in transit" },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const refundId = (refunded.json() as { refunds: { id: string }[] }).refunds[0]?.id;
    const note = flat(
      await pdfText((await get(`/api/orders/${before.id}/refunds/${refundId}/credit-note.pdf`)).rawPayload),
    );
    expect(note).toContain(
      `Standard-rated 15% ${formatRand(beforeTotal - beforeVat)} ${formatRand(beforeVat)} ${formatRand(beforeTotal)}`,
    );
    expect(note).toContain(`VAT credited ${formatRand(beforeVat)}`);
    expect(note).not.toContain("16%");
  });
});
