import { randomUUID } from "node:crypto";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { buildCheckoutForm, type CheckoutOrder, payfastProcessUrl } from "#server/payfast/adapter.js";
import { loadConfig } from "#server/platform/config.js";
import { securityHeaders } from "#server/platform/security-headers.js";
import { LIVE_COURIER, LIVE_SELLER, LIVE_TOTP_KEY } from "../helpers/live-seller.js";
import { escapeHtml, type RunningServer, readBody, startHttpsServer } from "./support/https-server.js";
import { selfSignedCertificate } from "./support/tls.js";

/**
 * Live PayFast answers the checkout form's POST to https://www.payfast.co.za/eng/process with a
 * redirect to https://payment.payfast.io/eng/process/payment/<uuid>, and browsers check CSP
 * form-action against each hop of that redirect (docs/payfast.md §5, "Where the shopper's browser goes").
 * This spec runs that flow in the real Chromium against stand-ins for the shop and both PayFast
 * hosts, all HTTPS on 127.0.0.1 (Chromium's --host-resolver-rules sends the real names there), the
 * shop's page carrying the CSP our code builds for live mode. Nothing here touches the internet.
 */

const SHOP = "shop.test";
const PAYFAST = "www.payfast.co.za";
const PAYMENT = "payment.payfast.io";

const liveConfig = loadConfig({
  PAYFAST_MODE: "live",
  ...LIVE_SELLER,
  ...LIVE_TOTP_KEY,
  ...LIVE_COURIER,
  PUBLIC_URL: `https://${SHOP}`,
  PAYFAST_MERCHANT_ID: "10234567",
  PAYFAST_MERCHANT_KEY: "q1cd2rdny4a53",
  PAYFAST_PASSPHRASE: "a-live-passphrase",
  SMTP_URL: "smtps://shop:mail-secret@mail.example.co.za:465",
});

const order: CheckoutOrder = {
  id: "5f0c2a8e-7f1e-4c39-9a43-2b6f0d1c9e71",
  totalCents: 57_499,
  customerEmail: "thandi@example.co.za",
  deliveryName: "Thandi van der Merwe",
  deliveryPhone: "082 123 4567",
  items: [{ name: "Night nappies", size: "4", quantity: 2 }],
};

const liveCsp = securityHeaders(liveConfig).page["content-security-policy"] ?? "";
/** The policy before the fix: the same CSP with form-action naming only www.payfast.co.za. */
const OLD_FORM_ACTION = "form-action 'self' https://www.payfast.co.za";
const oldCsp = liveCsp.replace(/form-action [^;]*/, OLD_FORM_ACTION);

const form = buildCheckoutForm(order, liveConfig);

