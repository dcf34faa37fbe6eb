import { describe, expect, it } from "vitest";
import type {
  AccountChangedData,
  EmailLine,
  OrderConfirmationData,
  OrderRefundedData,
  OrderShippedData,
  ReturnUpdateData,
  ShopIdentity,
} from "../messages.js";
import { subjectOf } from "../subjects.js";
import { renderEmail } from "./index.js";

const shop: ShopIdentity = {
  name: "Snug & Dry",
  email: "hello@snuganddry.co.za",
  phone: "+27 21 555 0134",
  address: "14 Loop Street, Cape Town, 8001",
  publicUrl: "https://snuganddry.co.za",
  vatRegistered: true,
};

const lines: EmailLine[] = [
  { name: "Huggies Gold Nappies", size: "4 (9-14 kg)", quantity: 2, unitPriceCents: 32999 },
  { name: "Kotex Ultra Thin Pads", size: "16 pack", quantity: 1, unitPriceCents: 4999 },
];

const delivery = {
  name: "Thandi Mokoena",
  phone: "082 555 0199",
  address: "12 Jacaranda Avenue\nUnit 4, Sunnyside",
  city: "Pretoria",
  province: "Gauteng",
  zipCode: "0002",
};

const confirmation: OrderConfirmationData = {
  orderId: "0b6f1c2e-4d7a-4c1e-9a3b-5e8d7f3a9c21",
  orderNumber: "7F3A9C21",
  customerName: "Thandi",
  lines,
  subtotalCents: 70997,
  deliveryFeeCents: 0,
  totalCents: 70997,
  vatCents: 9260,
  delivery,
  paidAt: "2026-11-25T12:05:00.000Z",
};

const shipped: OrderShippedData = {
  orderId: confirmation.orderId,
  orderNumber: "7F3A9C21",
  customerName: "Thandi",
  lines,
  delivery,
  courier: "The Courier Guy",
  trackingNumber: "TCG123456789",
  trackingUrl: "https://portal.thecourierguy.co.za/track?ref=TCG123456789",
};

const refunded: OrderRefundedData = {
  orderId: confirmation.orderId,
  orderNumber: "7F3A9C21",
  refundId: "5d1c7a52-1b9e-4f0a-8c3d-2e6f9a7b4c10",
  customerName: "Thandi",
  amountCents: 32999,
  refundedCents: 32999,
  totalCents: 70997,
  reason: "One pack arrived damaged",
  creditNoteNumber: "CN-000012",
  refundedAt: "2026-11-25T12:05:00.000Z",
};

const emailChange: AccountChangedData = {
  name: "Thandi",
  change: "email",
  newEmail: "thandi.new@example.co.za",
  changedAt: "2026-11-25T12:05:00.000Z",
};

/** What a reader sees in the HTML: without tags and React's text separators, entities decoded. */
function visible(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<\/?(?:a|span|strong)\b[^>]*>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
}

function expectShopFooter(text: string, html: string) {
  for (const fact of [shop.name, shop.address, shop.email, shop.phone]) {
    expect(text).toContain(fact);
    expect(visible(html)).toContain(fact);
  }
  expect(html).toContain('href="mailto:hello@snuganddry.co.za"');
}

