import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { LegalPage, PolicyVersion } from "#domain/policies.js";
import { DISPATCH_PROMISE } from "#domain/pricing.js";
import { vatWording } from "#domain/vat-wording.js";
import { loadConfig } from "#server/platform/config.js";
import { emails } from "#server/platform/db/schema.js";
import { type SignedIn, signInAsAdmin } from "../helpers/admin.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import { bodyText } from "../helpers/html.js";
import { sourcePageRenderer } from "../helpers/page-renderer.js";
import { pdfText } from "../helpers/pdf.js";
import { placeTestOrder, stockedLine } from "../helpers/refunds.js";
import { type LoggedInUser, registerAndLogin } from "../helpers/users.js";

/**
 * VAT wording by registration (CPA s41; docs/decisions/037): without SHOP_VAT_NUMBER no page,
 * e-mail, policy or document says prices include VAT or that goods are zero-rated; with it, they do.
 */
const SAYS_VAT_INCLUDED = /VAT included|include VAT|includes VAT|VAT inclusive|zero-rated/i;

interface Shop {
  t: TestApp;
  admin: SignedIn;
  shopper: LoggedInUser;
}

let unregistered: Shop;
let registered: Shop;

/** A shop on its own database, with its pages rendered on the server from the sources. */
async function startShop(env: Record<string, string>): Promise<Shop> {
  const full = { PUBLIC_URL: "http://localhost:3000", ...env };
  // The storefront reads its page config once per module graph: a fresh graph for each shop.
  vi.resetModules();
  const t = await buildTestApp(full, { pageRenderer: await sourcePageRenderer(loadConfig(full)) });
  return { t, admin: await signInAsAdmin(t), shopper: await registerAndLogin(t, { fullName: "Thandi Mokoena" }) };
}

beforeAll(async () => {
  // The pages a shop loads lazily (a product's) come from the newest module graph: the shop whose
  // pages are read most is started last.
  registered = await startShop({ SHOP_VAT_NUMBER: "4123456789" });
  unregistered = await startShop({});
});
afterAll(async () => {
  await unregistered?.t.close();
  await registered?.t.close();
});

const get = (shop: Shop, url: string, headers: Record<string, string> = {}) =>
  shop.t.app.inject({ method: "GET", url, headers });

/** The text a reader sees on a page the server renders. */
async function pageText(shop: Shop, url: string): Promise<string> {
  const page = await get(shop, url);
  expect(page.statusCode, url).toBe(200);
  return bodyText(page.body).replace(/\s+/g, " ");
}

async function firstProductPath(shop: Shop): Promise<string> {
  const products = (await get(shop, "/api/products")).json() as { slug: string }[];
  const [product] = products;
  if (!product) throw new Error("no products");
  return `/products/${product.slug}`;
}

