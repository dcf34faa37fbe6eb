import { Writable } from "node:stream";
import { parse } from "csv-parse/sync";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "#domain/schemas/orders.js";
import type { AttentionItem } from "#domain/schemas/payments.js";
import type { SubjectSource } from "#server/mail/subjects.js";
import { documentIssuer } from "#server/orders/issued-documents.js";
import { type PayfastApi, PayfastApiError, sastDate } from "#server/payfast/api-client.js";
import { reconcilePayfast } from "#server/payments/reconcile.js";
import { auditLog, emails, orders, payfastEmulatorRefunds, payfastItns, refunds } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { LIVE_COURIER, LIVE_SELLER, LIVE_TOTP_KEY } from "../helpers/live-seller.js";
import { withSubjects } from "../helpers/outbox.js";
import {
  buildListeningApp,
  completeOnEmulator,
  payOnEmulator,
  placeTestOrder,
  stockedLine,
} from "../helpers/refunds.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";
import { waitFor } from "../helpers/wait.js";

/**
 * Every way PayFast can say no, driven through the emulator's controls over real HTTP: the shop
 * never lets a payment or a refund wait in silence (docs/payfast.md, "Every outcome").
 */

let t: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;

beforeAll(async () => {
  t = await buildListeningApp();
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t);
});
afterAll(() => t?.close());
afterEach(() => {
  const emulator = t.app.payfastEmulator as NonNullable<typeof t.app.payfastEmulator>;
  emulator.failValidation("normal");
  emulator.failApi(false);
  emulator.signZeroValues("signed");
});

async function attention(app: TestApp, cookie: string): Promise<AttentionItem[]> {
  const response = await app.app.inject({ method: "GET", url: "/api/admin/payments/attention", headers: { cookie } });
  expect(response.statusCode).toBe(200);
  return (response.json() as { items: AttentionItem[] }).items;
}

const orderRow = async (app: TestApp, id: string) => (await app.db.select().from(orders).where(eq(orders.id, id)))[0];
const itnOutcomes = async (app: TestApp, orderId: string) =>
  (await app.db.select().from(payfastItns).where(eq(payfastItns.orderId, orderId)).orderBy(asc(payfastItns.id))).map(
    (row) => row.outcome,
  );

const checkWithPayfast = (app: TestApp, orderId: string, cookie: string) =>
  app.app.inject({ method: "POST", url: `/api/admin/orders/${orderId}/check-payfast`, headers: { cookie } });

/** An order placed by the shopper; the emulator takes its payment and notifies the shop (whatever the shop then makes of it). */
async function orderPaidOnEmulator(app: TestApp, buyer: LoggedInUser) {
  const line = await stockedLine(app, 1);
  const { orderId, payfastData } = await placeTestOrder(app, buyer, [line]);
  await completeOnEmulator(app, payfastData);
  return orderId;
}

describe("PayFast's validate endpoint fails", () => {
  for (const [mode, detail] of [
    ["403", /HTTP 403/],
    ["INVALID", /HTTP 200 "INVALID"/],
  ] as const) {
    it(`answering ${mode}: the order waits in Needs attention, and Check with PayFast books it`, async () => {
      t.app.payfastEmulator?.failValidation(mode);
      const orderId = await orderPaidOnEmulator(t, shopper);
      expect(await itnOutcomes(t, orderId)).toEqual(["unconfirmed"]);
      expect((await orderRow(t, orderId))?.status).toBe("pending");

      const [item] = (await attention(t, admin.cookie)).filter((candidate) => candidate.orderId === orderId);
      expect(item).toMatchObject({ kind: "unconfirmed", label: "Payment not confirmed", checkable: true });
      expect(item?.detail).toMatch(detail);

      const checked = await checkWithPayfast(t, orderId, admin.cookie);
      expect(checked.statusCode, checked.body).toBe(200);
      expect(checked.json()).toMatchObject({ outcome: "paid", order: { status: "completed", paidBy: "reconcile" } });
      expect((await attention(t, admin.cookie)).some((candidate) => candidate.orderId === orderId)).toBe(false);
    });
  }

  it("not answering within 5 s: recorded as unconfirmed with the timeout", { timeout: 30_000 }, async () => {
    t.app.payfastEmulator?.failValidation("timeout");
    const orderId = await orderPaidOnEmulator(t, shopper);
    const [item] = (await attention(t, admin.cookie)).filter((candidate) => candidate.orderId === orderId);
    expect(item).toMatchObject({ kind: "unconfirmed" });
    expect(item?.detail).toMatch(/timeout|aborted/i);
  });
});