describe("order confirmation", () => {
  it("of a shop that is not VAT-registered: no VAT lines, and says no VAT is charged (CPA s41)", async () => {
    const { html, text } = await renderEmail("order_confirmation", confirmation, { ...shop, vatRegistered: false }, {});
    for (const part of [text, visible(html)]) {
      expect(part).toMatch(/Total\s+R709\.97/);
      expect(part).not.toMatch(/VAT included|zero-rated/);
      expect(part).toContain("We are not registered for VAT, so no VAT is charged.");
    }
  });

  it("links the policy versions the order was placed under, and says nothing of them in older messages", async () => {
    const policies = [
      { label: "Terms and Conditions, version 2 of 15 January 2027", path: "/terms/v/2" },
      { label: "Return Policy, version 1 of 26 November 2026", path: "/return-policy/v/1" },
      { label: "Privacy Policy, version 1 of 26 November 2026", path: "/privacy/v/1" },
    ];
    const { html, text } = await renderEmail("order_confirmation", { ...confirmation, policies }, shop, {});
    expect(visible(html)).toContain("Your agreement");
    for (const policy of policies) {
      expect(html).toContain(`href="https://snuganddry.co.za${policy.path}"`);
      expect(text).toContain(policy.label);
      expect(text).toContain(`https://snuganddry.co.za${policy.path}`);
    }
    const older = await renderEmail("order_confirmation", confirmation, shop, {});
    expect(older.text).not.toContain("Your agreement");
  });

  it("shows the order number, every line priced in rand, the totals with VAT, the address and a link", async () => {
    const { html, text } = await renderEmail("order_confirmation", confirmation, shop, {});
    const seen = visible(html);
    for (const part of [text, seen]) {
      expect(part).toContain("#7F3A9C21");
      expect(part).toContain("Huggies Gold Nappies");
      expect(part).toContain("Size 4 (9-14 kg)");
      expect(part).toContain("2 x R329.99");
      expect(part).toContain("R659.98");
      expect(part).toContain("1 x R49.99");
      expect(part).toMatch(/Subtotal\s+R709\.97/);
      expect(part).toMatch(/Delivery\s+Free/);
      expect(part).toMatch(/Total\s+R709\.97/);
      expect(part).toMatch(/VAT included\s+R92\.60/);
      expect(part).toContain("12 Jacaranda Avenue");
      expect(part).toContain("Unit 4, Sunnyside");
      expect(part).toContain("Pretoria, Gauteng, 0002");
      expect(part).toContain("25 November 2026, 14:05");
    }
    expect(text).toContain("View your order https://snuganddry.co.za/profile");
    expect(html).toContain('href="https://snuganddry.co.za/profile"');
    expectShopFooter(text, html);
  });

  it("gives the complex, suburb, other number and delivery instructions when the order has them", async () => {
    const full = {
      ...delivery,
      address: "12 Jacaranda Avenue",
      complex: "Unit 4, Jacaranda Court",
      suburb: "Sunnyside",
      altPhone: "012 555 0102",
      deliveryInstructions: "Gate code 4455, leave with security",
    };
    for (const [kind, data] of [
      ["order_confirmation", { ...confirmation, delivery: full }],
      ["order_shipped", { ...shipped, delivery: full }],
    ] as const) {
      const { html, text } = await renderEmail(kind, data, shop, {});
      for (const part of [text, visible(html)]) {
        expect(part).toContain("Unit 4, Jacaranda Court");
        expect(part).toContain("Sunnyside");
        expect(part).toContain("Pretoria, Gauteng, 0002");
        expect(part).toContain("Other number: 012 555 0102");
        expect(part).toContain("Delivery instructions: Gate code 4455, leave with security");
      }
    }
    // A message queued before the address had them shows the address as it was.
    const { text } = await renderEmail("order_confirmation", confirmation, shop, {});
    expect(text).not.toContain("Other number");
    expect(text).not.toContain("Delivery instructions");
  });

  it("shows the VAT per rate, zero-rated items at 0%, as the invoice does", async () => {
    const order: OrderConfirmationData = {
      ...confirmation,
      vatCents: 8_608,
      vatByRate: [
        { vatClass: "standard", rateBp: 1500, exclCents: 57_390, vatCents: 8_608, totalCents: 65_998 },
        { vatClass: "zero", rateBp: 0, exclCents: 4_999, vatCents: 0, totalCents: 4_999 },
      ],
    };
    const { html, text } = await renderEmail("order_confirmation", order, shop, {});
    for (const part of [text, visible(html)]) {
      expect(part).toMatch(/VAT included at 15%\s+R86\.08/);
      expect(part).toMatch(/VAT at 0% \(zero-rated items\)\s+R0\.00/);
      expect(part).not.toMatch(/VAT included\s+R/);
    }
  });

  it("shows a delivery fee in rand, with thousands separated", async () => {
    const order = { ...confirmation, subtotalCents: 129900, deliveryFeeCents: 9900, totalCents: 139800 };
    const { html, text } = await renderEmail("order_confirmation", order, shop, {});
    expect(text).toMatch(/Delivery\s+R99\.00/);
    expect(text).toMatch(/Total\s+R1,398\.00/);
    expect(visible(html)).toMatch(/Subtotal\s+R1,299\.00/);
  });

  it("escapes markup in names instead of running it", async () => {
    const order = {
      ...confirmation,
      greetByName: true,
      customerName: "<script>alert(1)</script>",
      lines: [{ ...lines[0], name: '<img src=x onerror="alert(2)">' } as EmailLine],
    };
    const { html, text } = await renderEmail("order_confirmation", order, shop, {});
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x");
    expect(text).toContain("Hi <script>alert(1)</script>,");
  });
});