/** Places and confirms an order with a zero-rated and a standard-rated line; answers its confirmation e-mail as sent. */
async function confirmedOrder(shop: Shop) {
  const lines = [await stockedLine(shop.t, 1, 0, "zero"), await stockedLine(shop.t, 1, 0, "standard")];
  const { orderId } = await placeTestOrder(shop.t, shop.shopper, lines);
  const paid = await shop.t.app.inject({
    method: "PATCH",
    url: `/api/admin/orders/${orderId}/confirm-payment`,
    headers: { cookie: shop.admin.cookie },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  const [message] = await shop.t.db
    .select({ id: emails.id })
    .from(emails)
    .where(and(eq(emails.kind, "order_confirmation"), eq(emails.eventKey, orderId)));
  if (!message) throw new Error("no confirmation written");
  await shop.t.app.mail.deliverDue();
  const email = (await get(shop, `/api/admin/emails/${message.id}`, { cookie: shop.admin.cookie })).json() as {
    subject: string;
    html: string;
    text: string;
  };
  const invoice = await get(shop, `/api/orders/${orderId}/invoice.pdf`, shop.shopper.headers);
  expect(invoice.statusCode).toBe(200);
  return { email, invoice: (await pdfText(invoice.rawPayload)).replace(/\s+/g, " ") };
}

describe("a shop that is not VAT-registered", () => {
  it.each(["/", "/legal", "/terms", "/return-policy", "/privacy", "/paia-manual"])(
    "says nowhere on %s that prices include VAT or that goods are zero-rated",
    async (url) => {
      expect(await pageText(unregistered, url)).not.toMatch(SAYS_VAT_INCLUDED);
    },
  );

  it("says nothing of VAT on a product's page either, and its footer says prices are in rand", async () => {
    const text = await pageText(unregistered, await firstProductPath(unregistered));
    expect(text).not.toMatch(SAYS_VAT_INCLUDED);
    expect(text).toMatch(/© \d{4} Snug & Dry\s*\.\s*Prices in rand\. Return Policy/);
  });

  it("states the full price on /legal (i) and in the terms without VAT, and says it is not registered", async () => {
    const legal = (await get(unregistered, "/api/legal")).json() as LegalPage;
    expect(legal.items.find((item) => item.item === "a")?.text).toContain("We are not registered for VAT.");
    expect(legal.items.find((item) => item.item === "i")?.text[0]).toBe(vatWording(false).fullPrice);
    const terms = (await get(unregistered, "/api/policies/terms")).json() as PolicyVersion;
    expect(terms.html).toContain("We are not registered for VAT, so no VAT is charged on the goods or on delivery.");
  });

  it("tells the browser the shop is not VAT-registered", async () => {
    expect((await get(unregistered, "/")).body).not.toContain('"vatRegistered"');
  });

  it("sends an order confirmation and an invoice that say nothing of VAT included or zero-rated goods", async () => {
    const { email, invoice } = await confirmedOrder(unregistered);
    expect(email.text).not.toMatch(SAYS_VAT_INCLUDED);
    expect(email.html).not.toMatch(SAYS_VAT_INCLUDED);
    expect(email.text).toContain(vatWording(false).pricesNote);
    expect(invoice).not.toMatch(/VAT/);
    expect(invoice).toContain("Invoice");
  });
});

describe("a VAT-registered shop", () => {
  it("says prices include VAT in the storefront and the footer", async () => {
    const text = await pageText(registered, "/");
    expect(text).toContain(vatWording(true).pricesLine);
    expect(text).toMatch(/© \d{4} Snug & Dry\s*\.\s*Prices in rand, VAT included\. Return Policy/);
    expect((await get(registered, "/")).body).toContain('"vatRegistered":true');
  });

  it("states the full price with VAT and the zero-rated goods on /legal (i) and in the terms", async () => {
    const legal = (await get(registered, "/api/legal")).json() as LegalPage;
    expect(legal.items.find((item) => item.item === "a")?.text).toContain("VAT registration number: 4123456789.");
    expect(legal.items.find((item) => item.item === "i")?.text[0]).toBe(vatWording(true).fullPrice);
    expect(await pageText(registered, "/legal")).toContain("sanitary pads and pantyliners are zero-rated");
    const terms = (await get(registered, "/api/policies/terms")).json() as PolicyVersion;
    expect(terms.html).toContain("include VAT where VAT applies: sanitary pads and pantyliners are zero-rated");
  });

  it("sends an order confirmation with the VAT per rate, and a tax invoice", async () => {
    const { email, invoice } = await confirmedOrder(registered);
    expect(email.text).toMatch(/VAT included at 15%/);
    expect(email.text).toMatch(/VAT at 0% \(zero-rated items\)/);
    expect(email.text).not.toContain(vatWording(false).pricesNote);
    expect(invoice).toContain("Tax Invoice");
    expect(invoice).toContain("zero-rated");
  });
});

describe("the dispatch promise", () => {
  it("reads the same on /legal (l) and in the terms", async () => {
    const legal = (await get(unregistered, "/api/legal")).json() as LegalPage;
    expect(legal.items.find((item) => item.item === "l")?.text[0]).toContain(DISPATCH_PROMISE);
    const terms = (await get(unregistered, "/api/policies/terms")).json() as PolicyVersion;
    expect(terms.html).toContain(DISPATCH_PROMISE);
  });
});
