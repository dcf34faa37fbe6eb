import { describe, expect, it } from "vitest";
import { EMAIL_KINDS, type EmailKind } from "../platform/db/schema.js";
import { type EmailDataByKind, type EmailLine, RETURN_UPDATE_STEPS, type ShopIdentity } from "./messages.js";
import { subjectOf } from "./subjects.js";
import { renderEmail } from "./templates/index.js";

/**
 * The privacy policy's promise (POPIA s18, s26): no message's subject or preview (the line a mail
 * app shows after the subject, on a lock screen too) names a product, whatever the message. Every
 * kind the outbox can send is rendered with this product, its size and its name wherever a
 * message's data can carry them; a new kind without samples here fails.
 */
const PRODUCT = "Adult Pants Zq9";
const SIZE = "Size M";

const shop: ShopIdentity = {
  name: "Snug & Dry",
  email: "hello@snuganddry.co.za",
  phone: "+27 21 555 0134",
  address: "14 Loop Street, Cape Town, 8001",
  publicUrl: "https://snuganddry.co.za",
  vatRegistered: true,
};

const lines: EmailLine[] = [{ name: PRODUCT, size: SIZE, quantity: 2, unitPriceCents: 18999 }];
const delivery = {
  name: "Thandi Mokoena",
  phone: "082 555 0199",
  address: "12 Jacaranda Avenue",
  city: "Pretoria",
  province: "Gauteng",
  zipCode: "0002",
  deliveryInstructions: `Leave the ${PRODUCT} with the guard`,
};
const order = {
  orderId: "0b6f1c2e-4d7a-4c1e-9a3b-5e8d7f3a9c21",
  orderNumber: "7F3A9C21",
  customerName: "Thandi",
  greetByName: true,
};
const productUrl = "https://snuganddry.co.za/products/adult-pants-zq9";

const SAMPLES: { [K in EmailKind]: EmailDataByKind[K][] } = {
  order_confirmation: [
    {
      ...order,
      lines,
      subtotalCents: 37998,
      deliveryFeeCents: 7500,
      totalCents: 45498,
      vatCents: 5934,
      delivery,
      paidAt: "2026-11-25T12:05:00.000Z",
    },
  ],
  order_shipped: [
    {
      ...order,
      lines,
      delivery,
      courier: "The Courier Guy",
      trackingNumber: "TCG123456789",
      trackingUrl: "https://portal.thecourierguy.co.za/track?ref=TCG123456789",
    },
  ],
  order_refunded: [
    {
      ...order,
      refundId: "5d1c7a52-1b9e-4f0a-8c3d-2e6f9a7b4c10",
      amountCents: 18999,
      refundedCents: 18999,
      totalCents: 45498,
      reason: `One pack of ${PRODUCT} (${SIZE}) arrived damaged`,
      creditNoteNumber: "CN-000012",
      refundedAt: "2026-11-26T12:05:00.000Z",
    },
  ],
  return_update: RETURN_UPDATE_STEPS.map((step) => ({
    ...order,
    requestId: "9f8e7d6c-5b4a-4321-8765-43210fedcba9",
    reference: "RET-000042",
    step,
    reason: "defective" as const,
    lines,
    deadlineDay: "2026-12-20",
    note: `The ${PRODUCT} (${SIZE}) leaked`,
    shopPaysReturn: true,
    amountCents: 18999,
  })),
  password_reset: [{ resetId: "1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d", name: PRODUCT }],
  account_changed: [
    { name: "Thandi", change: "password", newEmail: null, changedAt: "2026-11-25T12:05:00.000Z" },
    { name: "Thandi", change: "email", newEmail: "thandi@example.co.za", changedAt: "2026-11-25T12:05:00.000Z" },
  ],
  owner_alert: (["raised", "resolved"] as const).map((state) => ({
    key: "job-failing:send-back-in-stock",
    state,
    title: "The send-back-in-stock job keeps failing",
    detail: `It failed 3 times: the alert for ${PRODUCT} (${SIZE}) could not be read.`,
    raisedAt: "2026-11-25T12:05:00.000Z",
    resolvedAt: state === "resolved" ? "2026-11-25T13:05:00.000Z" : null,
  })),
  email_change: [{ changeId: "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d" }],
  email_confirm: [{ changeId: "3b4c5d6e-7f8a-4b9c-8d0e-2f3a4b5c6d7e" }],
  signup_attempt: [{ attemptedAt: "2026-11-25T12:05:00.000Z" }],
  login_failures: [
    { greetByName: true, name: "Thandi", failures: 12, windowMinutes: 15, at: "2026-11-25T12:05:00.000Z" },
  ],
  stock_alert_confirm: [
    {
      productName: PRODUCT,
      size: SIZE,
      confirmUrl: "https://snuganddry.co.za/stock-alerts/confirm?token=abc",
      productUrl,
    },
  ],
  back_in_stock: [
    {
      productName: PRODUCT,
      size: SIZE,
      productUrl,
      unsubscribeUrl: "https://snuganddry.co.za/stock-alerts/unsubscribe?token=abc",
    },
  ],
  plan_charge_problem: [
    {
      planId: "5c1d7a52-9a3b-4c1e-8d7f-3a9c210b6f1c",
      customerName: "Thandi",
      greetByName: true,
      chargeDate: "2027-01-12",
      reason: "out_of_stock",
      totalCents: 43598,
      updateCardUrl: null,
      retryDate: null,
      shortLines: [{ name: PRODUCT, size: SIZE, wanted: 2, left: 0 }],
      changeUrl: "https://snuganddry.co.za/profile?tab=plans",
    },
    {
      planId: "5c1d7a52-9a3b-4c1e-8d7f-3a9c210b6f1c",
      customerName: "Thandi",
      greetByName: true,
      chargeDate: "2027-01-12",
      reason: "declined",
      totalCents: 43598,
      updateCardUrl: "https://www.payfast.co.za/eng/recurring/update/abc?return=https://snuganddry.co.za",
      retryDate: "2027-01-14",
      shortLines: [],
      changeUrl: "https://snuganddry.co.za/profile?tab=plans",
    },
  ],
  plan_next_box: [
    {
      planId: "5c1d7a52-9a3b-4c1e-8d7f-3a9c210b6f1c",
      customerName: "Thandi",
      greetByName: true,
      chargeDate: "2027-01-12",
      mode: "card",
      lines: [
        { ...lines[0], name: PRODUCT, size: SIZE, quantity: 2, unitPriceCents: 18049, previousUnitPriceCents: 17099 },
      ],
      subtotalCents: 36098,
      deliveryFeeCents: 7500,
      totalCents: 43598,
      skipUrl: "https://snuganddry.co.za/profile?skip=abc",
      changeUrl: "https://snuganddry.co.za/profile?tab=plans",
      payUrl: null,
    },
  ],
  plan_changed_by_shop: [
    {
      planId: "5c1d7a52-9a3b-4c1e-8d7f-3a9c210b6f1c",
      customerName: "Thandi",
      greetByName: true,
      change: "paused",
      until: "2027-02-01",
      reason: `${PRODUCT} (${SIZE}) is out until February`,
      plansUrl: "https://snuganddry.co.za/profile?tab=plans",
    },
  ],
  delivery_update: (
    ["out_for_delivery", "ready_for_collection", "delivered", "failed_attempt", "not_collected", "lost"] as const
  ).map((step) => ({
    ...order,
    step,
    option: `To a TCG Locker: ${PRODUCT} Plaza Locker, 12 Main Road`,
    waybillNumber: "SLX3BM3",
    ...(step === "ready_for_collection" ? { pin: "482913" } : {}),
    ...(step === "failed_attempt" ? { nextStep: "The courier will try again." } : {}),
    trackingUrl: "https://snuganddry.co.za/orders/x/tracking?t=abc",
    at: "2026-11-27T09:15:00.000Z",
  })),
};