describe("order shipped", () => {
  it("gives the courier, the tracking number, a tracking button, the lines and the address", async () => {
    const { html, text } = await renderEmail("order_shipped", shipped, shop, {});
    const seen = visible(html);
    for (const part of [text, seen]) {
      expect(part).toContain("on its way");
      expect(part).toContain("#7F3A9C21");
      expect(part).toContain("The Courier Guy");
      expect(part).toContain("TCG123456789");
      expect(part).toContain("Huggies Gold Nappies");
      expect(part).toContain("Size 4 (9-14 kg)");
      expect(part).toContain("Quantity 2");
      expect(part).toContain("Pretoria, Gauteng, 0002");
    }
    expect(text).toContain("Track your parcel https://portal.thecourierguy.co.za/track?ref=TCG123456789");
    expect(html).toContain('href="https://portal.thecourierguy.co.za/track?ref=TCG123456789"');
    expect(text).toContain("View your order https://snuganddry.co.za/profile");
    expect(text).not.toContain("R329.99");
    expectShopFooter(text, html);
  });

  it("leaves out the courier box and the tracking button when there is nothing to track", async () => {
    const untracked = { ...shipped, courier: null, trackingNumber: null, trackingUrl: null };
    const { html, text } = await renderEmail("order_shipped", untracked, shop, {});
    expect(text).not.toContain("Track your parcel");
    expect(text).not.toContain("Courier:");
    expect(text).not.toContain("null");
    expect(visible(html)).not.toContain("Tracking number");
    expect(text).toContain("View your order https://snuganddry.co.za/profile");
  });
});

describe("order refunded", () => {
  it("gives the amount in rand, the reason, the credit note and its link, and how long the bank takes", async () => {
    const { html, text } = await renderEmail("order_refunded", refunded, shop, {});
    for (const part of [text, visible(html)]) {
      expect(part).toContain("Part of your order has been refunded");
      expect(part).toContain("We have refunded R329.99 for order #7F3A9C21 through PayFast");
      expect(part).toContain("5-10 business days");
      expect(part).toContain("Credit note CN-000012");
      expect(part).toContain("Reason: One pack arrived damaged");
      expect(part).toContain("Refunded on 25 November 2026, 14:05");
      expect(part).toContain("Refunded so far: R329.99 of R709.97 paid");
    }
    const creditNote = `https://snuganddry.co.za/api/orders/${refunded.orderId}/refunds/${refunded.refundId}/credit-note.pdf`;
    expect(text).toContain(`Download the credit note (PDF) ${creditNote}`);
    expect(html).toContain(`href="${creditNote}"`);
    expectShopFooter(text, html);
  });

  it("says the whole order was refunded once refunds reach what was paid", async () => {
    const { text } = await renderEmail("order_refunded", { ...refunded, refundedCents: 70997 }, shop, {});
    expect(text).toContain("Your order has been refunded");
  });
});

