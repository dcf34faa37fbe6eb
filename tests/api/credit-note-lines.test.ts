import { parse } from "csv-parse/sync";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRand } from "#domain/money.js";
import { saDay } from "#domain/sa-calendar.js";
import type { Order } from "#domain/schemas/orders.js";
import type { OrderReturns, ReturnRequest } from "#domain/schemas/returns.js";
import type { VatReport, VatReportRate } from "#domain/schemas/vat-report.js";
import { auditLog, documentCounters, orderItems, orders, refundLines, refunds } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import type { TestApp } from "../helpers/app.js";
import { pdfText } from "../helpers/pdf.js";
import { buildListeningApp, payOnEmulator, placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

/**
 * Credit notes for the lines that came back (docs/decisions/036, VAT Act s21): a refund records the
 * lines and units it credits, and its credit note and the VAT report reverse each at its own rate.
 */

let t: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;

beforeAll(async () => {
  t = await buildListeningApp({ SHOP_VAT_NUMBER: "4123456789" });
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t, { fullName: "Thandi Mokoena" });
});
afterAll(() => t?.close());

const headers = () => ({ cookie: admin.cookie });
const get = (url: string) => t.app.inject({ method: "GET", url, headers: headers() });
const flat = (text: string) => text.replace(/\s+/g, " ");
/** VAT in a VAT-inclusive amount at 15%, rounded to the cent (no whole-cent amount holds an exact half). */
const vat15 = (cents: number) => Math.round((cents * 15) / 115);
const month = () => saDay(new Date()).slice(0, 7);

async function report(): Promise<VatReport> {
  const answer = await get(`/api/admin/vat-report?from=${month()}&months=1`);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as VatReport;
}
const credits = (rates: readonly VatReportRate[], vatClass: "zero" | "standard") =>
  rates.find((rate) => rate.vatClass === vatClass) ?? { exclCents: 0, vatCents: 0, totalCents: 0 };

/** The CSV's rows of one document: its VAT rate label and its figures, as printed. */
async function csvRowsOf(documentNumber: string): Promise<string[][]> {
  const csv = await get(`/api/admin/vat-report.csv?from=${month()}&months=1`);
  expect(csv.statusCode).toBe(200);
  const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
  return rows
    .filter((row) => row.Document === documentNumber)
    .map((row) => [row["VAT rate"] ?? "", row["Excl. VAT (R)"] ?? "", row["VAT (R)"] ?? "", row["Total (R)"] ?? ""]);
}

const creditNoteText = async (orderId: string, refundId: string) => {
  const pdf = await get(`/api/orders/${orderId}/refunds/${refundId}/credit-note.pdf`);
  expect(pdf.statusCode, pdf.body).toBe(200);
  return flat(await pdfText(pdf.rawPayload));
};

/** A paid order of pads (0%) and nappies (15%), with R75 delivery, and its lines' ids. */
async function mixedOrder(padUnits: number) {
  const pads = await stockedLine(t, padUnits, 0, "zero");
  const nappies = await stockedLine(t, 1, 0, "standard");
  const { orderId, payfastData } = await placeTestOrder(t, shopper, [pads, nappies]);
  await payOnEmulator(t, orderId, payfastData);
  const [order] = await t.db.select().from(orders).where(eq(orders.id, orderId));
  const items = await t.db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position));
  const [padLine, nappyLine] = items;
  if (!order || !padLine || !nappyLine) throw new Error("no order");
  expect([padLine.vatClass, nappyLine.vatClass]).toEqual(["zero", "standard"]);
  return { order, pads, nappies, padLine, nappyLine };
}

/** Ships the order and records its delivery yesterday: the customer may return goods. */
async function delivered(orderId: string) {
  const shipped = await t.app.inject({
    method: "PATCH",
    url: `/api/admin/orders/${orderId}/status`,
    headers: headers(),
    payload: { status: "processed" },
  });
  expect(shipped.statusCode, shipped.body).toBe(200);
  const done = await t.app.inject({
    method: "POST",
    url: `/api/admin/orders/${orderId}/delivered`,
    headers: headers(),
    payload: { deliveredOn: saDay(new Date()) },
  });
  expect(done.statusCode, done.body).toBe(200);
}