describe("a genuine notification refused by validation, while PayFast's API is down too", () => {
  let fast: TestApp;
  let fastAdmin: SignedIn;
  beforeAll(async () => {
    // The reconcile job every 3 seconds; orders expire after 1.2 seconds.
    fast = await buildListeningApp({ PAYFAST_RECONCILE_MINUTES: "0.05", ORDER_HOLD_MINUTES: "0.02" });
    fastAdmin = await signInAsAdmin(fast);
  });
  afterAll(() => fast?.close());

  it("shows in Needs attention within the reconcile interval, and is booked by reconciliation once the API answers", {
    timeout: 60_000,
  }, async () => {
    const buyer = await registerAndLogin(fast);
    fast.app.payfastEmulator?.failValidation("403");
    fast.app.payfastEmulator?.failApi(true);
    const orderId = await orderPaidOnEmulator(fast, buyer);
    expect(await itnOutcomes(fast, orderId)).toEqual(["unconfirmed"]);

    // Within one interval: the notification and PayFast's silent API are both in front of the admin.
    const items = await waitFor(
      () => attention(fast, fastAdmin.cookie),
      (list) => list.some((item) => item.kind === "payfast_api_down"),
      6_000,
    );
    expect(items.map((item) => item.kind)).toEqual(expect.arrayContaining(["payfast_api_down", "unconfirmed"]));
    expect(items.find((item) => item.kind === "payfast_api_down")?.detail).toMatch(/did not answer the reconciliation/);
    // Meanwhile the order's hold runs out: it is cancelled, but stays one that could still be paid.
    await waitFor(
      () => orderRow(fast, orderId),
      (order) => order?.status === "cancelled",
    );

    fast.app.payfastEmulator?.failApi(false);
    const paid = await waitFor(
      () => orderRow(fast, orderId),
      (order) => order?.status === "completed",
      10_000,
    );
    expect(paid).toMatchObject({ status: "completed", paidBy: "reconcile" });
    const after = await waitFor(
      () => attention(fast, fastAdmin.cookie),
      (list) => !list.some((item) => item.kind === "payfast_api_down"),
      10_000,
    );
    expect(after.some((item) => item.orderId === orderId)).toBe(false);
  });
});

describe("a signed notification from an address that is not PayFast's", () => {
  let listed: TestApp;
  let listedAdmin: SignedIn;
  beforeAll(async () => {
    // The emulator posts from 127.0.0.1, outside this list: as PayFast sending from a new address.
    listed = await buildListeningApp({ PAYFAST_VALID_IPS: "197.97.145.144/28" });
    listedAdmin = await signInAsAdmin(listed);
  });
  afterAll(() => listed?.close());

  it("is booked when PayFast's confirmation says VALID", async () => {
    const buyer = await registerAndLogin(listed);
    const orderId = await orderPaidOnEmulator(listed, buyer);
    expect(await itnOutcomes(listed, orderId)).toEqual(["accepted"]);
    expect(await orderRow(listed, orderId)).toMatchObject({ status: "completed", paidBy: "itn" });
  });

  it("is refused (PayFast sends it again), shown in Needs attention, and Check with PayFast books it", async () => {
    const buyer = await registerAndLogin(listed);
    listed.app.payfastEmulator?.failValidation("INVALID");
    const orderId = await orderPaidOnEmulator(listed, buyer);
    expect(await itnOutcomes(listed, orderId)).toEqual(["source_refused"]);
    const [item] = (await attention(listed, listedAdmin.cookie)).filter((candidate) => candidate.orderId === orderId);
    expect(item).toMatchObject({ kind: "source_refused", checkable: true });
    expect(item?.detail).toMatch(/Sent from 127\.0\.0\.1, which is not a PayFast address/);
    // PayFast's records (its API) answer even while its validation does not; the emulator's resent copies keep failing.
    const checked = await checkWithPayfast(listed, orderId, listedAdmin.cookie);
    expect(checked.json()).toMatchObject({ outcome: "paid" });
    expect((await attention(listed, listedAdmin.cookie)).some((candidate) => candidate.orderId === orderId)).toBe(
      false,
    );
  });
});