describe("password reset", () => {
  const resetUrl = "https://snuganddry.co.za/reset-password?token=abcDEF123_-xyz";

  it("links to the reset page, says how long and how often it works, and what to do if not asked", async () => {
    const { html, text } = await renderEmail("password_reset", { resetId: "r1", name: "Thandi" }, shop, { resetUrl });
    expect(text).toContain(resetUrl);
    expect(html).toContain(`href="${resetUrl}"`);
    for (const part of [text, visible(html)]) {
      expect(part).toContain("30 minutes");
      expect(part).toContain("only once");
      expect(part).toContain("If you did not ask, ignore this message; your password stays the same.");
    }
    expectShopFooter(text, html);
  });

  it("says the link is made when sent, in a preview before sending", async () => {
    const { html, text } = await renderEmail("password_reset", { resetId: "r1", name: "Thandi" }, shop, {});
    expect(text).toContain("(the link is made when this message is sent)");
    expect(visible(html)).toContain("(the link is made when this message is sent)");
    expect(text).not.toContain("reset-password");
  });
});

describe("account changed", () => {
  it("tells of a new e-mail address, when in South African time, and what to do if it was not you", async () => {
    const { html, text } = await renderEmail("account_changed", emailChange, shop, {});
    for (const part of [text, visible(html)]) {
      // The new address is shown as text a mail client does not link (word joiners between its parts).
      expect(part.replace(/\u2060/g, "")).toContain(
        "The e-mail address of your account was changed to thandi.new@example.co.za",
      );
      expect(part).toContain("25 November 2026, 14:05");
      expect(part).toContain(
        "If this was not you, reset your password at https://snuganddry.co.za/ (Forgot password? in the login dialog) and contact us at hello@snuganddry.co.za / +27 21 555 0134",
      );
    }
    expectShopFooter(text, html);
  });

  it("tells of a new password, with a late-night UTC time on the next South African day", async () => {
    const change: AccountChangedData = {
      ...emailChange,
      change: "password",
      newEmail: null,
      changedAt: "2026-12-31T23:30:00.000Z",
    };
    const { text } = await renderEmail("account_changed", change, shop, {});
    expect(text).toContain("Your password was changed");
    expect(text).toContain("1 January 2027, 01:30");
    expect(text).not.toContain("null");
  });
});

describe("subjects", () => {
  it("name the shop and, for orders, the order number", () => {
    expect(subjectOf("order_confirmation", confirmation, shop.name)).toBe(
      "Your Snug & Dry order 7F3A9C21 is confirmed",
    );
    expect(subjectOf("order_shipped", shipped, shop.name)).toBe("Your Snug & Dry order 7F3A9C21 is on its way");
    expect(subjectOf("order_refunded", refunded, shop.name)).toBe("Your Snug & Dry refund for order 7F3A9C21");
    expect(subjectOf("password_reset", { resetId: "r1", name: "Thandi" }, shop.name)).toBe(
      "Reset your Snug & Dry password",
    );
    expect(subjectOf("account_changed", emailChange, shop.name)).toBe("Your Snug & Dry e-mail address was changed");
  });
});