/** The customer returns `quantity` units of a line (changed mind), the admin accepts, receives and refunds it. */
async function returnAndRefund(orderId: string, orderItemId: number, quantity: number): Promise<string> {
  const returns = (
    await t.app.inject({ method: "GET", url: `/api/orders/${orderId}/returns`, headers: shopper.headers })
  ).json() as OrderReturns;
  const line = returns.lines.find((candidate) => candidate.lineId === orderItemId);
  expect(line, "the line is returnable").toBeDefined();
  const asked = await t.app.inject({
    method: "POST",
    url: `/api/orders/${orderId}/returns`,
    headers: shopper.headers,
    payload: { reason: "changed_mind", lines: [{ lineId: orderItemId, quantity }] },
  });
  expect(asked.statusCode, asked.body).toBe(201);
  const request = asked.json() as ReturnRequest;
  const step = (action: string, body: Record<string, unknown> = {}) =>
    t.app.inject({
      method: "POST",
      url: `/api/admin/returns/${request.id}/${action}`,
      headers: headers(),
      payload: body,
    });
  expect((await step("accept", { note: "Drop it at the courier." })).statusCode).toBe(200);
  expect((await step("receive", { restock: [] })).statusCode).toBe(200);
  const refunded = await step("refund");
  expect(refunded.statusCode, refunded.body).toBe(200);
  const [refund] = await t.db
    .select()
    .from(refunds)
    .where(and(eq(refunds.returnRequestId, request.id), eq(refunds.status, "completed")));
  if (!refund) throw new Error("no refund");
  return refund.id;
}

const refund = (orderId: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: "POST", url: `/api/admin/orders/${orderId}/refund`, headers: headers(), payload });

describe("a return of some lines of a mixed order", () => {
  it("credits a returned pack of pads at 0%, and the VAT report moves only the 0% line", async () => {
    const { order, pads, padLine } = await mixedOrder(2);
    await delivered(order.id);
    const before = await report();

    const refundId = await returnAndRefund(order.id, padLine.id, 1);

    const [stored] = await t.db.select().from(refunds).where(eq(refunds.id, refundId));
    expect(stored).toMatchObject({ amountCents: pads.priceCents, vatBasis: "lines", deliveryCents: 0 });
    expect(await t.db.select().from(refundLines).where(eq(refundLines.refundId, refundId))).toEqual([
      { refundId, orderItemId: padLine.id, quantity: 1, amountCents: pads.priceCents },
    ]);

    const text = await creditNoteText(order.id, refundId);
    const price = formatRand(pads.priceCents);
    expect(text).toContain(`Zero-rated 0% ${price} R0.00 ${price}`);
    expect(text).toContain("VAT credited R0.00");
    expect(text).toContain(`Total credited (VAT inclusive) ${price}`);
    expect(text).toContain(`1 x ${pads.name} (${pads.size}), 0% ${price}`);
    expect(text).toContain("line by line");
    // Before, the pack's price was spread over the nappies and the delivery fee too: 15% VAT never charged.
    expect(text).not.toContain("Standard-rated");

    const after = await report();
    expect(after.creditNotes).toBe(before.creditNotes + 1);
    expect(credits(after.credits, "zero")).toEqual({
      ...credits(before.credits, "zero"),
      ...(credits(before.credits, "zero").totalCents === 0 ? { vatClass: "zero", rateBp: 0, rate: "0%" } : {}),
      exclCents: credits(before.credits, "zero").exclCents + pads.priceCents,
      vatCents: 0,
      totalCents: credits(before.credits, "zero").totalCents + pads.priceCents,
    });
    expect(credits(after.credits, "standard")).toEqual(credits(before.credits, "standard"));

    const [note] = await t.db.select().from(refunds).where(eq(refunds.id, refundId));
    const number = `CN-${String(note?.creditNoteNumber).padStart(6, "0")}`;
    const amount = (pads.priceCents / 100).toFixed(2);
    expect(await csvRowsOf(number)).toEqual([["Zero-rated 0%", `-${amount}`, "0.00", `-${amount}`]]);
  });

  it("reverses exactly the VAT of returned nappies, to the cent, and nothing at 0%", async () => {
    const { order, nappies, nappyLine } = await mixedOrder(2);
    await delivered(order.id);
    const before = await report();

    const refundId = await returnAndRefund(order.id, nappyLine.id, 1);

    const vat = vat15(nappies.priceCents);
    const text = await creditNoteText(order.id, refundId);
    expect(text).toContain(
      `Standard-rated 15% ${formatRand(nappies.priceCents - vat)} ${formatRand(vat)} ${formatRand(nappies.priceCents)}`,
    );
    expect(text).toContain(`VAT credited ${formatRand(vat)}`);
    expect(text).not.toContain("Zero-rated");

    const after = await report();
    expect(credits(after.credits, "standard").vatCents).toBe(credits(before.credits, "standard").vatCents + vat);
    expect(credits(after.credits, "standard").totalCents).toBe(
      credits(before.credits, "standard").totalCents + nappies.priceCents,
    );
    expect(credits(after.credits, "zero")).toEqual(credits(before.credits, "zero"));

    const [note] = await t.db.select().from(refunds).where(eq(refunds.id, refundId));
    const number = `CN-${String(note?.creditNoteNumber).padStart(6, "0")}`;
    expect(await csvRowsOf(number)).toEqual([
      [
        "Standard-rated 15%",
        `-${((nappies.priceCents - vat) / 100).toFixed(2)}`,
        `-${(vat / 100).toFixed(2)}`,
        `-${(nappies.priceCents / 100).toFixed(2)}`,
      ],
    ]);
  });
});