describe("Check with PayFast", () => {
  it("works on a cancelled order whose payment was lost, and refuses a paid one", async () => {
    const line = await stockedLine(t, 1);
    const { orderId, payfastData } = await placeTestOrder(t, shopper, [line]);
    const lost = await t.app.inject({
      method: "POST",
      url: "/payfast-emulator/eng/complete-lost",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(payfastData).toString(),
    });
    expect(lost.statusCode).toBe(303);
    await t.pool.query("update orders set created_at = now() - interval '2 hours' where id = $1", [orderId]);
    await t.app.expireOrders();
    expect((await orderRow(t, orderId))?.status).toBe("cancelled");

    const checked = await checkWithPayfast(t, orderId, admin.cookie);
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toMatchObject({ outcome: "paid", order: { status: "completed" } });
    const again = await checkWithPayfast(t, orderId, admin.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: "ORDER_STATUS_CONFLICT" });
  });

  it("answers 502 when PayFast's API is down, changes nothing, and lists PayFast's API as not answering", async () => {
    const line = await stockedLine(t, 1);
    const { orderId } = await placeTestOrder(t, shopper, [line]);
    t.app.payfastEmulator?.failApi(true);
    const checked = await checkWithPayfast(t, orderId, admin.cookie);
    expect(checked.statusCode).toBe(502);
    expect(checked.json()).toMatchObject({ code: "PAYFAST_UNAVAILABLE" });
    expect((await orderRow(t, orderId))?.status).toBe("pending");
    expect((await attention(t, admin.cookie)).some((item) => item.kind === "payfast_api_down")).toBe(true);
    // PayFast answers again: the next check clears it.
    t.app.payfastEmulator?.failApi(false);
    expect((await checkWithPayfast(t, orderId, admin.cookie)).statusCode).toBe(200);
    expect((await attention(t, admin.cookie)).some((item) => item.kind === "payfast_api_down")).toBe(false);
  });
});