describe("owner alert", () => {
  const raised = {
    key: "email-failing",
    state: "raised" as const,
    title: "Messages to customers are not going out",
    detail: "3 messages to customers have not been sent for over an hour (the last error: ECONNREFUSED).",
    raisedAt: "2026-11-26T08:00:00.000Z",
    resolvedAt: null,
  };

  it("says what is wrong, since when, and what to do, in HTML and text", async () => {
    const { html, text } = await renderEmail("owner_alert", raised, shop, {});
    expect(subjectOf("owner_alert", raised, shop.name)).toBe(
      "[Snug & Dry alert] Messages to customers are not going out",
    );
    for (const body of [html, text]) {
      expect(body).toContain("Alert: Messages to customers are not going out");
      expect(body).toContain("ECONNREFUSED");
      expect(body).toContain("https://snuganddry.co.za/admin");
    }
    expect(text).toContain("Since 26 November 2026, 10:00 (South African time)");
  });

  it("says when it cleared", async () => {
    const resolved = { ...raised, state: "resolved" as const, resolvedAt: "2026-11-26T09:30:00.000Z" };
    const { text } = await renderEmail("owner_alert", resolved, shop, {});
    expect(subjectOf("owner_alert", resolved, shop.name)).toBe(
      "[Snug & Dry resolved] Messages to customers are not going out",
    );
    expect(text).toContain("Resolved: Messages to customers are not going out");
    expect(text).toContain("no longer see this problem");
    expect(text).not.toContain("ECONNREFUSED");
  });
});

const returnUpdateOf = (step: ReturnUpdateData["step"], more: Partial<ReturnUpdateData> = {}): ReturnUpdateData => ({
  orderId: confirmation.orderId,
  orderNumber: "7F3A9C21",
  customerName: "Thandi",
  requestId: "8a0d2b8e-1c1a-4c55-9b8e-2f7f3c2d1e00",
  reference: "RET-000007",
  step,
  reason: "changed_mind",
  lines: [{ name: "Huggies Gold Nappies", size: "4 (9-14 kg)", quantity: 1, unitPriceCents: 32999 }],
  deadlineDay: "2026-12-25",
  note: null,
  shopPaysReturn: false,
  amountCents: null,
  ...more,
});

describe("return updates", () => {
  const returnUpdate = returnUpdateOf;

  it("tells the customer what happens next and by when", async () => {
    const { html, text } = await renderEmail("return_update", returnUpdate("requested"), shop, {});
    for (const part of [text, visible(html)]) {
      expect(part).toContain("We have your request");
      expect(part).toContain("RET-000007");
      expect(part).toContain("by 25 December 2026");
      expect(part).toContain("Huggies Gold Nappies");
    }
    expectShopFooter(text, html);
  });

  it("gives the return address and says who pays for sending it back", async () => {
    const mind = await renderEmail(
      "return_update",
      returnUpdate("accepted", { note: "Use the Pargo point." }),
      shop,
      {},
    );
    expect(mind.text).toContain(`Please send the goods back to: ${shop.address}`);
    expect(mind.text).toContain("you pay only the cost of sending them back");
    expect(mind.text).toContain("Use the Pargo point.");
    const defect = await renderEmail(
      "return_update",
      returnUpdate("accepted", { reason: "defective", shopPaysReturn: true }),
      shop,
      {},
    );
    expect(defect.text).toContain("We pay for sending back defective or wrong goods");
  });

  it("gives a decline's reason with the Ombud, a refund's amount, and a paid order the shop cannot fill", async () => {
    const declined = await renderEmail(
      "return_update",
      returnUpdate("declined", { note: "It came back opened." }),
      shop,
      {},
    );
    expect(declined.text).toContain("It came back opened.");
    expect(declined.text).toContain("www.cgso.org.za");
    const refund = await renderEmail("return_update", returnUpdate("refunded", { amountCents: 32999 }), shop, {});
    expect(refund.text).toContain("We have refunded R329.99");
    const short = await renderEmail(
      "return_update",
      returnUpdate("out_of_stock", { reason: "out_of_stock", amountCents: 70997 }),
      shop,
      {},
    );
    expect(short.text).toContain("no longer in stock");
    expect(short.text).toContain("R709.97");
    expect(subjectOf("return_update", returnUpdate("out_of_stock"), shop.name)).toBe(
      "Sorry: we cannot fill your Snug & Dry order 7F3A9C21 (RET-000007)",
    );
    expect(subjectOf("return_update", returnUpdate("accepted"), shop.name)).toBe(
      "Your Snug & Dry request RET-000007 (order 7F3A9C21) is accepted: what to do next",
    );
  });
});

