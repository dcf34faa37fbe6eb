import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "#domain/schemas/orders.js";
import { API_VERSION, apiSignature, payfastApiClient, payfastTimestamp } from "#server/payfast/api-client.js";
import { PAYFAST_SANDBOX } from "#server/platform/config.js";
import { emails, orders, payfastEmulatorRefunds, refunds } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import type { TestApp } from "../helpers/app.js";
import { buildListeningApp, payOnEmulator, placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { stockOf } from "../helpers/stock.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;

beforeAll(async () => {
  t = await buildListeningApp();
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t);
});
afterAll(() => t?.close());

/** A paid order of `quantity` units of one product (R75 delivery below R500), paid through the emulator. */
async function paidOrder(quantity = 2) {
  const line = await stockedLine(t, quantity);
  const { orderId, payfastData } = await placeTestOrder(t, shopper, [line]);
  const pfPaymentId = await payOnEmulator(t, orderId, payfastData);
  const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
  return { orderId, pfPaymentId, line, totalCents: row?.totalCents ?? 0 };
}

const refund = (orderId: string, body: Record<string, unknown>, app: TestApp = t, cookie = admin.cookie) =>
  app.app.inject({ method: "POST", url: `/api/admin/orders/${orderId}/refund`, headers: { cookie }, payload: body });

const emulatorRefunds = (pfPaymentId: string) =>
  t.db.select().from(payfastEmulatorRefunds).where(eq(payfastEmulatorRefunds.pfPaymentId, pfPaymentId));

const refundMails = (orderId: string) =>
  t.db
    .select()
    .from(emails)
    .where(and(eq(emails.kind, "order_refunded"), sql`${emails.data}->>'orderId' = ${orderId}`));

