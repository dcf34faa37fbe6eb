import { randomUUID } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildCheckoutForm } from "#server/payfast/adapter.js";
import {
  apiSignature,
  type PayfastApi,
  payfastApiClient,
  payfastTimestamp,
  sastDate,
} from "#server/payfast/api-client.js";
import type { PayfastEmulator } from "#server/payfast/emulator.js";
import { checkoutSignature } from "#server/payfast/signature.js";
import { PAYFAST_SANDBOX } from "#server/platform/config.js";
import { freePort } from "#server/platform/db/embedded.js";
import { payfastEmulatorPayments, payfastItns } from "#server/platform/db/schema.js";
import { insertOrder } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { waitFor } from "../helpers/wait.js";

/**
 * PayFast's tokenization through the local emulator, as the shop's nappy plans use it
 * (docs/decisions/049): a checkout with subscription_type 2 gives a card token in its notification;
 * the shop charges it ad hoc through the Subscriptions API, and the emulator fails the ways PayFast
 * does. The shop's own client (api-client.ts) talks to the emulator over real HTTP.
 */
const form = (fields: Record<string, string>) => new URLSearchParams(Object.entries(fields)).toString();
const TOKEN_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("PayFast tokenization in the local emulator", () => {
  let t: TestApp;
  let publicUrl: string;
  let api: PayfastApi;
  let emulator: PayfastEmulator;

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    t = await buildTestApp({ PUBLIC_URL: publicUrl, PORT: String(port), PAYFAST_RECONCILE_MINUTES: "600" });
    await t.app.listen({ port, host: "127.0.0.1" });
    api = payfastApiClient(t.app.config);
    const found = t.app.payfastEmulator;
    if (!found) throw new Error("no emulator in local mode");
    emulator = found;
  });
  afterAll(() => t.close());
  beforeEach(() => {
    emulator.tokenNotifications("normal");
    emulator.refuseApiCalls("none");
    emulator.chargeResponseStyle("live");
  });

  const post = (url: string, body: string) =>
    t.app.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: publicUrl },
      payload: body,
    });

  /** A pending order of R574.99 and its checkout form asking for a token. */
  async function tokenizingCheckout(totalCents = 57_499) {
    const orderId = await insertOrder(t, {
      lines: [{ name: "Baby Nappies", size: "Size 3", quantity: 1, unitPriceCents: 49_999 }],
      customerEmail: "thandi@example.co.za",
    });
    const fields = buildCheckoutForm(
      {
        id: orderId,
        totalCents,
        customerEmail: "thandi@example.co.za",
        deliveryName: "Thandi Mokoena",
        deliveryPhone: "082 555 0101",
        items: [{ name: "Baby Nappies", size: "Size 3", quantity: 1 }],
        tokenize: true,
      },
      t.app.config,
    );
    return { orderId, fields };
  }

  /** Pays a tokenizing checkout on the emulator's page; answers the token its notification carried. */
  async function tokenFromCheckout(): Promise<{ token: string; orderId: string; itnBody: string }> {
    const { orderId, fields } = await tokenizingCheckout();
    const paid = await post("/payfast-emulator/eng/complete", form(fields));
    expect(paid.statusCode).toBe(303);
    const [payment] = await t.db
      .select()
      .from(payfastEmulatorPayments)
      .where(eq(payfastEmulatorPayments.mPaymentId, orderId));
    const token = new URLSearchParams(payment?.itnBody).get("token") ?? "";
    return { token, orderId, itnBody: payment?.itnBody ?? "" };
  }

  /** The notifications the shop received that carry this token, oldest first. */
  const notificationsOf = (token: string) =>
    t.db
      .select()
      .from(payfastItns)
      .where(like(payfastItns.rawBody, `%token=${token}%`))
      .orderBy(payfastItns.id);

  const charge = (mPaymentId = randomUUID(), amountCents = 57_499) => ({
    amountCents,
    itemName: "Snug & Dry nappy plan box",
    mPaymentId,
  });

  it("gives a card token in the first payment's notification, right after merchant_id, and the shop's order is paid", async () => {
    const { token, orderId, itnBody } = await tokenFromCheckout();
    expect(token).toMatch(TOKEN_SHAPE);
    expect(token).toHaveLength(36);
    const keys = [...new URLSearchParams(itnBody).keys()];
    expect(keys.slice(keys.indexOf("merchant_id"))).toEqual(["merchant_id", "token", "signature"]);
    const [received] = await notificationsOf(token);
    expect(received).toMatchObject({ orderId, paymentStatus: "COMPLETE", outcome: "accepted" });
    expect(await emulator.token(token)).toMatchObject({ status: "ACTIVE", subscriptionType: 2 });
  });

  it("shows a card-only page with Decline card, which keeps the shopper there to try again or cancel", async () => {
    const { orderId, fields } = await tokenizingCheckout();
    const page = await post("/payfast-emulator/eng/process", form(fields));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Decline card");
    expect(page.body).toContain("Your card is saved");
    expect(page.body).not.toContain("Payment pending (slow EFT)");
    const declined = await post("/payfast-emulator/eng/decline", form(fields));
    expect(declined.statusCode).toBe(200);
    expect(declined.body).toContain('role="alert">Your card was declined');
    expect(declined.body).toContain(">Try again</button>");
    expect(declined.body).toContain(">Cancel payment</button>");
    expect(declined.body).not.toContain(">Complete payment</button>");
    const again = await post("/payfast-emulator/eng/retry", form(fields));
    expect(again.body).toContain(">Complete payment</button>");
    const taken = await t.db
      .select()
      .from(payfastEmulatorPayments)
      .where(eq(payfastEmulatorPayments.mPaymentId, orderId));
    expect(taken).toEqual([]);
  });

  it("takes R0.00 only to set up a token, and at least R5.00 otherwise", async () => {
    const { fields: zero } = await tokenizingCheckout(0);
    expect((await post("/payfast-emulator/eng/process", form(zero))).statusCode).toBe(200);

    const plain = (amount: string) => {
      const fields: Record<string, string> = {
        merchant_id: PAYFAST_SANDBOX.merchantId,
        merchant_key: PAYFAST_SANDBOX.merchantKey,
        amount,
        item_name: "Order",
      };
      return form({ ...fields, signature: checkoutSignature(fields, PAYFAST_SANDBOX.passphrase) });
    };
    for (const amount of ["0.00", "4.99"]) {
      const refused = await post("/payfast-emulator/eng/process", plain(amount));
      expect(refused.statusCode, amount).toBe(400);
      expect(refused.body).toContain("at least R5.00");
    }
    expect((await post("/payfast-emulator/eng/process", plain("5.00"))).statusCode).toBe(200);
  });

  it.each([
    [{ payment_method: "eft" }, "credit card only"],
    [{ frequency: "3" }, "no frequency"],
    [{ subscription_type: "3" }, "must be 1 (subscription) or 2 (tokenization)"],
    [{ subscription_type: "1", frequency: "7", cycles: "0" }, "The frequency must be"],
    [{ subscription_type: "1", frequency: "2" }, "The cycles must be"],
  ])("refuses recurring fields PayFast refuses: %j", async (change, message) => {
    const { fields } = await tokenizingCheckout();
    const { signature: _, ...unsigned } = fields;
    const changed = { ...unsigned, ...change };
    const signed = { ...changed, signature: checkoutSignature(changed, PAYFAST_SANDBOX.passphrase) };
    const refused = await post("/payfast-emulator/eng/process", form(signed));
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(message);
  });

  it("sets up a PayFast subscription (type 1) with its billing_date in the notification", async () => {
    const { fields } = await tokenizingCheckout();
    const { signature: _, ...unsigned } = fields;
    const changed = { ...unsigned, subscription_type: "1", billing_date: "2026-07-01", frequency: "3", cycles: "12" };
    const signed = { ...changed, signature: checkoutSignature(changed, PAYFAST_SANDBOX.passphrase) };
    const page = await post("/payfast-emulator/eng/process", form(signed));
    expect(page.body).toContain("Then R574.99 every month, 12 times");
    expect((await post("/payfast-emulator/eng/complete", form(signed))).statusCode).toBe(303);
    const [payment] = await t.db
      .select()
      .from(payfastEmulatorPayments)
      .where(eq(payfastEmulatorPayments.mPaymentId, fields.m_payment_id ?? ""));
    const keys = [...new URLSearchParams(payment?.itnBody).keys()];
    expect(keys.slice(keys.indexOf("merchant_id"))).toEqual(["merchant_id", "token", "billing_date", "signature"]);
    // Ad hoc charges are tokenization's, not a subscription's.
    const token = new URLSearchParams(payment?.itnBody).get("token") ?? "";
    expect(await api.chargeToken(token, charge())).toMatchObject({ kind: "unknown" });
  });

  it("charges a token ad hoc: the payment is in the history with its m_payment_id and notified with the token", async () => {
    const { token } = await tokenFromCheckout();
    const mPaymentId = randomUUID();
    const outcome = await api.chargeToken(token, charge(mPaymentId, 61_250));
    expect(outcome).toMatchObject({ kind: "paid", pfPaymentId: expect.stringMatching(/^\d+$/) });
    const pfPaymentId = outcome.kind === "paid" ? outcome.pfPaymentId : "";
    const history = await api.transactionHistory(sastDate(new Date()), sastDate(new Date()));
    expect(history).toContainEqual(expect.objectContaining({ mPaymentId, pfPaymentId, grossCents: 61_250 }));
    const notified = await waitFor(
      () => notificationsOf(token),
      (rows) => rows.some((row) => row.pfPaymentId === pfPaymentId),
    );
    const itn = new URLSearchParams(notified.find((row) => row.pfPaymentId === pfPaymentId)?.rawBody);
    expect(itn.get("m_payment_id")).toBe(mPaymentId);
    expect(itn.get("amount_gross")).toBe("612.50");
    expect(itn.get("token")).toBe(token);
  });

  it("reads the sandbox's boolean and live's \"true\" alike", async () => {
    const { token } = await tokenFromCheckout();
    emulator.chargeResponseStyle("sandbox");
    expect((await api.chargeToken(token, charge())).kind).toBe("paid");
    emulator.chargeResponseStyle("live");
    expect((await api.chargeToken(token, charge())).kind).toBe("paid");
  });

  it("declines with the bank's code as a 200, for as many charges as asked, and an expired card with 54", async () => {
    const { token } = await tokenFromCheckout();
    emulator.declineCharges(token, "05", { count: 1 });
    expect(await api.chargeToken(token, charge())).toMatchObject({ kind: "declined", code: "05" });
    expect((await api.chargeToken(token, charge())).kind).toBe("paid");
    emulator.expireCard(token);
    expect(await api.chargeToken(token, charge())).toMatchObject({ kind: "declined", code: "54" });
    emulator.declineCharges(token, null);
    expect((await api.chargeToken(token, charge())).kind).toBe("paid");
  });

  it("refuses charges of a token on hold (400, response 4) until it is unpaused", async () => {
    const { token } = await tokenFromCheckout();
    await emulator.holdToken(token);
    expect(await api.chargeToken(token, charge())).toEqual({
      kind: "not_valid_state",
      message: "The subscription is not in a valid state.",
    });
    expect(await api.fetchSubscription(token)).toMatchObject({ token, status: "paused", statusText: "PAUSED" });
    await api.unpauseSubscription(token);
    expect((await api.chargeToken(token, charge())).kind).toBe("paid");
    await api.pauseSubscription(token);
    expect((await api.chargeToken(token, charge())).kind).toBe("not_valid_state");
    await expect(api.pauseSubscription(token)).rejects.toThrow(/not in a valid state/);
  });

  it.each([
    ["the connection dropped", "reset", "sent"],
    ["a 503", "503", "lost"],
  ] as const)(
    "takes a charge whose answer is lost (%s): unknown, and the history shows it",
    async (_name, answer, notification) => {
      const { token } = await tokenFromCheckout();
      const mPaymentId = randomUUID();
      emulator.loseNextChargeAnswer(token, { answer, notification });
      expect((await api.chargeToken(token, charge(mPaymentId))).kind).toBe("unknown");
      const history = await api.transactionHistory(sastDate(new Date()), sastDate(new Date()));
      const row = history.find((entry) => entry.mPaymentId === mPaymentId);
      expect(row).toMatchObject({ type: "FUNDS_RECEIVED", grossCents: 57_499 });
      if (notification === "sent") {
        const rows = await waitFor(
          () => notificationsOf(token),
          (found) => found.some((entry) => entry.pfPaymentId === row?.pfPaymentId),
        );
        expect(rows.some((entry) => entry.pfPaymentId === row?.pfPaymentId)).toBe(true);
      } else {
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect((await notificationsOf(token)).some((entry) => entry.pfPaymentId === row?.pfPaymentId)).toBe(false);
      }
    },
  );

  it("duplicates, loses and holds notifications, and sends held ones out of order", async () => {
    const { token } = await tokenFromCheckout();
    emulator.tokenNotifications("duplicated");
    const twice = await api.chargeToken(token, charge());
    const twiceId = twice.kind === "paid" ? twice.pfPaymentId : "";
    const copies = await waitFor(
      () => notificationsOf(token),
      (rows) => rows.filter((row) => row.pfPaymentId === twiceId).length === 2,
    );
    expect(copies.filter((row) => row.pfPaymentId === twiceId)).toHaveLength(2);

    emulator.tokenNotifications("held");
    const first = await api.chargeToken(token, charge());
    const second = await api.chargeToken(token, charge());
    const ids = [first, second].map((outcome) => (outcome.kind === "paid" ? outcome.pfPaymentId : ""));
    expect((await notificationsOf(token)).filter((row) => ids.includes(row.pfPaymentId ?? ""))).toEqual([]);
    expect(await emulator.releaseHeldNotifications("newest_first")).toBe(2);
    const order = (await notificationsOf(token)).map((row) => row.pfPaymentId).filter((id) => ids.includes(id ?? ""));
    expect(order).toEqual([ids[1], ids[0]]);

    emulator.tokenNotifications("lost");
    const lost = await api.chargeToken(token, charge());
    const lostId = lost.kind === "paid" ? lost.pfPaymentId : "";
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await notificationsOf(token)).some((row) => row.pfPaymentId === lostId)).toBe(false);
  });

  it("cancels a token with a PUT (Content-Length: 0), notifies CANCELLED with the token, and says so again", async () => {
    const { token } = await tokenFromCheckout();
    expect(await api.fetchSubscription(token)).toMatchObject({ status: "active", statusText: "ACTIVE" });
    expect(await api.cancelSubscription(token)).toBe("cancelled");
    const rows = await waitFor(
      () => notificationsOf(token),
      (found) => found.some((row) => row.paymentStatus === "CANCELLED"),
    );
    const cancelled = new URLSearchParams(rows.find((row) => row.paymentStatus === "CANCELLED")?.rawBody);
    expect(cancelled.get("token")).toBe(token);
    expect(await api.cancelSubscription(token)).toBe("already_cancelled");
    expect(await api.chargeToken(token, charge())).toMatchObject({ kind: "not_valid_state" });
    expect(await api.fetchSubscription(token)).toMatchObject({ status: "cancelled" });
  });

  it("notifies CANCELLED when the token is cancelled in PayFast's dashboard", async () => {
    const { token } = await tokenFromCheckout();
    await emulator.cancelTokenInDashboard(token);
    const rows = await notificationsOf(token);
    expect(rows.map((row) => row.paymentStatus)).toEqual(["COMPLETE", "CANCELLED"]);
    expect((await api.chargeToken(token, charge())).kind).toBe("not_valid_state");
  });

  it("answers 411 to a PUT without Content-Length, and 401 to an unsigned call", async () => {
    const { token } = await tokenFromCheckout();
    const headers = {
      "merchant-id": PAYFAST_SANDBOX.merchantId,
      version: "v1",
      timestamp: payfastTimestamp(new Date()),
    };
    const signed = { ...headers, signature: apiSignature(headers, PAYFAST_SANDBOX.passphrase) };
    const noLength = await t.app.inject({
      method: "PUT",
      url: `/payfast-emulator/api/subscriptions/${token}/cancel`,
      headers: signed,
    });
    expect(noLength.statusCode).toBe(411);
    const unsigned = await t.app.inject({
      method: "PUT",
      url: `/payfast-emulator/api/subscriptions/${token}/cancel`,
      headers: { ...signed, signature: "0".repeat(32), "content-length": "0" },
    });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toMatchObject({ data: { response: "Merchant authorisation failed." } });
    expect(await emulator.token(token)).toMatchObject({ status: "ACTIVE" });
  });

  it("answers an unknown token 404: a fetch throws, a charge is not called paid", async () => {
    const unknown = randomUUID();
    await expect(api.fetchSubscription(unknown)).rejects.toThrow(/404/);
    expect((await api.chargeToken(unknown, charge())).kind).toBe("unknown");
  });

  it("refuses every call with a 429 rate limit or an IP whitelist's 401 when switched on, and the client says which", async () => {
    const { token } = await tokenFromCheckout();
    emulator.refuseApiCalls("rate_limit");
    expect(await api.chargeToken(token, charge())).toMatchObject({
      kind: "unknown",
      message: expect.stringMatching(/429.*Signature rate limit reached/),
    });
    await expect(api.transactionHistory(sastDate(new Date()), sastDate(new Date()))).rejects.toThrow(
      /Signature rate limit reached/,
    );
    emulator.refuseApiCalls("origin");
    await expect(api.ping()).rejects.toThrow(/origin of this request could not be verified/);
    emulator.refuseApiCalls("none");
    await api.ping();
  });

  it("refuses a refund create without notify_buyer", async () => {
    const { orderId } = await tokenFromCheckout();
    const [payment] = await t.db
      .select()
      .from(payfastEmulatorPayments)
      .where(eq(payfastEmulatorPayments.mPaymentId, orderId));
    const body = { amount: 100, reason: "Damaged pack" };
    const headers = {
      "merchant-id": PAYFAST_SANDBOX.merchantId,
      version: "v1",
      timestamp: payfastTimestamp(new Date()),
    };
    const refused = await t.app.inject({
      method: "POST",
      url: `/payfast-emulator/api/refunds/${payment?.pfPaymentId}`,
      headers: {
        ...headers,
        signature: apiSignature({ ...headers, amount: "100", reason: body.reason }, PAYFAST_SANDBOX.passphrase),
      },
      payload: body,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      status: "failed",
      data: { message: expect.stringMatching(/notify_buyer/) },
    });
  });
});