describe("PENDING, then COMPLETE", () => {
  it("holds the order's stock for ORDER_PENDING_HOLD_HOURS, says so on the order, and pays it when PayFast completes", async () => {
    const line = await stockedLine(t, 1);
    const { orderId, payfastData } = await placeTestOrder(t, shopper, [line]);
    const pending = await t.app.inject({
      method: "POST",
      url: "/payfast-emulator/eng/pending",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(payfastData).toString(),
    });
    expect(pending.statusCode).toBe(303);
    const row = await orderRow(t, orderId);
    expect(row).toMatchObject({ status: "pending", payfastStatus: "PENDING" });
    const heldFor = (row?.holdUntil?.getTime() ?? 0) - Date.now();
    expect(heldFor).toBeGreaterThan(47.9 * 3_600_000);
    expect(heldFor).toBeLessThanOrEqual(48 * 3_600_000);

    // Long past the ordinary hour, the order is still held.
    await t.pool.query("update orders set created_at = now() - interval '5 hours' where id = $1", [orderId]);
    await t.app.expireOrders();
    expect((await orderRow(t, orderId))?.status).toBe("pending");

    // The customer and the admin both see why.
    const mine = await t.app.inject({ method: "GET", url: `/api/orders/${orderId}`, headers: shopper.headers });
    expect(mine.json()).toMatchObject({ payfastStatus: "PENDING", holdUntil: row?.holdUntil?.toISOString() });
    const theirs = await t.app.inject({
      method: "GET",
      url: `/api/admin/orders/${orderId}`,
      headers: { cookie: admin.cookie },
    });
    expect(theirs.json()).toMatchObject({
      order: { payfastStatus: "PENDING", holdUntil: row?.holdUntil?.toISOString() },
    });
    // Waiting past the hour, it is listed with Check with PayFast.
    expect((await attention(t, admin.cookie)).find((item) => item.orderId === orderId)).toMatchObject({
      kind: "pending_over_an_hour",
      checkable: true,
    });

    const pfPaymentId = (
      await t.db.execute<{ pf_payment_id: string }>(
        sql`select pf_payment_id from payfast_emulator_payments where m_payment_id = ${orderId}`,
      )
    ).rows[0]?.pf_payment_id as string;
    expect(await t.app.payfastEmulator?.notifier.settlePending(pfPaymentId)).toBe(200);
    expect(await orderRow(t, orderId)).toMatchObject({ status: "completed", pfPaymentId, payfastStatus: null });
    expect(await itnOutcomes(t, orderId)).toEqual(["pending", "accepted"]);
  });

  it("lets an order whose PENDING hold ran out expire", async () => {
    const line = await stockedLine(t, 1);
    const { orderId } = await placeTestOrder(t, shopper, [line]);
    await t.pool.query(
      "update orders set created_at = now() - interval '3 days', payfast_status = 'PENDING', hold_until = now() - interval '1 minute' where id = $1",
      [orderId],
    );
    await t.app.expireOrders();
    expect((await orderRow(t, orderId))?.status).toBe("cancelled");
  });
});

/** A paid order of one unit, paid through the emulator. */
async function paidOrder() {
  const line = await stockedLine(t, 1);
  const { orderId, payfastData } = await placeTestOrder(t, shopper, [line]);
  const pfPaymentId = await payOnEmulator(t, orderId, payfastData);
  const row = await orderRow(t, orderId);
  return { orderId, pfPaymentId, totalCents: row?.totalCents ?? 0 };
}

const refund = (orderId: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/orders/${orderId}/refund`,
    headers: { cookie: admin.cookie },
    payload: body,
  });
const record = (orderId: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/orders/${orderId}/refunds/record`,
    headers: { cookie: admin.cookie },
    payload: body,
  });

