import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coolingOffLastDay, defectLastDay, REFUND_DAYS } from "#domain/returns.js";
import { addBusinessDays, addDays, addMonths, daysBetween, saDay } from "#domain/sa-calendar.js";
import type { Order } from "#domain/schemas/orders.js";
import type { AdminReturnRequest, OrderReturns, ReturnRequest } from "#domain/schemas/returns.js";
import {
  auditLog,
  emails,
  orders,
  payfastEmulatorRefunds,
  refunds,
  returnRequests,
} from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import type { TestApp } from "../helpers/app.js";
import type { TestCartLine } from "../helpers/orders.js";
import { withSubjects } from "../helpers/outbox.js";
import { buildListeningApp, payOnEmulator, placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { inStockSizes, setStock, sizePriceCents, stockedCatalog, stockOf } from "../helpers/stock.js";
import { ageStepUp, codeAt, enrolSecondFactor } from "../helpers/two-factor.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

let t: TestApp;
let admin: SignedIn;
let shopper: LoggedInUser;
let stranger: LoggedInUser;

beforeAll(async () => {
  t = await buildListeningApp({}, undefined, 12);
  admin = await signInAsAdmin(t);
  shopper = await registerAndLogin(t);
  stranger = await registerAndLogin(t);
});
afterAll(() => t?.close());

const today = () => saDay(new Date());

/**
 * The most recent receipt day, `from` days back or earlier, whose window (`lastDayOf`) ended before
 * today: a last day on a Sunday or public holiday moves on, so "8 days ago" is not always closed.
 */
function closedSince(lastDayOf: (received: string) => string, from: string): string {
  let received = from;
  while (daysBetween(today(), lastDayOf(received)) >= 0) received = addDays(received, -1);
  return received;
}

/** The cheapest products in stock, so an order of a few units stays below R500 and pays R75 delivery. */
async function cheapLines(quantities: number[]): Promise<TestCartLine[]> {
  const products = (await stockedCatalog(t.db)).sort((a, b) => a.priceCents - b.priceCents);
  return quantities.map((quantity, index) => {
    const product = products.filter((candidate) =>
      inStockSizes(candidate).some((size) => (candidate.sellable[size] ?? 0) >= quantity + 2),
    )[index];
    if (!product) throw new Error("no cheap product in stock");
    const size = inStockSizes(product).find((candidate) => (product.sellable[candidate] ?? 0) >= quantity + 2) ?? "";
    return { id: product.id, name: product.name, priceCents: sizePriceCents(product, size), size, quantity };
  });
}

/** A paid order of one line (`quantity` units) and `extraLines` more of one unit each, paid through the emulator. */
async function paidOrder(quantity = 2, extraLines = 0) {
  const lines = await cheapLines([quantity, ...Array.from({ length: extraLines }, () => 1)]);
  const { orderId, payfastData } = await placeTestOrder(t, shopper, lines);
  await payOnEmulator(t, orderId, payfastData);
  const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new Error("order not found");
  return { orderId, lines, order: row };
}

/** A paid order marked shipped by an admin, then its shipping day set `daysAgo` days back (time passing). */
async function shippedOrder({ quantity = 2, extraLines = 0, shippedDaysAgo = 0 } = {}) {
  const paid = await paidOrder(quantity, extraLines);
  const shipped = await t.app.inject({
    method: "PATCH",
    url: `/api/admin/orders/${paid.orderId}/status`,
    headers: { cookie: admin.cookie },
    payload: { status: "processed" },
  });
  expect(shipped.statusCode, shipped.body).toBe(200);
  if (shippedDaysAgo > 0) {
    await t.db
      .update(orders)
      .set({ shippedAt: sql`now() - ${`${shippedDaysAgo} days`}::interval` })
      .where(eq(orders.id, paid.orderId));
  }
  return paid;
}

const markDelivered = (orderId: string, deliveredOn?: string, cookie = admin.cookie) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/orders/${orderId}/delivered`,
    headers: { cookie },
    payload: deliveredOn ? { deliveredOn } : {},
  });

/** A shipped order delivered `daysAgo` days before today (as recorded by an admin). */
async function deliveredOrder(daysAgo: number, options: { quantity?: number; extraLines?: number } = {}) {
  const paid = await shippedOrder({ ...options, shippedDaysAgo: daysAgo + 3 });
  const delivered = await markDelivered(paid.orderId, addDays(today(), -daysAgo));
  expect(delivered.statusCode, delivered.body).toBe(200);
  return paid;
}

const returnsOf = async (orderId: string, who: LoggedInUser = shopper) => {
  const response = await t.app.inject({ method: "GET", url: `/api/orders/${orderId}/returns`, headers: who.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as OrderReturns;
};

const ask = (orderId: string, body: Record<string, unknown>, who: LoggedInUser = shopper) =>
  t.app.inject({ method: "POST", url: `/api/orders/${orderId}/returns`, headers: who.headers, payload: body });

const step = (id: string, action: string, body: Record<string, unknown> = {}, cookie = admin.cookie) =>
  t.app.inject({ method: "POST", url: `/api/admin/returns/${id}/${action}`, headers: { cookie }, payload: body });

const requestCount = async (orderId: string) =>
  (await t.db.select().from(returnRequests).where(eq(returnRequests.orderId, orderId))).length;

const returnMails = (requestId: string) =>
  t.db
    .select()
    .from(emails)
    .where(and(eq(emails.kind, "return_update"), sql`${emails.data}->>'requestId' = ${requestId}`));

describe("windows: the server decides", () => {
  it("takes a sealed changed-mind return on day 7 after delivery and refuses it on day 8, offering the routes still open", async () => {
    const day7 = await deliveredOrder(7);
    const first = (await returnsOf(day7.orderId)).lines[0];
    const ok = await ask(day7.orderId, { reason: "changed_mind", lines: [{ lineId: first?.lineId, quantity: 1 }] });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({
      reason: "changed_mind",
      status: "requested",
      reference: expect.stringMatching(/^RET-\d{6}$/),
    });

    const received = closedSince(coolingOffLastDay, addDays(today(), -8));
    const day8 = await deliveredOrder(daysBetween(received, today()));
    const windows = await returnsOf(day8.orderId);
    expect(windows.windows.find((window) => window.reason === "changed_mind")).toMatchObject({
      open: false,
      lastDay: coolingOffLastDay(received),
    });
    const line = windows.lines[0];
    for (const reason of ["changed_mind", "wrong_size"]) {
      const late = await ask(day8.orderId, { reason, lines: [{ lineId: line?.lineId, quantity: 1 }] });
      expect(late.statusCode).toBe(409);
      expect(late.json()).toMatchObject({ code: "RETURN_WINDOW_CLOSED" });
      expect(late.json().message).toMatch(
        /7 days after you received them.*Still open for this order: defective or damaged/,
      );
    }
    expect(await requestCount(day8.orderId)).toBe(0);
    // The routes still open work on day 8.
    const defective = await ask(day8.orderId, { reason: "defective", lines: [{ lineId: line?.lineId, quantity: 1 }] });
    expect(defective.statusCode, defective.body).toBe(201);
  });

  it("keeps defective and not-as-ordered open until 6 months after delivery, then only complaints", async () => {
    const lastDay = await shippedOrder({ shippedDaysAgo: 200 });
    expect((await markDelivered(lastDay.orderId, addMonths(today(), -6))).statusCode).toBe(200);
    const line = (await returnsOf(lastDay.orderId)).lines[0];
    const onTime = await ask(lastDay.orderId, {
      reason: "not_as_ordered",
      lines: [{ lineId: line?.lineId, quantity: 1 }],
    });
    expect(onTime.statusCode, onTime.body).toBe(201);

    const late = await shippedOrder({ shippedDaysAgo: 200 });
    const lateDay = closedSince(defectLastDay, addDays(addMonths(today(), -6), -1));
    expect((await markDelivered(late.orderId, lateDay)).statusCode).toBe(200);
    const lateLine = (await returnsOf(late.orderId)).lines[0];
    for (const reason of ["defective", "not_as_ordered"]) {
      const refused = await ask(late.orderId, { reason, lines: [{ lineId: lateLine?.lineId, quantity: 1 }] });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: "RETURN_WINDOW_CLOSED" });
      expect(refused.json().message).toContain("another complaint");
    }
    const complaint = await ask(late.orderId, {
      reason: "complaint",
      details: "The tabs tore on every nappy of the pack.",
    });
    expect(complaint.statusCode, complaint.body).toBe(201);
  });

  it("asks the day the goods were received when no delivery was recorded, and counts the windows from it", async () => {
    // Sent 20 days ago by a slow courier: received 3 days ago, by the customer's word.
    const { orderId } = await shippedOrder({ shippedDaysAgo: 20 });
    const answer = await returnsOf(orderId);
    expect(answer).toMatchObject({ deliveryRecorded: false, deliveryDay: null, sentOn: addDays(today(), -20) });
    expect(answer.windows.find((window) => window.reason === "changed_mind")).toMatchObject({
      open: true,
      lastDay: null,
    });
    const line = answer.lines[0];
    const lines = [{ lineId: line?.lineId, quantity: 1 }];

    // Without the day, or with one that cannot be true: 400, nothing made.
    for (const [receivedOn, message] of [
      [undefined, /Tell us the day you received the goods/],
      [addDays(today(), 1), /cannot be after today/],
      [addDays(today(), -21), /cannot be before the order was sent/],
    ] as const) {
      const refused = await ask(orderId, { reason: "changed_mind", lines, ...(receivedOn ? { receivedOn } : {}) });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({
        code: "RETURN_RECEIPT_DAY_INVALID",
        message: expect.stringMatching(message),
      });
    }
    const malformed = await ask(orderId, { reason: "changed_mind", lines, receivedOn: "2026-02-30" });
    expect(malformed.statusCode).toBe(400);
    expect(await requestCount(orderId)).toBe(0);

    // Received 3 days ago: the cooling-off is open, whatever the shipping day says.
    const receivedOn = addDays(today(), -3);
    const created = await ask(orderId, { reason: "changed_mind", lines, receivedOn });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ receivedOn, receivedBasis: "customer_stated" });

    // The admin sees the day and its basis.
    const list = await t.app.inject({
      method: "GET",
      url: `/api/admin/returns?orderId=${orderId}`,
      headers: { cookie: admin.cookie },
    });
    expect((list.json() as AdminReturnRequest[])[0]).toMatchObject({ receivedOn, receivedBasis: "customer_stated" });

    // A stated day whose 7 days are over is refused as a closed window.
    const other = await shippedOrder({ shippedDaysAgo: 40 });
    const otherLine = (await returnsOf(other.orderId)).lines[0];
    const longAgo = closedSince(coolingOffLastDay, addDays(today(), -8));
    const late = await ask(other.orderId, {
      reason: "wrong_size",
      lines: [{ lineId: otherLine?.lineId, quantity: 1 }],
      receivedOn: longAgo,
    });
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toMatchObject({ code: "RETURN_WINDOW_CLOSED" });
  });

  it("counts from the recorded delivery, not the customer's word, and says so to the admin", async () => {
    const { orderId } = await deliveredOrder(2);
    const line = (await returnsOf(orderId)).lines[0];
    const created = await ask(orderId, {
      reason: "defective",
      lines: [{ lineId: line?.lineId, quantity: 1 }],
      receivedOn: today(),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ receivedOn: addDays(today(), -2), receivedBasis: "recorded_delivery" });
  });

  it("takes wrong size and complaints, and refuses a complaint without words or with lines", async () => {
    const { orderId } = await deliveredOrder(2);
    const line = (await returnsOf(orderId)).lines[0];
    expect(
      (await ask(orderId, { reason: "wrong_size", lines: [{ lineId: line?.lineId, quantity: 1 }] })).statusCode,
    ).toBe(201);
    const short = await ask(orderId, { reason: "complaint", details: "bad" });
    expect(short.statusCode).toBe(400);
    const withLines = await ask(orderId, {
      reason: "complaint",
      details: "The courier was rude at the door.",
      lines: [{ lineId: line?.lineId, quantity: 1 }],
    });
    expect(withLines.statusCode).toBe(400);
    expect(withLines.json()).toMatchObject({ code: "RETURN_LINE_UNKNOWN" });
    const complaint = await ask(orderId, { reason: "complaint", details: "The courier was rude at the door." });
    expect(complaint.statusCode, complaint.body).toBe(201);
    const again = await ask(orderId, { reason: "complaint", details: "And another thing went wrong." });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: "RETURN_ALREADY_REQUESTED" });
  });

  it("refuses returns on an unpaid order and a cancellation once the order has shipped", async () => {
    const { orderId } = await placeTestOrder(t, shopper, [await stockedLine(t, 1)]);
    const unpaid = await ask(orderId, { reason: "cancellation" });
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json()).toMatchObject({ code: "RETURN_WINDOW_CLOSED" });
    const shipped = await shippedOrder();
    const late = await ask(shipped.orderId, { reason: "cancellation" });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toContain("return it instead");
  });
});

describe("bad input changes nothing", () => {
  it("answers 404 for another customer's order, and 400/409 for unknown lines, too many units, or lines named twice", async () => {
    const { orderId } = await deliveredOrder(1, { quantity: 2 });
    const line = (await returnsOf(orderId)).lines[0];
    const theirs = await ask(
      orderId,
      { reason: "defective", lines: [{ lineId: line?.lineId, quantity: 1 }] },
      stranger,
    );
    expect(theirs.statusCode).toBe(404);
    const peek = await t.app.inject({
      method: "GET",
      url: `/api/orders/${orderId}/returns`,
      headers: stranger.headers,
    });
    expect(peek.statusCode).toBe(404);

    const unknown = await ask(orderId, { reason: "defective", lines: [{ lineId: 999_999_999, quantity: 1 }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: "RETURN_LINE_UNKNOWN" });
    const tooMany = await ask(orderId, { reason: "defective", lines: [{ lineId: line?.lineId, quantity: 3 }] });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toMatchObject({ code: "RETURN_QUANTITY_TOO_LARGE" });
    const twice = await ask(orderId, {
      reason: "defective",
      lines: [
        { lineId: line?.lineId, quantity: 1 },
        { lineId: line?.lineId, quantity: 1 },
      ],
    });
    expect(twice.statusCode).toBe(400);
    const none = await ask(orderId, { reason: "defective", lines: [] });
    expect(none.statusCode).toBe(400);
    const badReason = await ask(orderId, { reason: "out_of_stock" });
    expect(badReason.statusCode).toBe(400);
    const anonymous = await t.app.inject({
      method: "POST",
      url: `/api/orders/${orderId}/returns`,
      payload: { reason: "complaint", details: "Nobody signed in here." },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await requestCount(orderId)).toBe(0);
  });

  it("refuses a second open request for the same line, and more units than are left after a return", async () => {
    const { orderId } = await deliveredOrder(1, { quantity: 3 });
    const line = (await returnsOf(orderId)).lines[0];
    const first = await ask(orderId, { reason: "changed_mind", lines: [{ lineId: line?.lineId, quantity: 1 }] });
    expect(first.statusCode).toBe(201);
    const second = await ask(orderId, { reason: "defective", lines: [{ lineId: line?.lineId, quantity: 1 }] });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: "RETURN_ALREADY_REQUESTED" });

    // Once the first is settled, the line's other units can be asked back, but never more than bought.
    const id = (first.json() as ReturnRequest).id;
    expect((await step(id, "resolve", { outcome: "Customer kept it after all" })).statusCode).toBe(200);
    const after = await returnsOf(orderId);
    expect(after.lines[0]?.available).toBe(2);
    const over = await ask(orderId, { reason: "defective", lines: [{ lineId: line?.lineId, quantity: 3 }] });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: "RETURN_QUANTITY_TOO_LARGE" });
    expect(await requestCount(orderId)).toBe(1);
  });

  it("takes exactly one of many racing submissions for the same line", async () => {
    const { orderId } = await deliveredOrder(1, { quantity: 1 });
    const line = (await returnsOf(orderId)).lines[0];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        ask(orderId, {
          reason: index % 2 ? "changed_mind" : "defective",
          lines: [{ lineId: line?.lineId, quantity: 1 }],
        }),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(7);
    expect(await requestCount(orderId)).toBe(1);
  });
});

describe("the shop's steps", () => {
  it("accepts with instructions, receives with restock, refunds once, e-mails and audits each step", async () => {
    const { orderId, lines, order } = await deliveredOrder(3, { quantity: 2 });
    const line = (await returnsOf(orderId)).lines[0];
    const created = await ask(orderId, { reason: "changed_mind", lines: [{ lineId: line?.lineId, quantity: 1 }] });
    const request = created.json() as ReturnRequest;
    const unitCents = lines[0]?.priceCents ?? 0;
    expect(request.offeredRefund).toBe((unitCents / 100).toFixed(2));
    expect(request.deadlineKind).toBe("refund_30_days");
    expect(request.deadlineDay).toBe(addDays(today(), REFUND_DAYS));

    const accepted = await step(request.id, "accept", { note: "Use the courier's drop-off point." });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const acceptedBody = accepted.json() as AdminReturnRequest;
    expect(acceptedBody.status).toBe("accepted");
    expect(acceptedBody.instructions).toContain(t.app.config.shop.address);
    expect(acceptedBody.instructions).toContain("you pay only the cost of sending them back");

    const before = await stockOf(t.db, lines[0]?.id ?? "", lines[0]?.size ?? "");
    const tooMany = await step(request.id, "receive", { restock: [{ lineId: line?.lineId, quantity: 2 }] });
    expect(tooMany.statusCode).toBe(409);
    const received = await step(request.id, "receive", { restock: [{ lineId: line?.lineId, quantity: 1 }] });
    expect(received.statusCode, received.body).toBe(200);
    expect((received.json() as AdminReturnRequest).lines[0]?.restocked).toBe(1);
    expect((await stockOf(t.db, lines[0]?.id ?? "", lines[0]?.size ?? ""))?.quantity).toBe((before?.quantity ?? 0) + 1);

    const refunded = await step(request.id, "refund");
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect((refunded.json() as AdminReturnRequest).status).toBe("refunded");
    const again = await step(request.id, "refund");
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: "RETURN_STATUS_CONFLICT" });
    const paidBack = await t.db
      .select()
      .from(payfastEmulatorRefunds)
      .where(eq(payfastEmulatorRefunds.pfPaymentId, order.pfPaymentId ?? ""));
    expect(paidBack.map((row) => row.amountCents)).toEqual([unitCents]);

    // The customer sees each step, and has an e-mail for each.
    const seen = (await returnsOf(orderId)).requests[0];
    expect(seen?.history.map((event) => event.status)).toEqual(["requested", "accepted", "received", "refunded"]);
    const mails = await returnMails(request.id);
    expect(mails.map((mail) => mail.data.step).sort()).toEqual(["accepted", "received", "refunded", "requested"]);
    expect(mails.every((mail) => mail.toAddress === shopper.user.email)).toBe(true);
    // The shopper never proved their address (only a followed link does): no greeting by the name typed.
    expect(mails.map((mail) => (mail.data as { greetByName?: boolean }).greetByName)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    const audit = await t.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "order"), eq(auditLog.subjectId, orderId)));
    expect(audit.map((row) => row.action)).toEqual(
      expect.arrayContaining([
        "order.delivered",
        "return.requested",
        "return.accepted",
        "return.received",
        "return.refunded",
        "order.refunded",
      ]),
    );
  });

  it("tells a customer returning defective or wrong goods that the shop pays for sending them back", async () => {
    const { orderId } = await deliveredOrder(20, { quantity: 2 });
    const line = (await returnsOf(orderId)).lines[0];
    for (const reason of ["defective", "not_as_ordered"]) {
      const request = (
        await ask(orderId, { reason, lines: [{ lineId: line?.lineId, quantity: 1 }], details: "Torn tabs" })
      ).json() as ReturnRequest;
      const accepted = await step(request.id, "accept");
      expect(accepted.statusCode, accepted.body).toBe(200);
      const { instructions } = accepted.json() as AdminReturnRequest;
      expect(instructions).toContain(`Send the goods to ${t.app.config.shop.address}`);
      expect(instructions).toContain(request.reference);
      expect(instructions).toContain("We pay for sending back defective or wrong goods.");
      expect(instructions).not.toContain("you pay");
      // The e-mail says the same.
      const [mail] = (await returnMails(request.id)).filter((message) => message.data.step === "accepted");
      expect(mail?.toAddress).toBe(shopper.user.email);
      await t.app.mail.deliverDue();
      const rendered = await t.app.inject({
        method: "GET",
        url: `/api/admin/emails/${mail?.id}`,
        headers: { cookie: admin.cookie },
      });
      expect(rendered.statusCode, rendered.body).toBe(200);
      expect((rendered.json() as { text: string }).text).toContain("We pay for sending back defective or wrong goods");
      expect((rendered.json() as { text: string }).text).not.toContain("you pay only the cost");
      // Settled, so the line's other unit can be asked about for the next reason.
      expect((await step(request.id, "resolve", { outcome: "Replaced." })).statusCode).toBe(200);
    }
  });

  it("refuses to decline a sealed return before the goods are back, but takes a decline with a reason after", async () => {
    const { orderId } = await deliveredOrder(2);
    const line = (await returnsOf(orderId)).lines[0];
    const request = (
      await ask(orderId, { reason: "changed_mind", lines: [{ lineId: line?.lineId, quantity: 1 }] })
    ).json() as ReturnRequest;
    const forbidden = await step(request.id, "decline", { reason: "Non-returnable hygiene product" });
    expect(forbidden.statusCode).toBe(409);
    expect(forbidden.json()).toMatchObject({ code: "RETURN_DECLINE_FORBIDDEN" });
    expect((await step(request.id, "accept")).statusCode).toBe(200);
    expect((await step(request.id, "decline", { reason: "Non-returnable" })).json()).toMatchObject({
      code: "RETURN_DECLINE_FORBIDDEN",
    });
    expect((await step(request.id, "receive", { restock: [] })).statusCode).toBe(200);
    const noReason = await step(request.id, "decline", { reason: " " });
    expect(noReason.statusCode).toBe(400);
    const declined = await step(request.id, "decline", { reason: "The pack came back opened and used." });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({ status: "declined", decision: "The pack came back opened and used." });
    // Declined units can be asked about again (a defect, say).
    expect((await returnsOf(orderId)).lines[0]?.available).toBe(2);
    expect((await returnMails(request.id)).map((mail) => mail.data.step)).toContain("declined");
  });

  it("declines a defect claim with a reason, records an exchange for a wrong size, and resolves a complaint", async () => {
    const { orderId } = await deliveredOrder(2, { quantity: 2 });
    const line = (await returnsOf(orderId)).lines[0];
    const defect = (
      await ask(orderId, { reason: "defective", lines: [{ lineId: line?.lineId, quantity: 1 }], details: "Leaks" })
    ).json() as ReturnRequest;
    expect(defect.deadlineKind).toBe("resolve_15_business_days");
    expect(defect.deadlineDay).toBe(addBusinessDays(today(), 15));
    expect((await step(defect.id, "decline", { reason: "The photos show normal use." })).statusCode).toBe(200);

    const size = (
      await ask(orderId, { reason: "wrong_size", lines: [{ lineId: line?.lineId, quantity: 1 }] })
    ).json() as ReturnRequest;
    expect((await step(size.id, "accept")).json()).toMatchObject({ status: "accepted" });
    const exchanged = await step(size.id, "exchange", { note: "Sent size 5 instead" });
    expect(exchanged.json()).toMatchObject({ status: "exchanged", decision: "Sent size 5 instead" });

    const complaint = (
      await ask(orderId, { reason: "complaint", details: "The box was left in the rain." })
    ).json() as ReturnRequest;
    expect((await step(complaint.id, "exchange", { note: "x" })).json()).toMatchObject({
      code: "RETURN_STATUS_CONFLICT",
    });
    expect((await step(complaint.id, "receive", {})).json()).toMatchObject({ code: "RETURN_STATUS_CONFLICT" });
    const resolved = await step(complaint.id, "resolve", { outcome: "Apologised; courier told." });
    expect(resolved.json()).toMatchObject({ status: "resolved" });
    expect((await step(complaint.id, "resolve", { outcome: "Again" })).statusCode).toBe(409);
    // A complaint's refund has no amount set: the admin must give one.
    const refundNoAmount = await step(complaint.id, "refund");
    expect(refundNoAmount.statusCode).toBe(409);

    // Each of these steps was e-mailed to the customer and audited on the order.
    const stepsMailed = async (id: string) => (await returnMails(id)).map((mail) => mail.data.step).sort();
    expect(await stepsMailed(defect.id)).toEqual(["declined", "requested"]);
    expect(await stepsMailed(size.id)).toEqual(["accepted", "exchanged", "requested"]);
    expect(await stepsMailed(complaint.id)).toEqual(["requested", "resolved"]);
    const audit = await t.db
      .select({ action: auditLog.action, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, "order"), eq(auditLog.subjectId, orderId)));
    const stepOf = (action: string, reference: string) =>
      audit.filter((row) => row.action === action && (row.after as { reference?: string })?.reference === reference);
    expect(stepOf("return.declined", defect.reference)).toHaveLength(1);
    expect(stepOf("return.exchanged", size.reference)).toEqual([
      expect.objectContaining({ after: expect.objectContaining({ note: "Sent size 5 instead" }) }),
    ]);
    expect(stepOf("return.resolved", complaint.reference)).toEqual([
      expect.objectContaining({ after: expect.objectContaining({ note: "Apologised; courier told." }) }),
    ]);
  });

  it("refuses a complaint's refund 403 with the step-up code to an admin whose last code is stale, refunding nothing", async () => {
    const { orderId, order } = await deliveredOrder(2, { quantity: 2 });
    const complaint = (
      await ask(orderId, { reason: "complaint", details: "The courier left the box open." })
    ).json() as ReturnRequest;
    const enrolled = await signInAsAdmin(t);
    const { secret } = await enrolSecondFactor(t, enrolled.cookie);
    await ageStepUp(t, enrolled.id);
    // A complaint lets the admin choose any amount up to what is left: the whole order.
    const whole = { amountCents: order.totalCents };
    const refused = await step(complaint.id, "refund", whole, enrolled.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("STEP_UP_REQUIRED");
    const paidBack = () =>
      t.db
        .select()
        .from(payfastEmulatorRefunds)
        .where(eq(payfastEmulatorRefunds.pfPaymentId, order.pfPaymentId ?? ""));
    expect(await paidBack()).toEqual([]);
    expect(await t.db.select().from(refunds).where(eq(refunds.orderId, orderId))).toEqual([]);

    const verified = await t.app.inject({
      method: "POST",
      url: "/api/auth/2fa/verify",
      headers: { cookie: enrolled.cookie },
      payload: { code: await codeAt(secret, 1) },
    });
    expect(verified.statusCode).toBe(204);
    const refunded = await step(complaint.id, "refund", whole, enrolled.cookie);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect((await paidBack()).map((row) => row.amountCents)).toEqual([order.totalCents]);
  });

  it("refunds the whole payment, delivery included, when a partial return is followed by the rest", async () => {
    const { orderId, order, lines } = await deliveredOrder(1, { quantity: 2, extraLines: 1 });
    expect(order.deliveryFeeCents).toBeGreaterThan(0);
    const [first, second] = (await returnsOf(orderId)).lines;
    const part = (
      await ask(orderId, { reason: "changed_mind", lines: [{ lineId: first?.lineId, quantity: 1 }] })
    ).json() as ReturnRequest;
    expect(part.offeredRefund).toBe(((lines[0]?.priceCents ?? 0) / 100).toFixed(2));
    expect((await step(part.id, "refund")).statusCode).toBe(200);

    const rest = await ask(orderId, {
      reason: "changed_mind",
      lines: [
        { lineId: first?.lineId, quantity: 1 },
        { lineId: second?.lineId, quantity: 1 },
      ],
    });
    expect(rest.statusCode, rest.body).toBe(201);
    const restBody = rest.json() as ReturnRequest;
    const restCents = (lines[0]?.priceCents ?? 0) + (lines[1]?.priceCents ?? 0) + order.deliveryFeeCents;
    expect(restBody.offeredRefund).toBe((restCents / 100).toFixed(2));
    const wrongAmount = await step(restBody.id, "refund", { amountCents: restCents - 100 });
    expect(wrongAmount.statusCode).toBe(409);
    expect(wrongAmount.json()).toMatchObject({ code: "RETURN_AMOUNT_FIXED" });
    expect((await step(restBody.id, "refund", { amountCents: restCents })).statusCode).toBe(200);
    const [after] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(after?.status).toBe("refunded");
    const nothingLeft = await ask(orderId, { reason: "defective", lines: [{ lineId: first?.lineId, quantity: 1 }] });
    expect(nothingLeft.statusCode).toBe(409);
  });
});

describe("stock goes back once", () => {
  it("does not put a returned unit back twice when the order is then refunded with restock", async () => {
    const { orderId, lines, order } = await deliveredOrder(1, { quantity: 2 });
    const [line] = lines;
    const before = (await stockOf(t.db, line?.id ?? "", line?.size ?? ""))?.quantity ?? 0;
    const orderLine = (await returnsOf(orderId)).lines[0];
    const request = (
      await ask(orderId, { reason: "defective", lines: [{ lineId: orderLine?.lineId, quantity: 1 }] })
    ).json() as ReturnRequest;
    expect(
      (await step(request.id, "receive", { restock: [{ lineId: orderLine?.lineId, quantity: 1 }] })).statusCode,
    ).toBe(200);
    const whole = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/refund`,
      headers: { cookie: admin.cookie },
      payload: { amountCents: order.totalCents, reason: "Everything back", restock: true },
    });
    expect(whole.statusCode, whole.body).toBe(200);
    expect((await stockOf(t.db, line?.id ?? "", line?.size ?? ""))?.quantity).toBe(before + 2);
  });

  it("refuses to restock a return whose order a refund already restocked", async () => {
    const { orderId, order } = await deliveredOrder(1, { quantity: 1 });
    const orderLine = (await returnsOf(orderId)).lines[0];
    const request = (
      await ask(orderId, { reason: "defective", lines: [{ lineId: orderLine?.lineId, quantity: 1 }] })
    ).json() as ReturnRequest;
    const whole = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/refund`,
      headers: { cookie: admin.cookie },
      payload: { amountCents: order.totalCents - 100, reason: "Most of it back", restock: true },
    });
    expect(whole.statusCode, whole.body).toBe(200);
    const again = await step(request.id, "receive", { restock: [{ lineId: orderLine?.lineId, quantity: 1 }] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain("already put this order's units back");
    expect((await step(request.id, "receive", { restock: [] })).statusCode).toBe(200);
  });
});

describe("refunds race", () => {
  it("refunds a request once when admins press Refund together", async () => {
    const { orderId, order } = await deliveredOrder(1, { quantity: 1 });
    const line = (await returnsOf(orderId)).lines[0];
    const request = (
      await ask(orderId, { reason: "changed_mind", lines: [{ lineId: line?.lineId, quantity: 1 }] })
    ).json() as ReturnRequest;
    const answers = await Promise.all([
      step(request.id, "refund"),
      step(request.id, "refund"),
      step(request.id, "refund"),
    ]);
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(2);
    const paidBack = await t.db
      .select()
      .from(payfastEmulatorRefunds)
      .where(eq(payfastEmulatorRefunds.pfPaymentId, order.pfPaymentId ?? ""));
    expect(paidBack.map((row) => row.amountCents)).toEqual([order.totalCents]);
  });
});

describe("cancelling a paid order before it ships (ECTA)", () => {
  it("is a request the admin settles with the whole payment, delivery included; shipping waits for it", async () => {
    const { orderId, order, lines } = await paidOrder(1);
    expect(order.deliveryFeeCents).toBe(7_500);
    const stockBefore = await stockOf(t.db, lines[0]?.id ?? "", lines[0]?.size ?? "");
    const cancel = await ask(orderId, { reason: "cancellation" });
    expect(cancel.statusCode, cancel.body).toBe(201);
    const request = cancel.json() as ReturnRequest;
    expect(request.offeredRefund).toBe((order.totalCents / 100).toFixed(2));
    expect(request.deadlineDay).toBe(addDays(today(), 30));
    expect((await ask(orderId, { reason: "cancellation" })).json()).toMatchObject({ code: "RETURN_ALREADY_REQUESTED" });

    const ship = await t.app.inject({
      method: "PATCH",
      url: `/api/admin/orders/${orderId}/status`,
      headers: { cookie: admin.cookie },
      payload: { status: "processed" },
    });
    expect(ship.statusCode).toBe(409);
    expect(ship.json().message).toContain(request.reference);
    expect((await step(request.id, "decline", { reason: "Already packed" })).json()).toMatchObject({
      code: "RETURN_DECLINE_FORBIDDEN",
    });
    expect(
      (await step(request.id, "refund", { amountCents: order.totalCents - order.deliveryFeeCents })).json(),
    ).toMatchObject({
      code: "RETURN_AMOUNT_FIXED",
    });

    const refunded = await step(request.id, "refund");
    expect(refunded.statusCode, refunded.body).toBe(200);
    const final = await t.app.inject({ method: "GET", url: `/api/orders/${orderId}`, headers: shopper.headers });
    expect(final.json()).toMatchObject({
      status: "refunded",
      refunded: (order.totalCents / 100).toFixed(2),
    } satisfies Partial<Order>);
    // Its units were never sent: they are back on the shelf.
    expect((await stockOf(t.db, lines[0]?.id ?? "", lines[0]?.size ?? ""))?.quantity).toBe(
      (stockBefore?.quantity ?? 0) + 1,
    );
  });
});

describe("paid, but out of stock (ECTA s46)", () => {
  it("joins the requests at once with 30 days to refund, and the customer is e-mailed", async () => {
    const line = await stockedLine(t, 1, 4);
    const { orderId, payfastData } = await placeTestOrder(t, shopper, [line]);
    const cancelled = await t.app.inject({
      method: "POST",
      url: `/api/orders/${orderId}/cancel`,
      headers: shopper.headers,
    });
    expect(cancelled.statusCode).toBe(200);
    const before = await stockOf(t.db, line.id, line.size);
    await setStock(t.db, line.id, line.size, 0);
    await payOnEmulator(t, orderId, payfastData);

    const list = await t.app.inject({ method: "GET", url: "/api/admin/returns", headers: { cookie: admin.cookie } });
    const request = (list.json() as AdminReturnRequest[]).find((entry) => entry.orderId === orderId);
    expect(request).toMatchObject({ reason: "out_of_stock", openedBy: "shop", status: "requested" });
    expect(request?.deadlineDay).toBe(addDays(today(), 30));
    const mails = withSubjects(t, await returnMails(request?.id ?? ""));
    expect(mails.map((mail) => mail.data.step)).toEqual(["out_of_stock"]);
    expect(mails[0]?.subject).toContain("cannot fill");
    await setStock(t.db, line.id, line.size, before?.quantity ?? 10);
  });
});

describe("Mark as delivered", () => {
  it("records the day with who and when, only on a shipped order, never in the future or before shipping", async () => {
    const paid = await paidOrder(1);
    expect((await markDelivered(paid.orderId)).json()).toMatchObject({ code: "ORDER_STATUS_CONFLICT" });
    const { orderId } = await shippedOrder({ shippedDaysAgo: 2 });
    expect((await markDelivered(orderId, addDays(today(), 1))).statusCode).toBe(400);
    expect((await markDelivered(orderId, addDays(today(), -3))).statusCode).toBe(400);
    expect((await markDelivered(orderId, "2026-02-30")).statusCode).toBe(400);
    const customer = await t.app.inject({
      method: "POST",
      url: `/api/admin/orders/${orderId}/delivered`,
      headers: shopper.headers,
      payload: {},
    });
    expect(customer.statusCode).toBe(403);
    const done = await markDelivered(orderId, addDays(today(), -1));
    expect(done.statusCode, done.body).toBe(200);
    expect(saDay(new Date((done.json() as Order).deliveredAt ?? ""))).toBe(addDays(today(), -1));
    const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row?.deliveredBy).toBe(admin.id);
    expect((await returnsOf(orderId)).deliveryRecorded).toBe(true);
  });
});

describe("the admin's list and the complaints register", () => {
  it("lists open requests oldest first with their deadlines, to admins only", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/admin/returns",
      headers: { cookie: admin.cookie },
    });
    expect(response.statusCode).toBe(200);
    const list = response.json() as AdminReturnRequest[];
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((entry) => ["requested", "accepted", "received"].includes(entry.status))).toBe(true);
    const created = list.map((entry) => entry.createdAt);
    expect(created).toEqual([...created].sort());
    expect(list[0]?.deadlineAt).toMatch(/T21:59:59\.999Z$/);
    const customer = await t.app.inject({ method: "GET", url: "/api/admin/returns", headers: shopper.headers });
    expect(customer.statusCode).toBe(403);
    const one = list[0];
    const ofOrder = await t.app.inject({
      method: "GET",
      url: `/api/admin/returns?status=all&orderId=${one?.orderId}`,
      headers: { cookie: admin.cookie },
    });
    const forOrder = ofOrder.json() as AdminReturnRequest[];
    expect(forOrder.length).toBeGreaterThan(0);
    expect(forOrder.every((entry) => entry.orderId === one?.orderId)).toBe(true);
    const badOrder = await t.app.inject({
      method: "GET",
      url: "/api/admin/returns?orderId=nope",
      headers: { cookie: admin.cookie },
    });
    expect(badOrder.statusCode).toBe(400);
    const bad = await t.app.inject({
      method: "GET",
      url: "/api/admin/returns?status=nope",
      headers: { cookie: admin.cookie },
    });
    expect(bad.statusCode).toBe(400);
  });

  it("exports every request with its dates, decision and how long it took", async () => {
    const { orderId } = await deliveredOrder(1);
    const request = (
      await ask(orderId, { reason: "complaint", details: '=HYPERLINK("x") the box was crushed' })
    ).json() as ReturnRequest;
    await step(request.id, "resolve", { outcome: "Sent a new box, apologised." });
    const csv = await t.app.inject({
      method: "GET",
      url: "/api/admin/returns/register.csv",
      headers: { cookie: admin.cookie },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    const [header, ...rows] = csv.body.trim().split("\n");
    expect(header).toBe(
      "Reference,Order number,Customer,E-mail,Reason,Opened by,Customer's words,Requested (SA date),Deadline,Deadline (last day),Status,Decided (SA date),Closed (SA date),Decision or outcome,Refunded (R),Days taken,Business days taken,Within deadline",
    );
    const all = await t.db.select().from(returnRequests);
    expect(rows).toHaveLength(all.length);
    const row = rows.find((candidate) => candidate.startsWith(`${request.reference},`));
    expect(row).toContain(
      `,${today()},Resolve within 15 business days (CGSO),${addBusinessDays(today(), 15)},Resolved,${today()},${today()},"Sent a new box, apologised.",,0,0,Yes`,
    );
    // A customer's words that a spreadsheet would run are kept as text.
    expect(row).toContain("'=HYPERLINK");
    const refundedRow = rows.find((candidate) => candidate.includes(",Refunded,"));
    expect(refundedRow).toMatch(/,\d+\.\d{2},\d+,\d+,Yes$/);
  });
});