/** The preview text React Email hides at the top of the body (its <Preview>), entities decoded. */
function previewOf(html: string): string {
  const match = /<div[^>]*data-skip-in-text="true"[^>]*>([^<]*)/.exec(html);
  if (!match) throw new Error("the message has no preview");
  return (match[1] ?? "")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .trim();
}

describe("no subject or preview names a product", () => {
  it.each([...EMAIL_KINDS])("%s", async (kind) => {
    const samples: EmailDataByKind[EmailKind][] | undefined = SAMPLES[kind];
    expect(
      samples?.length,
      `no sample of ${kind}: add one with the product wherever its data can hold it`,
    ).toBeGreaterThan(0);
    for (const data of samples ?? []) {
      const subject = subjectOf(kind, data, shop.name);
      const { html } = await renderEmail(kind, data, shop, {});
      const preview = previewOf(html);
      expect(preview.length).toBeGreaterThan(0);
      for (const [what, line] of [
        ["subject", subject],
        ["preview", preview],
      ] as const) {
        expect(line, `${kind}'s ${what}`).not.toContain(PRODUCT);
        expect(line, `${kind}'s ${what}`).not.toMatch(/pants/i);
        expect(line, `${kind}'s ${what}`).not.toContain(SIZE);
      }
    }
  });

  it("an order's subject names the shop and the order number", () => {
    const [confirmation] = SAMPLES.order_confirmation;
    if (!confirmation) throw new Error("no sample");
    expect(subjectOf("order_confirmation", confirmation, shop.name)).toBe(
      "Your Snug & Dry order 7F3A9C21 is confirmed",
    );
  });

  it("reads the preview the way the test above does", async () => {
    const [data] = SAMPLES.back_in_stock;
    if (!data) throw new Error("no sample");
    const { html } = await renderEmail("back_in_stock", data, shop, {});
    expect(previewOf(html)).toBe("The size you asked about is back in stock at Snug & Dry.");
    // The product is still named in the message itself, where only its reader sees it.
    expect(html).toContain(PRODUCT);
  });
});