describe("admin cancel", () => {
  it("cancels a pending order with the admin's reason and releases its held stock", async () => {
    const line = await stockedLine(t, 3);
    const before = await stockOf(t.db, line.id, line.size);
    const { orderId } = await placeTestOrder(t, shopper, [line]);
    expect((await stockOf(t.db, line.id, line.size))?.held).toBe((before?.held ?? 0) + 3);

    const cancelled = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/cancel`,
      headers: { cookie: admin.cookie },
      payload: { reason: "Customer phoned to cancel" },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const body = cancelled.json() as Order;
    expect(body.status).toBe("cancelled");
    expect(body.cancelReason).toBe("admin");
    expect(body.cancelNote).toBe("Customer phoned to cancel");
    expect(await stockOf(t.db, line.id, line.size)).toEqual(before);
  });

  it("refuses to cancel a paid order, or without a reason, and changes nothing", async () => {
    const { orderId } = await paidOrder(1);
    const paid = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/cancel`,
      headers: { cookie: admin.cookie },
      payload: { reason: "Changed my mind" },
    });
    expect(paid.statusCode).toBe(409);
    expect(paid.json()).toMatchObject({ code: "ORDER_STATUS_CONFLICT" });
    const blank = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/cancel`,
      headers: { cookie: admin.cookie },
      payload: { reason: "  " },
    });
    expect(blank.statusCode).toBe(400);
    const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row?.status).toBe("completed");
  });

  it("refuses a customer", async () => {
    const { orderId } = await placeTestOrder(t, shopper, [await stockedLine(t, 1)]);
    const response = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/cancel`,
      headers: shopper.headers,
      payload: { reason: "Mine" },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe("refunds through PayFast's Refunds API (the emulator)", () => {
  it("refunds part of a paid order, then the rest, and the order becomes refunded", async () => {
    const { orderId, pfPaymentId, totalCents } = await paidOrder(2);
    const first = await refund(orderId, { amountCents: 5_000, reason: "One pack arrived damaged", restock: false });
    expect(first.statusCode, first.body).toBe(200);
    const partly = first.json() as Order;
    expect(partly.status).toBe("completed");
    expect(partly.refunded).toBe("50.00");
    expect(partly.refunds).toEqual([
      expect.objectContaining({
        amount: "50.00",
        status: "completed",
        creditNoteNumber: expect.stringMatching(/^CN-\d{6}$/),
      }),
    ]);
    expect((await emulatorRefunds(pfPaymentId)).map((row) => row.amountCents)).toEqual([5_000]);

    const rest = await refund(orderId, {
      amountCents: totalCents - 5_000,
      reason: "Returned the rest",
      restock: false,
    });
    expect(rest.statusCode, rest.body).toBe(200);
    const full = rest.json() as Order;
    expect(full.status).toBe("refunded");
    expect(full.refunded).toBe(full.total);
    expect(full.refunds.map((entry) => entry.status)).toEqual(["completed", "completed"]);
    expect((await emulatorRefunds(pfPaymentId)).reduce((sum, row) => sum + row.amountCents, 0)).toBe(totalCents);
    // Each refund writes one e-mail to the customer, with its credit note number.
    const mails = await refundMails(orderId);
    expect(mails).toHaveLength(2);
    expect(mails.map((mail) => mail.data.creditNoteNumber).sort()).toEqual(
      full.refunds.map((entry) => entry.creditNoteNumber).sort(),
    );

    // The customer sees both in the order history.
    const history = await t.app.inject({
      method: "GET",
      url: `/api/users/${shopper.user.id}/orders`,
      headers: shopper.headers,
    });
    const seen = (history.json() as Order[]).find((order) => order.id === orderId);
    expect(seen?.status).toBe("refunded");
    expect(seen?.refunds).toHaveLength(2);
  });

  it("refuses a refund of more than is left, and changes nothing", async () => {
    const { orderId, pfPaymentId, totalCents } = await paidOrder(1);
    const over = await refund(orderId, { amountCents: totalCents + 1, reason: "Too much", restock: false });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: "REFUND_TOO_LARGE" });
    expect(await refund(orderId, { amountCents: totalCents - 100, reason: "Most of it" })).toHaveProperty(
      "statusCode",
      200,
    );
    const again = await refund(orderId, { amountCents: 101, reason: "A cent too far" });
    expect(again.statusCode).toBe(409);
    expect((again.json() as { message: string }).message).toContain("At most R1.00");
    expect((await emulatorRefunds(pfPaymentId)).map((row) => row.amountCents)).toEqual([totalCents - 100]);
    expect(await t.db.select().from(refunds).where(eq(refunds.orderId, orderId))).toHaveLength(1);
  });

  it("refunds once when two admins press Refund for the whole order at the same time", async () => {
    const { orderId, pfPaymentId, totalCents } = await paidOrder(1);
    const other = await signInAsAdmin(t);
    const answers = await Promise.all([
      refund(orderId, { amountCents: totalCents, reason: "Duplicate order" }),
      refund(orderId, { amountCents: totalCents, reason: "Duplicate order" }, t, other.cookie),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    expect(["REFUND_IN_PROGRESS", "REFUND_TOO_LARGE"]).toContain(refused?.json().code);
    expect(await emulatorRefunds(pfPaymentId)).toHaveLength(1);
    expect(await refundMails(orderId)).toHaveLength(1);
  });

  it("shows PayFast's refusal to the admin and changes nothing", async () => {
    const { orderId, pfPaymentId, line } = await paidOrder(1);
    const stockBefore = await stockOf(t.db, line.id, line.size);
    t.app.payfastEmulator?.refuseRefunds(pfPaymentId, "Refunds are not enabled on this merchant account.");
    const refused = await refund(orderId, { amountCents: 1_000, reason: "Late delivery", restock: true });
    t.app.payfastEmulator?.refuseRefunds(pfPaymentId, null);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: "PAYFAST_REFUSED",
      message: "PayFast refused the refund: Refunds are not enabled on this merchant account.",
    });
    const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row?.status).toBe("completed");
    expect(row?.stockState).toBe("sold");
    expect(await stockOf(t.db, line.id, line.size)).toEqual(stockBefore);
    expect(await emulatorRefunds(pfPaymentId)).toHaveLength(0);
    expect(await refundMails(orderId)).toHaveLength(0);
    const [failed] = await t.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(failed).toMatchObject({ status: "failed", creditNoteNumber: null });
    expect(failed?.payfastMessage).toBe("Refunds are not enabled on this merchant account.");
    // The customer sees neither the refused refund nor PayFast's words; the admin sees both.
    const asCustomer = await t.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}`,
      headers: { cookie: shopper.cookie },
    });
    expect(asCustomer.json().refunds).toEqual([]);
    const history = await t.app.inject({
      method: "GET",
      url: `/api/users/${shopper.user.id}/orders`,
      headers: { cookie: shopper.cookie },
    });
    expect(JSON.stringify(history.json())).not.toContain("Refunds are not enabled");
    const asAdmin = await t.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}`,
      headers: { cookie: admin.cookie },
    });
    expect(asAdmin.json().refunds).toEqual([
      expect.objectContaining({
        status: "failed",
        payfastMessage: "Refunds are not enabled on this merchant account.",
      }),
    ]);
  });

  it("returns the units to stock when asked, once, whatever the number of refunds", async () => {
    const { orderId, line, totalCents } = await paidOrder(3);
    const before = await stockOf(t.db, line.id, line.size);
    expect(await refund(orderId, { amountCents: 1_000, reason: "Returned unopened", restock: true })).toHaveProperty(
      "statusCode",
      200,
    );
    expect((await stockOf(t.db, line.id, line.size))?.quantity).toBe((before?.quantity ?? 0) + 3);
    expect(
      await refund(orderId, { amountCents: totalCents - 1_000, reason: "The rest", restock: true }),
    ).toHaveProperty("statusCode", 200);
    expect((await stockOf(t.db, line.id, line.size))?.quantity).toBe((before?.quantity ?? 0) + 3);
  });

  it("refuses to refund an unpaid order, and a bad body, with a clear 4xx", async () => {
    const { orderId } = await placeTestOrder(t, shopper, [await stockedLine(t, 1)]);
    const unpaid = await refund(orderId, { amountCents: 100, reason: "Nothing paid" });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json()).toMatchObject({ code: "ORDER_STATUS_CONFLICT" });
    for (const body of [
      { amountCents: 0, reason: "Zero" },
      { amountCents: 10.5, reason: "Half a cent" },
      { amountCents: 100, reason: "no" },
      { amountCents: "100", reason: "Text" },
      { amountCents: 100, reason: "Fine", restock: "yes" },
    ]) {
      const answer = await refund(orderId, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    }
  });

  it("settles a refund a crash left requested from PayFast's own balance, so it is never made twice", async () => {
    const { orderId, pfPaymentId, totalCents } = await paidOrder(1);
    // The shop wrote the refund as requested and PayFast made it, then the shop died before recording it.
    const [left] = await t.db
      .insert(refunds)
      .values({ orderId, amountCents: 2_000, reason: "Crashed", createdAt: new Date(Date.now() - 5 * 60_000) })
      .returning({ id: refunds.id });
    await t.db.insert(payfastEmulatorRefunds).values({ pfPaymentId, amountCents: 2_000, reason: "Crashed" });

    const over = await refund(orderId, { amountCents: totalCents - 1_999, reason: "The rest and a cent" });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: "REFUND_TOO_LARGE" });
    const [settled] = await t.db
      .select()
      .from(refunds)
      .where(eq(refunds.id, left?.id ?? ""));
    expect(settled?.status).toBe("completed");
    expect(settled?.creditNoteNumber).not.toBeNull();

    const rest = await refund(orderId, { amountCents: totalCents - 2_000, reason: "The rest" });
    expect(rest.statusCode, rest.body).toBe(200);
    expect((rest.json() as Order).status).toBe("refunded");
    expect((await emulatorRefunds(pfPaymentId)).reduce((sum, row) => sum + row.amountCents, 0)).toBe(totalCents);
  });

  it("keeps the refund state across a restart: a second instance sees it and refuses what is no longer there", async () => {
    const { orderId, pfPaymentId, totalCents } = await paidOrder(1);
    expect(await refund(orderId, { amountCents: 3_000, reason: "Before the restart" })).toHaveProperty(
      "statusCode",
      200,
    );
    const second = await buildListeningApp({}, t.databaseUrl);
    try {
      const seen = await second.app.inject({
        method: "GET",
        url: `/api/orders/${orderId}`,
        headers: { cookie: admin.cookie },
      });
      expect(seen.statusCode).toBe(200);
      expect((seen.json() as Order).refunds).toEqual([
        expect.objectContaining({ amount: "30.00", status: "completed" }),
      ]);
      const query = await payfastApiClient(second.app.config).refundQuery(pfPaymentId);
      expect(query).toMatchObject({ status: "REFUNDABLE", availableCents: totalCents - 3_000 });
      const over = await refund(orderId, { amountCents: totalCents - 2_999, reason: "Too much" }, second);
      expect(over.json()).toMatchObject({ code: "REFUND_TOO_LARGE" });
      const rest = await refund(orderId, { amountCents: totalCents - 3_000, reason: "After the restart" }, second);
      expect((rest.json() as Order).status).toBe("refunded");
    } finally {
      await second.close();
    }
  });
});