/** The shop's checkout page: the form posts to PayFast when the shopper presses the button (no script). */
function checkoutPage(): string {
  const fields = Object.entries(form)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n      ");
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Checkout</title></head>
  <body>
    <h1>Checkout</h1>
    <form method="post" action="${escapeHtml(payfastProcessUrl(liveConfig))}">
      ${fields}
      <button type="submit">Pay with PayFast</button>
    </form>
  </body>
</html>`;
}

/** What the stand-ins saw: the posts to www.payfast.co.za and the payment pages asked for. */
const seen = { posts: [] as string[], paymentPages: [] as string[] };
const sessions = new Map<string, string>();

let servers: RunningServer[] = [];
let browser: Browser;

test.beforeAll(async ({ playwright, headless, launchOptions }) => {
  const tls = selfSignedCertificate([SHOP, PAYFAST, PAYMENT]);

  // The shop: "/" under the CSP our code builds for live mode, "/old-policy" under the one before the fix.
  const shop = await startHttpsServer(tls, (request, response) => {
    const url = new URL(request.url ?? "/", `https://${SHOP}`);
    const csp = url.pathname === "/" ? liveCsp : url.pathname === "/old-policy" ? oldCsp : null;
    if (request.method !== "GET" || !csp) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      ...securityHeaders(liveConfig).page,
      "content-security-policy": csp,
      "content-type": "text/html; charset=utf-8",
    });
    response.end(checkoutPage());
  });

  // www.payfast.co.za: takes the form post and redirects to a payment session on payment.payfast.io, as live PayFast does.
  const payfast = await startHttpsServer(tls, async (request, response) => {
    if (request.method !== "POST" || request.url !== "/eng/process") {
      response.writeHead(404).end();
      return;
    }
    const body = await readBody(request);
    seen.posts.push(body);
    const session = randomUUID();
    sessions.set(session, new URLSearchParams(body).get("amount") ?? "");
    response.writeHead(302, { location: `https://${PAYMENT}/eng/process/payment/${session}` }).end();
  });

  // payment.payfast.io: the payment page of a session made by the post.
  const payment = await startHttpsServer(tls, (request, response) => {
    const session = /^\/eng\/process\/payment\/([0-9a-f-]{36})$/.exec(request.url ?? "")?.[1];
    const amount = session ? sessions.get(session) : undefined;
    if (request.method !== "GET" || !session || amount === undefined) {
      response.writeHead(404).end();
      return;
    }
    seen.paymentPages.push(session);
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PayFast</title></head>` +
        `<body><h1>Pay R${escapeHtml(amount)}</h1></body></html>`,
    );
  });
  servers = [shop, payfast, payment];

  const rules = [
    `MAP ${SHOP} 127.0.0.1:${shop.port}`,
    `MAP ${PAYFAST} 127.0.0.1:${payfast.port}`,
    `MAP ${PAYMENT} 127.0.0.1:${payment.port}`,
  ].join(", ");
  // The config's launch options (executablePath, --no-sandbox, ...) plus the name mapping; the
  // throwaway certificate is trusted by ignoring certificate errors in this browser only.
  browser = await playwright.chromium.launch({
    headless,
    ...launchOptions,
    args: [...(launchOptions.args ?? []), `--host-resolver-rules=${rules}`, "--ignore-certificate-errors"],
  });
});

test.afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
});

/** A fresh page in the mapped browser, with its console messages collected. */
async function openPage(): Promise<{ context: BrowserContext; page: Page; console: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const console: string[] = [];
  page.on("console", (message) => console.push(message.text()));
  return { context, page, console };
}

test("the live CSP lets the checkout form reach PayFast's payment page through its redirect", async () => {
  const { context, page, console } = await openPage();
  const posts = seen.posts.length;
  const paymentPages = seen.paymentPages.length;

  await page.goto(`https://${SHOP}/`);
  await page.getByRole("button", { name: "Pay with PayFast" }).click();

  await expect(page.getByRole("heading", { name: "Pay R574.99" })).toBeVisible();
  const landed = new URL(page.url());
  expect(landed.origin).toBe(`https://${PAYMENT}`);
  expect(landed.pathname).toMatch(/^\/eng\/process\/payment\/[0-9a-f-]{36}$/);
  // PayFast got our form as built, fields in order, and the browser followed its redirect once.
  expect(seen.posts).toHaveLength(posts + 1);
  expect([...new URLSearchParams(seen.posts.at(-1))]).toEqual(Object.entries(form));
  expect(seen.paymentPages).toHaveLength(paymentPages + 1);
  expect(console.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
  await context.close();
});

test("negative control: under the old policy (form-action without payment.payfast.io) Chromium blocks the redirect", async () => {
  expect(oldCsp).not.toBe(liveCsp);
  expect(oldCsp).toContain(`${OLD_FORM_ACTION};`);
  const { context, page, console } = await openPage();
  const posts = seen.posts.length;
  const paymentPages = seen.paymentPages.length;

  await page.goto(`https://${SHOP}/old-policy`);
  await page.getByRole("button", { name: "Pay with PayFast" }).click();

  // The post itself is allowed and reaches www.payfast.co.za; the redirect to payment.payfast.io is refused.
  await expect.poll(() => seen.posts.length).toBe(posts + 1);
  // Chromium names the URL the form was posted to, not the redirect's target (CSP hides where a
  // redirect went), so the post reaching www.payfast.co.za above is what places the block on the redirect.
  await expect
    .poll(() => console.find((text) => text.startsWith(`Sending form data to 'https://${PAYFAST}/eng/process'`)))
    .toContain(
      `violates the following Content Security Policy directive: "${OLD_FORM_ACTION}". The request has been blocked.`,
    );
  await expect(page.getByRole("heading", { name: /^Pay R/ })).toHaveCount(0);
  expect(page.url()).toBe(`https://${SHOP}/old-policy`);
  expect(seen.paymentPages).toHaveLength(paymentPages);
  await context.close();
});