describe("refunds PayFast can only make to a bank account, made in its dashboard", () => {
  it("are refused by the shop with the way to do it, found by reconciliation, and booked when recorded", async () => {
    const { orderId, pfPaymentId, totalCents } = await paidOrder();
    t.app.payfastEmulator?.refundsToBankOnly(pfPaymentId);
    // The emulator answers as PayFast does for such a payment: its query says BANK_PAYOUT, and a refund
    // without the buyer's bank details is refused.
    expect(await t.app.payfastApi.refundQuery(pfPaymentId)).toMatchObject({
      status: "REFUNDABLE",
      availableCents: totalCents,
      fullMethod: "BANK_PAYOUT",
      partialMethod: "BANK_PAYOUT",
    });
    expect(await t.app.payfastApi.createRefund(pfPaymentId, { amountCents: 100, reason: "Asked directly" })).toEqual({
      ok: false,
      message: "This payment can only be refunded to a bank account: the bank details are required.",
    });
    const refused = await refund(orderId, { amountCents: totalCents, reason: "Customer returned the order" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "PAYFAST_REFUSED" });
    expect(refused.json().message).toMatch(/bank payout; refund it from the PayFast dashboard/);

    // The admin refunds in PayFast's dashboard; the next reconciliation finds it in PayFast's history.
    await t.app.payfastEmulator?.refundInDashboard(pfPaymentId, totalCents);
    await t.app.reconcilePayfast();
    const [proposal] = (await attention(t, admin.cookie)).filter((item) => item.orderId === orderId);
    expect(proposal).toMatchObject({
      kind: "refund_in_payfast",
      amountGross: (totalCents / 100).toFixed(2),
      pfPaymentIds: [pfPaymentId],
    });
    // Asked again, it is not proposed twice.
    await t.app.reconcilePayfast();
    expect((await attention(t, admin.cookie)).filter((item) => item.orderId === orderId)).toHaveLength(1);

    const today = sastDate(new Date());
    const recorded = await record(orderId, {
      amountCents: totalCents,
      reason: "Customer returned the order",
      refundedOn: today,
      payfastReference: `PF-REF-${pfPaymentId}`,
      restock: true,
    });
    expect(recorded.statusCode, recorded.body).toBe(200);
    const order = recorded.json() as Order;
    expect(order.status).toBe("refunded");
    // The shop's own attempt stays on the order as refused; the one made in PayFast is booked.
    expect(order.refunds).toEqual([
      expect.objectContaining({ status: "failed", madeIn: "shop" }),
      expect.objectContaining({
        status: "completed",
        madeIn: "payfast_dashboard",
        payfastReference: `PF-REF-${pfPaymentId}`,
        refundedOn: today,
        creditNoteNumber: expect.stringMatching(/^CN-\d{6}$/),
      }),
    ]);
    // As the shop's own refunds: the customer's e-mail with the credit note, and the audit record.
    const mails = await t.db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, "order_refunded"), sql`${emails.data}->>'orderId' = ${orderId}`));
    expect(mails).toHaveLength(1);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "order.refund_recorded"), eq(auditLog.subjectId, orderId)));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.after).toMatchObject({ payfastReference: `PF-REF-${pfPaymentId}`, amountCents: totalCents });
    // The proposal is settled, and the credit note's PDF is the customer's.
    expect((await attention(t, admin.cookie)).some((item) => item.orderId === orderId)).toBe(false);
    const refundId = order.refunds[1]?.id;
    const pdf = await t.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}/refunds/${refundId}/credit-note.pdf`,
      headers: shopper.headers,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toMatch(/application\/pdf/);
    // The VAT report of the month carries its credit note, as it does the shop's own refunds.
    const month = today.slice(0, 7);
    const vat = await t.app.inject({
      method: "GET",
      url: `/api/admin/vat-report.csv?from=${month}&months=1`,
      headers: { cookie: admin.cookie },
    });
    expect(vat.statusCode).toBe(200);
    const creditNote = order.refunds[1]?.creditNoteNumber as string;
    const vatRows = (parse(vat.body, { columns: true }) as Record<string, string>[]).filter(
      (row) => row.Document === creditNote,
    );
    expect(vatRows.length).toBeGreaterThan(0);
    expect(vatRows.reduce((sum, row) => sum + Math.round(Number(row["Total (R)"]) * 100), 0)).toBe(-totalCents);
    // PayFast's history and the shop's books agree now: nothing new is proposed.
    await t.app.reconcilePayfast();
    expect((await attention(t, admin.cookie)).filter((item) => item.orderId === orderId)).toEqual([]);
  });

  it("refuses a second record of the same reference, a day in the future, or more than was paid, changing nothing", async () => {
    const { orderId, totalCents } = await paidOrder();
    const base = { amountCents: 100, reason: "Damaged box", refundedOn: sastDate(new Date()) };
    expect((await record(orderId, { ...base, payfastReference: `ONCE-${orderId}` })).statusCode).toBe(200);
    const twice = await record(orderId, { ...base, payfastReference: `ONCE-${orderId}` });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: "REFUND_ALREADY_RECORDED" });
    const future = await record(orderId, {
      ...base,
      payfastReference: `FUTURE-${orderId}`,
      refundedOn: sastDate(new Date(Date.now() + 2 * 86_400_000)),
    });
    expect(future.statusCode).toBe(400);
    expect(future.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    const tooMuch = await record(orderId, { ...base, amountCents: totalCents, payfastReference: `MUCH-${orderId}` });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json()).toMatchObject({ code: "REFUND_TOO_LARGE" });
    const blank = await record(orderId, { ...base, payfastReference: " " });
    expect(blank.statusCode).toBe(400);
    const rows = await t.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(rows.map((row) => row.amountCents)).toEqual([100]);
  });

  it("is proposed for the amount PayFast refunded beyond the shop's books, whenever the payment's earlier refunds were made", async () => {
    const { orderId, pfPaymentId } = await paidOrder();
    // A refund through the shop, made long before the history's window (its PayFast row as old as the shop's).
    expect((await refund(orderId, { amountCents: 200, reason: "Part of the order was late" })).statusCode).toBe(200);
    await t.pool.query(
      "update refunds set created_at = now() - interval '40 days', completed_at = now() - interval '40 days' where order_id = $1",
      [orderId],
    );
    await t.pool.query(
      "update payfast_emulator_refunds set created_at = now() - interval '40 days' where pf_payment_id = $1",
      [pfPaymentId],
    );
    // Today, a smaller refund made in PayFast's dashboard: all of it is missing from the shop's books.
    await t.app.payfastEmulator?.refundInDashboard(pfPaymentId, 150);
    await t.app.reconcilePayfast();
    const proposals = (await attention(t, admin.cookie)).filter((item) => item.orderId === orderId);
    expect(proposals).toEqual([expect.objectContaining({ kind: "refund_in_payfast", amountGross: "1.50" })]);

    // The other way round: the shop's booking is older than PayFast's row of it (PayFast made it a day later).
    const other = await paidOrder();
    expect((await refund(other.orderId, { amountCents: 300, reason: "Part of the order was late" })).statusCode).toBe(
      200,
    );
    await t.pool.query(
      "update refunds set created_at = now() - interval '40 days', completed_at = now() - interval '40 days' where order_id = $1",
      [other.orderId],
    );
    await t.app.reconcilePayfast();
    expect((await attention(t, admin.cookie)).filter((item) => item.orderId === other.orderId)).toEqual([]);
  });

  it("is proposed from the history's own figures while PayFast's refund query does not answer", async () => {
    const { orderId, pfPaymentId } = await paidOrder();
    await t.app.payfastEmulator?.refundInDashboard(pfPaymentId, 120);
    const queryDown: PayfastApi = {
      ...t.app.payfastApi,
      refundQuery: async () => {
        throw new PayfastApiError("GET /refunds/query answered 503: Service Unavailable");
      },
    };
    await reconcilePayfast({
      db: t.db,
      api: queryDown,
      log: t.app.log,
      everyMs: 60_000,
      issuer: documentIssuer(t.app.config),
    });
    expect((await attention(t, admin.cookie)).filter((item) => item.orderId === orderId)).toEqual([
      expect.objectContaining({ kind: "refund_in_payfast", amountGross: "1.20" }),
    ]);
  });

  it("is refused on an unpaid order", async () => {
    const line = await stockedLine(t, 1);
    const { orderId } = await placeTestOrder(t, shopper, [line]);
    const answer = await record(orderId, {
      amountCents: 100,
      reason: "Never paid",
      refundedOn: sastDate(new Date()),
      payfastReference: `UNPAID-${orderId}`,
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ code: "ORDER_STATUS_CONFLICT" });
  });
});

describe("the refund signature's zero value (notify_buyer=0)", () => {
  // Whichever reading of PayFast's rule its server applies, refunds (notify_buyer=0) and the
  // history (offset=0) go through: a 401 is asked once more the other way (docs/decisions/021).
  for (const rule of ["signed", "left_out"] as const) {
    it(`refunds whether PayFast's server signs a zero (${rule})`, async () => {
      const { orderId, pfPaymentId } = await paidOrder();
      t.app.payfastEmulator?.signZeroValues(rule);
      const answer = await refund(orderId, { amountCents: 100, reason: "Part of the order was late" });
      expect(answer.statusCode, answer.body).toBe(200);
      const made = await t.db
        .select()
        .from(payfastEmulatorRefunds)
        .where(eq(payfastEmulatorRefunds.pfPaymentId, pfPaymentId));
      expect(made.map((row) => row.amountCents)).toEqual([100]);
      // The history's offset=0 is a zero too.
      await expect(t.app.reconcilePayfast()).resolves.toMatchObject({ findings: [] });
    });
  }
});