describe("the emulator's Refunds API", () => {
  const base = () => `${t.app.config.payfast.apiUrl}`;

  function signedHeaders(values: Record<string, string>, passphrase: string = PAYFAST_SANDBOX.passphrase) {
    const headers: Record<string, string> = {
      "merchant-id": PAYFAST_SANDBOX.merchantId,
      version: API_VERSION,
      timestamp: payfastTimestamp(new Date()),
    };
    headers.signature = apiSignature({ ...headers, ...values }, passphrase);
    return headers;
  }

  it("answers 401 'Merchant authorisation failed.' to a query or a refund with a wrong signature", async () => {
    const { pfPaymentId } = await paidOrder(1);
    const query = await fetch(`${base()}/refunds/query/${pfPaymentId}`, { headers: signedHeaders({}, "wrong") });
    expect(query.status).toBe(401);
    expect(await query.json()).toMatchObject({ code: 401, data: { response: "Merchant authorisation failed." } });
    const body = { amount: 100, reason: "Signed with the wrong amount", notify_buyer: 0 };
    const create = await fetch(`${base()}/refunds/${pfPaymentId}`, {
      method: "POST",
      headers: {
        ...signedHeaders({ amount: "1", reason: body.reason, notify_buyer: "0" }),
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    });
    expect(create.status).toBe(401);
    expect(await emulatorRefunds(pfPaymentId)).toHaveLength(0);
  });

  it("says what can be refunded, and refuses an unknown payment or more than is left in PayFast's error shape", async () => {
    const { pfPaymentId, totalCents } = await paidOrder(1);
    const api = payfastApiClient(t.app.config);
    expect(await api.refundQuery(pfPaymentId)).toEqual({
      status: "REFUNDABLE",
      originalCents: totalCents,
      availableCents: totalCents,
      errors: [],
      fullMethod: "PAYMENT_SOURCE",
      partialMethod: "PAYMENT_SOURCE",
    });
    expect(await api.createRefund(pfPaymentId, { amountCents: totalCents + 1, reason: "Too much" })).toEqual({
      ok: false,
      message: `The refund amount exceeds the amount available for refund (${totalCents} cents).`,
    });
    expect(await api.createRefund("999999999", { amountCents: 100, reason: "Nobody" })).toEqual({
      ok: false,
      message: "Transaction not found.",
    });
    expect(await api.createRefund(pfPaymentId, { amountCents: totalCents, reason: "All" })).toEqual({ ok: true });
    expect(await api.refundQuery(pfPaymentId)).toMatchObject({ status: "COMPLETED", availableCents: 0 });
  });
});