describe("free text from customers", () => {
  const phishing = "Your account is locked, verify at https://evil.example/login now";

  it("greets nobody by name unless the account proved its address", async () => {
    const unproven = await renderEmail("order_confirmation", { ...confirmation, customerName: phishing }, shop, {});
    for (const part of [unproven.text, visible(unproven.html)]) {
      expect(part).toContain("Hello,");
      expect(part).not.toContain("Your account is locked");
    }
    const proven = await renderEmail("order_confirmation", { ...confirmation, greetByName: true }, shop, {});
    expect(proven.text).toContain("Hi Thandi,");
  });

  it("shows a name as plain text, cut, with no link a mail client could follow", async () => {
    const order = {
      ...confirmation,
      greetByName: true,
      customerName: phishing,
      delivery: { ...delivery, name: phishing, address: "Visit www.evil.example\nor https://evil.example/x" },
    };
    const { html, text } = await renderEmail("order_confirmation", order, shop, {});
    for (const part of [text, html]) {
      expect(part).not.toContain("https://evil.example");
      expect(part).not.toContain("www.evil.example");
      expect(part).not.toContain("evil.example");
    }
    expect(html).not.toMatch(/href="[^"]*evil/);
    // Cut to 60 characters, the end marked.
    const greetingLine = text.split("\n").find((line) => line.startsWith("Hi ")) ?? "";
    expect(greetingLine.replace(/\u2060/g, "").length).toBeLessThanOrEqual("Hi ,".length + 60);
    expect(greetingLine).toContain("…");
  });

  it("greets by a name only when allowed, as plain text, in every message that carries one", async () => {
    const kinds = [
      ["order_confirmation", { ...confirmation, customerName: phishing }],
      ["return_update", { ...returnUpdateOf("requested"), customerName: phishing }],
    ] as const;
    for (const [kind, data] of kinds) {
      const unproven = await renderEmail(kind, data as never, shop, {});
      for (const part of [unproven.text, visible(unproven.html)]) {
        expect(part, kind).toContain("Hello,");
        expect(part, kind).not.toContain("Your account is locked");
      }
      const proven = await renderEmail(kind, { ...data, greetByName: true } as never, shop, {});
      for (const part of [proven.text, proven.html]) expect(part, kind).not.toContain("evil.example");
      expect(proven.text, kind).toMatch(/Hi Your account is locked/);
    }
  });

  it("says nothing of the account's name in a reset message", async () => {
    const { html, text } = await renderEmail("password_reset", { resetId: "r", name: phishing }, shop, {
      resetUrl: "https://snuganddry.co.za/reset-password?token=abc",
    });
    for (const part of [text, visible(html)]) {
      expect(part).toContain("Hello,");
      expect(part).not.toContain("locked");
      expect(part).not.toContain("evil");
    }
  });
});

describe("wrong passwords tried", () => {
  it("says how many, that nobody got in, and what to do; greets by name only a proven address", async () => {
    const data = { name: "Thandi", greetByName: false, failures: 10, windowMinutes: 15, at: "2026-11-25T12:05:00Z" };
    const { html, text } = await renderEmail("login_failures", data, shop, {});
    for (const part of [text, visible(html)]) {
      expect(part).toContain("10 wrong passwords in 15 minutes");
      expect(part).toContain("25 November 2026, 14:05");
      expect(part).toContain("Nobody got in with a wrong password");
      expect(part).toContain("at most once a day");
      expect(part).not.toContain("Thandi");
    }
    expect((await renderEmail("login_failures", { ...data, greetByName: true }, shop, {})).text).toContain("Thandi");
    expect(subjectOf("login_failures", data, shop.name)).toBe(
      "Someone is trying wrong passwords on your Snug & Dry account",
    );
  });
});