describe("a refund left requested", () => {
  it("is settled by the reconciliation job from PayFast's balance: completed if PayFast made it, failed if not", async () => {
    const made = await paidOrder();
    const notMade = await paidOrder();
    // As after a crash between PayFast's answer and the shop's booking: PayFast made the first only.
    await t.app.payfastEmulator?.refundInDashboard(made.pfPaymentId, 150, "Refund through the API");
    for (const { orderId } of [made, notMade]) {
      await t.db.insert(refunds).values({
        orderId,
        amountCents: 150,
        reason: "Refund in doubt",
        status: "requested",
        createdAt: new Date(Date.now() - 5 * 60_000),
      });
    }
    await t.app.jobs.request("payfast-reconcile");
    const settled = await waitFor(
      () => t.db.select().from(refunds).where(eq(refunds.reason, "Refund in doubt")),
      (rows) => rows.every((row) => row.status !== "requested"),
    );
    expect(settled.find((row) => row.orderId === made.orderId)).toMatchObject({
      status: "completed",
      creditNoteNumber: expect.any(Number),
    });
    expect(settled.find((row) => row.orderId === notMade.orderId)).toMatchObject({ status: "failed" });
  });
});

describe("a refund PayFast will not answer about", () => {
  it("keeps no payment from being booked by the reconciliation job, and shows in Needs attention", async () => {
    // A refund in doubt on a payment PayFast's refund query does not know (404): it cannot be settled.
    const stuck = await paidOrder();
    await t.pool.query("update orders set pf_payment_id = $2 where id = $1", [stuck.orderId, `gone-${Date.now()}`]);
    const [inDoubt] = await t.db
      .insert(refunds)
      .values({
        orderId: stuck.orderId,
        amountCents: 150,
        reason: "Refund PayFast forgot",
        status: "requested",
        createdAt: new Date(Date.now() - 5 * 60_000),
      })
      .returning({ id: refunds.id });
    // Meanwhile a payment whose notification was lost.
    const line = await stockedLine(t, 1);
    const { orderId, payfastData } = await placeTestOrder(t, shopper, [line]);
    const lost = await t.app.inject({
      method: "POST",
      url: "/payfast-emulator/eng/complete-lost",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(payfastData).toString(),
    });
    expect(lost.statusCode).toBe(303);
    await t.pool.query("update orders set created_at = now() - interval '10 minutes' where id = $1", [orderId]);
    try {
      await t.app.jobs.request("payfast-reconcile");
      expect(
        await waitFor(
          () => orderRow(t, orderId),
          (order) => order?.status === "completed",
        ),
      ).toMatchObject({ status: "completed", paidBy: "reconcile" });
      const problem = await waitFor(
        () => attention(t, admin.cookie),
        (items) => items.some((item) => item.kind === "payfast_api_down"),
      );
      expect(problem.find((item) => item.kind === "payfast_api_down")?.detail).toMatch(
        /a refund in doubt on order #\S+: PayFast could not be reached to check an earlier refund/,
      );
      expect(
        (
          await t.db
            .select()
            .from(refunds)
            .where(eq(refunds.id, inDoubt?.id as string))
        )[0]?.status,
      ).toBe("requested");
    } finally {
      await t.db.delete(refunds).where(eq(refunds.id, inDoubt?.id as string));
    }
  });
});