describe("the admin's refund of chosen lines", () => {
  it("credits the nappies and the delivery fee each at its own rate, then a goodwill amount spread over what is left", async () => {
    const { order, pads, nappies, padLine, nappyLine } = await mixedOrder(3);
    const answer = await refund(order.id, {
      reason: "Nappies arrived torn",
      lines: [{ orderItemId: nappyLine.id, quantity: 1 }],
      deliveryCents: order.deliveryFeeCents,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const [made] = (answer.json() as Order).refunds;
    if (!made) throw new Error("no refund");
    const amount = nappies.priceCents + order.deliveryFeeCents;
    expect(made.amount).toBe((amount / 100).toFixed(2));
    const vat = vat15(nappies.priceCents) + vat15(order.deliveryFeeCents);
    const text = await creditNoteText(order.id, made.id);
    expect(text).toContain(`Standard-rated 15% ${formatRand(amount - vat)} ${formatRand(vat)} ${formatRand(amount)}`);
    expect(text).not.toContain("Zero-rated");
    expect(text).toContain(`1 x ${nappies.name} (${nappies.size}), 15% ${formatRand(nappies.priceCents)}`);
    expect(text).toContain(`Delivery, 15% ${formatRand(order.deliveryFeeCents)}`);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "order.refunded"), eq(auditLog.subjectId, order.id)));
    expect(audit?.after).toMatchObject({ vatBasis: "lines", deliveryCents: order.deliveryFeeCents });

    // A goodwill R10 with no lines chosen: spread over what is left, which is only pads now (0%).
    const goodwill = await refund(order.id, { amountCents: 1_000, reason: "Sorry for the wait" });
    expect(goodwill.statusCode, goodwill.body).toBe(200);
    const second = (goodwill.json() as Order).refunds[1];
    const [stored] = await t.db
      .select()
      .from(refunds)
      .where(eq(refunds.id, second?.id ?? ""));
    expect(stored).toMatchObject({ vatBasis: "proportional", deliveryCents: 0 });
    expect(
      await t.db
        .select()
        .from(refundLines)
        .where(eq(refundLines.refundId, second?.id ?? "")),
    ).toEqual([{ refundId: second?.id, orderItemId: padLine.id, quantity: 0, amountCents: 1_000 }]);
    expect(await creditNoteText(order.id, second?.id ?? "")).toContain("Zero-rated 0% R10.00 R0.00 R10.00");

    // The pads' three packs are still to credit; their last pack takes what the goodwill left.
    const rest = await refund(order.id, { reason: "Returned", lines: [{ orderItemId: padLine.id, quantity: 3 }] });
    expect(rest.statusCode, rest.body).toBe(200);
    expect((rest.json() as Order).status).toBe("refunded");
    expect((rest.json() as Order).refunds[2]?.amount).toBe(((pads.priceCents * 3 - 1_000) / 100).toFixed(2));
  });

  it("refuses lines the order does not have, or has no more of, with a code, and changes nothing", async () => {
    const { order, pads, padLine, nappyLine } = await mixedOrder(1);
    const other = await mixedOrder(1);
    expect(
      (await refund(order.id, { reason: "Returned", lines: [{ orderItemId: padLine.id, quantity: 1 }] })).statusCode,
    ).toBe(200);

    const cases: [Record<string, unknown>, number, string][] = [
      [{ lines: [{ orderItemId: padLine.id, quantity: 1 }] }, 409, "REFUND_LINE_TOO_LARGE"],
      [{ lines: [{ orderItemId: nappyLine.id, quantity: 2 }] }, 409, "REFUND_LINE_TOO_LARGE"],
      [{ lines: [{ orderItemId: nappyLine.id, quantity: 1, amountCents: 10_000_000 }] }, 409, "REFUND_LINE_TOO_LARGE"],
      [{ deliveryCents: order.deliveryFeeCents + 1 }, 409, "REFUND_LINE_TOO_LARGE"],
      [{ lines: [{ orderItemId: other.nappyLine.id, quantity: 1 }] }, 400, "REFUND_LINE_UNKNOWN"],
      [{ lines: [{ orderItemId: nappyLine.id, quantity: 1 }], amountCents: 1 }, 400, "REFUND_LINES_MISMATCH"],
      [{ lines: [{ orderItemId: nappyLine.id, quantity: 0 }] }, 400, "VALIDATION_FAILED"],
      [{ lines: [{ orderItemId: nappyLine.id, quantity: 1, amountCents: -1 }] }, 400, "VALIDATION_FAILED"],
      [{ deliveryCents: -5 }, 400, "VALIDATION_FAILED"],
      [{ lines: [{ orderItemId: nappyLine.id, quantity: 1, amountCents: 0 }] }, 400, "VALIDATION_FAILED"],
      [{ lines: [] }, 400, "VALIDATION_FAILED"],
      [{ lines: [{ orderItemId: "one", quantity: 1 }] }, 400, "VALIDATION_FAILED"],
    ];
    for (const [body, status, code] of cases) {
      const answer = await refund(order.id, { reason: "Returned", ...body });
      expect(answer.statusCode, JSON.stringify(body)).toBe(status);
      expect(answer.json(), JSON.stringify(body)).toMatchObject({ code, message: expect.any(String) });
    }
    const made = await t.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(made.map((row) => [row.status, row.amountCents])).toEqual([["completed", pads.priceCents]]);
  });
});