describe("PayFast's API down", () => {
  it("puts it in Needs attention at the reconciliation, and clears it once PayFast answers", async () => {
    t.app.payfastEmulator?.failApi(true);
    await t.app.jobs.request("payfast-reconcile");
    const down = await waitFor(
      () => attention(t, admin.cookie),
      (items) => items.some((item) => item.kind === "payfast_api_down"),
    );
    expect(down.find((item) => item.kind === "payfast_api_down")).toMatchObject({
      resolvable: false,
      checkable: false,
    });
    t.app.payfastEmulator?.failApi(false);
    await t.app.jobs.request("payfast-reconcile");
    const up = await waitFor(
      () => attention(t, admin.cookie),
      (items) => !items.some((item) => item.kind === "payfast_api_down"),
    );
    expect(up.some((item) => item.kind === "payfast_api_down")).toBe(false);
  });
});

describe("problems reaching PayFast", () => {
  it("lists none of PayFast's hosts resolving in Needs attention", async () => {
    const sandbox = await buildTestApp(
      { PAYFAST_MODE: "sandbox" },
      {
        resolvePayfastHost: async () => {
          throw new Error("queryA ESERVFAIL sandbox.payfast.co.za");
        },
      },
    );
    try {
      const sandboxAdmin = await signInAsAdmin(sandbox);
      const [item] = (await attention(sandbox, sandboxAdmin.cookie)).filter(
        (candidate) => candidate.kind === "payfast_hosts_unresolved",
      );
      expect(item).toMatchObject({ label: "PayFast's addresses not found", resolvable: false });
      expect(item?.detail).toMatch(/sandbox\.payfast\.co\.za/);
    } finally {
      await sandbox.close();
    }
  });

  it("in live mode, pings PayFast's API at start and puts a failure in the log and in Needs attention", async () => {
    const pings: string[] = [];
    const lines: { level: number; msg: string }[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(text));
        done();
      },
    });
    const failing: PayfastApi = {
      ping: async () => {
        pings.push("ping");
        throw new PayfastApiError("GET /ping answered 401: Merchant authorisation failed.");
      },
      transactionHistory: async () => [],
      refundQuery: async () => {
        throw new Error("not called");
      },
      createRefund: async () => {
        throw new Error("not called");
      },
      chargeToken: async () => {
        throw new Error("not called");
      },
      fetchSubscription: async () => {
        throw new Error("not called");
      },
      cancelSubscription: async () => {
        throw new Error("not called");
      },
      pauseSubscription: async () => {
        throw new Error("not called");
      },
      unpauseSubscription: async () => {
        throw new Error("not called");
      },
    };
    const live = await buildTestApp(
      {
        PAYFAST_MODE: "live",
        PUBLIC_URL: "https://shop.example.co.za",
        PAYFAST_MERCHANT_ID: "10012345",
        PAYFAST_MERCHANT_KEY: "q1cd2rdny4a53",
        PAYFAST_PASSPHRASE: "a long and secret passphrase",
        SMTP_URL: "smtps://shop:mail-secret@mail.example.co.za:465",
        ...LIVE_SELLER,
        ...LIVE_TOTP_KEY,
        ...LIVE_COURIER,
        // Live mode keeps no captured messages on disk and asks admins for a second factor by default.
        MAIL_CAPTURE_DIR: "",
        ADMIN_2FA: "optional",
      },
      { resolvePayfastHost: async () => ["197.97.145.150"], payfastApi: failing, logger: { level: "error", stream } },
    );
    try {
      const liveAdmin = await signInAsAdmin(live);
      const items = await waitFor(
        () => attention(live, liveAdmin.cookie),
        (list) => list.some((item) => item.kind === "payfast_ping_failed"),
      );
      expect(pings).toEqual(["ping"]);
      expect(items.find((item) => item.kind === "payfast_ping_failed")?.detail).toMatch(
        /GET \/ping: GET \/ping answered 401: Merchant authorisation failed/,
      );
      expect(lines.map((line) => [line.level, line.msg])).toContainEqual([
        50,
        "PayFast's API failed the start check (ping)",
      ]);
      // The owner is mailed by the next alert check (alerts/checks.ts), once.
      await live.app.checkAlerts();
      await live.app.checkAlerts();
      const { rows } = await live.pool.query<SubjectSource>(
        "select kind, data, subject from emails where kind = 'owner_alert' and data->>'key' = 'payfast:ping'",
      );
      const alerts = withSubjects(live, rows);
      expect(alerts.map((alert) => alert.subject)).toEqual([
        "[Snug & Dry alert] PayFast's API failed the shop's start check",
      ]);
    } finally {
      await live.close();
    }
  });
});