/** A download after the first carries "Copy of ... as issued; first downloaded on ..." (decision 035). */
const withoutCopyMark = (text: string) => text.replace(/ Copy of .+? as issued; first downloaded on [^.]+\./, "");

describe("refunds made before lines were recorded", () => {
  it("keep the VAT their credit notes said: the amount spread over every line", async () => {
    const { order, pads, nappies } = await mixedOrder(1);
    // A refund from before this change: an amount, no lines (the migration marks them "legacy"), numbered in turn.
    const [counter] = await t.db
      .update(documentCounters)
      .set({ last: sql`${documentCounters.last} + 1` })
      .where(eq(documentCounters.series, "credit_note"))
      .returning();
    const [legacy] = await t.db
      .insert(refunds)
      .values({
        orderId: order.id,
        amountCents: 10_000,
        reason: "Old refund",
        status: "completed",
        creditNoteNumber: counter?.last,
        completedAt: new Date(),
      })
      .returning();
    expect(legacy?.vatBasis).toBe("legacy");
    const text = await creditNoteText(order.id, legacy?.id ?? "");
    // 10000 over pads, nappies and delivery in proportion (largest remainder), as decision 017 did.
    const total = pads.priceCents + nappies.priceCents + order.deliveryFeeCents;
    const padShare = Math.floor((10_000 * pads.priceCents) / total);
    expect(text).toContain("Zero-rated 0%");
    expect(text).toContain("Standard-rated 15%");
    expect(text).toContain("Refund: Old refund R100.00");
    expect(text).toContain("in proportion to its lines");
    expect(
      Math.abs(Number(/Zero-rated 0% R([\d,.]+)/.exec(text)?.[1]?.replace(/,/g, "")) * 100 - padShare),
    ).toBeLessThanOrEqual(1);

    // A later refund of lines credits what the legacy one left of them.
    const answer = await refund(order.id, {
      reason: "Returned",
      lines: [
        {
          orderItemId: (
            await t.db
              .select()
              .from(orderItems)
              .where(eq(orderItems.orderId, order.id))
              .orderBy(asc(orderItems.position))
          )[0]?.id,
          quantity: 1,
        },
      ],
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const made = (answer.json() as Order).refunds.find((row) => row.id !== legacy?.id);
    const left = Number(made?.amount) * 100;
    expect(left).toBeGreaterThanOrEqual(pads.priceCents - padShare - 1);
    expect(left).toBeLessThanOrEqual(pads.priceCents - padShare + 1);
    expect(await creditNoteText(order.id, made?.id ?? "")).not.toContain("Standard-rated");
    // The old credit note reads the same after the new one (this second download marked a copy).
    const again = await creditNoteText(order.id, legacy?.id ?? "");
    expect(again).toContain(`Copy of Tax Credit Note ${/CN-\d+/.exec(text)?.[0]} as issued`);
    expect(withoutCopyMark(again)).toBe(text);
  });
});
