import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { type APIRequestContext, expect, type Locator, type Page } from "@playwright/test";
import { parseRandToCents } from "#domain/money.js";
import { sizePrice } from "#domain/packs.js";
import { deliveryFeeCents } from "#domain/pricing.js";
import type { AdminProduct, Product } from "#domain/schemas/catalog.js";
import { seedProducts } from "#server/seed/seed-data.js";

/**
 * Makes an admin the way an operator does, with `npm run admin:create`, the password piped on
 * stdin (the CLI never takes it from the command line). The CLI reaches the server's embedded
 * PostgreSQL through DATA_DIR, which tests/e2e/run.mjs sets for the run.
 */
export function createAdminWithCli(admin: { username: string; email: string; password: string }) {
  execFileSync("npm", ["run", "--silent", "admin:create", "--", "--username", admin.username, "--email", admin.email], {
    env: process.env,
    input: `${admin.password}\n`,
    stdio: "pipe",
  });
}

// What a shopper does on the way to PayFast, shared by the PayFast specs.

export interface Shopper {
  username: string;
  fullName: string;
  email: string;
  password: string;
}

export function newShopper(): Shopper {
  const tag = randomBytes(4).toString("hex");
  return {
    username: `lerato_${tag}`,
    fullName: `Lerato Dlamini ${tag}`,
    email: `lerato.${tag}@example.co.za`,
    password: `soft-and-snug-${tag}`,
  };
}

/** Signs a new shopper up and in through the API; the page's browser shares the session cookie. */
export async function signUpAndLogIn(page: Page, shopper: Shopper = newShopper()): Promise<Shopper> {
  expect((await page.request.post("/api/auth/register", { data: shopper })).status()).toBe(201);
  const login = await page.request.post("/api/auth/login", {
    data: { username: shopper.username, password: shopper.password },
  });
  expect(login.status()).toBe(200);
  return shopper;
}

/**
 * An admin with no second factor confirms the session with their password, as at their first
 * refund or payment booked by hand (money moves are stepped up for ten minutes): tests that are not
 * about that prompt start past it. tests/e2e/admin.spec.ts goes through the prompt itself.
 */
export async function confirmAdminWithPassword(request: Page["request"], password: string) {
  const confirmed = await request.post("/api/auth/step-up/password", { data: { password } });
  expect(confirmed.status()).toBe(204);
}

/**
 * Answers the "Confirm it is you" password prompt whenever it shows on `page`: money moves ask an
 * admin with no second factor for their password once ADMIN_STEP_UP_MINUTES (0.1 in e2e) have
 * passed, and tests that are not about that prompt should not have to time it.
 */
export async function answerPasswordStepUp(page: Page, password: string) {
  const prompt = page.getByRole("dialog", { name: "Confirm it is you" });
  await page.addLocatorHandler(prompt.getByLabel("Password"), async () => {
    await prompt.getByLabel("Password").fill(password);
    await prompt.getByRole("button", { name: "Confirm" }).click();
    await expect(prompt).toHaveCount(0);
  });
}

/** Makes a new admin with the CLI and signs them in on `request` (API calls only, no page). */
export async function logInAsNewAdminForApi(request: APIRequestContext) {
  const tag = randomBytes(4).toString("hex");
  const admin = { username: `admin_${tag}`, email: `admin-${tag}@example.co.za`, password: `Admin-${tag}-secret` };
  createAdminWithCli(admin);
  const login = await request.post("/api/auth/login", {
    data: { username: admin.username, password: admin.password },
  });
  expect(login.status()).toBe(200);
  await confirmAdminWithPassword(request, admin.password);
  return admin;
}

/** Makes a new admin with the CLI and signs them in on `page`, answering the password step-up when asked. */
export async function logInAsNewAdmin(page: Page) {
  const admin = await logInAsNewAdminForApi(page.request);
  await answerPasswordStepUp(page, admin.password);
  return admin;
}

const inStockSizes = (product: Product) => product.sizes.filter((size) => !product.sizeOutOfStock[size]);

/**
 * A seeded product of the live catalogue with a size in stock: never one another spec created,
 * which that spec may change or delete while this one checks out.
 */
export async function pickInStockProduct(page: Page): Promise<{ product: Product; size: string }> {
  const seeded = new Set(seedProducts.map((product) => product.name));
  const products = (await (await page.request.get("/api/products")).json()) as Product[];
  const product = products.find(
    (candidate) => seeded.has(candidate.name) && !candidate.outOfStock && inStockSizes(candidate).length > 0,
  );
  if (!product) throw new Error("the seeded catalogue has no product in stock");
  return { product, size: inStockSizes(product)[0] as string };
}

/**
 * Resolves once React has taken over the server-rendered page (it tags each element it hydrates):
 * before that, the page shows but its buttons do nothing (docs/decisions/012-server-rendering.md).
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() =>
    ["main", "footer"].every((selector) => {
      const element = document.querySelector(selector);
      return Boolean(element && Object.keys(element).some((key) => key.startsWith("__reactFiber")));
    }),
  );
}

/**
 * Records every script the page fetches from now on (the entry, its chunks, lazily imported ones);
 * the returned function gives those fetched so far with their text. For checking what a page's
 * first load carries and what only comes later (issue 28: the promo field and the alert form load lazily).
 */
export function recordScripts(page: Page): () => Promise<{ url: string; body: string }[]> {
  const fetched: Promise<{ url: string; body: string }>[] = [];
  page.on("response", (response) => {
    if (!new URL(response.url()).pathname.endsWith(".js")) return;
    fetched.push(
      response.text().then(
        (body) => ({ url: response.url(), body }),
        () => ({ url: response.url(), body: "" }),
      ),
    );
  });
  return () => Promise.all(fetched);
}

/**
 * A card's size menu, the card scrolled to first as a shopper scrolls to it: a card more than a
 * screen away shows a stand-in until it comes near (decision 032).
 */
export async function sizeMenu(card: Locator): Promise<Locator> {
  await card.scrollIntoViewIfNeeded();
  return card.getByLabel("Size");
}

export async function addToCart(page: Page, product: Product, size: string) {
  await waitForHydration(page);
  const card = page.getByRole("article", { name: product.name });
  await (await sizeMenu(card)).selectOption(size);
  await card.getByRole("button", { name: "Add to Cart" }).click();
  await expect(card.getByRole("button", { name: "Added!" })).toBeDisabled();
}

export async function fillDelivery(page: Page) {
  await page.getByLabel("Phone number").fill("082 555 0199");
  await page.getByLabel("Street address").fill("12 Jacaranda Avenue");
  await page.getByLabel("Suburb").fill("Hatfield");
  await page.getByLabel("City").fill("Pretoria");
  await page.getByLabel("Province").selectOption("Gauteng");
  await page.getByLabel("Postal code").fill("0181");
}

/**
 * From the storefront of a signed-in shopper: one product into the cart, checkout, Place Order,
 * up to the PayFast (emulator) payment page. Returns the new order's id.
 */
export async function checkOutOneProduct(page: Page): Promise<string> {
  // The app restores the session after it starts: until then Add to Cart asks a guest to log in.
  await expect(page.getByRole("button", { name: "Login", exact: true })).toHaveCount(0);
  const { product, size } = await pickInStockProduct(page);
  await addToCart(page, product, size);
  await page.getByRole("button", { name: "Cart, 1 item" }).click();
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  await fillDelivery(page);
  // The answer is read on its way through: the page leaves for PayFast at once.
  let orderId = "";
  await page.route("**/api/create-order", async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as { orderId: string };
    orderId = json.orderId;
    await route.fulfill({ response, json });
  });
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await expect(page.getByRole("button", { name: "Complete payment", exact: true })).toBeVisible();
  await page.unroute("**/api/create-order");
  expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
  return orderId;
}

export const orderNumberOf = (orderId: string) => orderId.slice(-8).toUpperCase();

/**
 * Makes a new admin with the CLI and signs them in on `request`: a cookie jar of its own (the
 * test's `request` fixture), so the page stays the shopper's while the admin changes the catalogue.
 */
export async function logInAdminOn(request: Page["request"]) {
  const tag = randomBytes(4).toString("hex");
  const admin = { username: `stock_${tag}`, email: `stock-${tag}@example.co.za`, password: `Stock-${tag}-secret` };
  createAdminWithCli(admin);
  const login = await request.post("/api/auth/login", {
    data: { username: admin.username, password: admin.password },
  });
  expect(login.status()).toBe(200);
  await confirmAdminWithPassword(request, admin.password);
  return admin;
}

/** A product as the public catalogue answers it now. */
export async function publicProduct(request: APIRequestContext, id: string): Promise<Product | undefined> {
  const products = (await (await request.get("/api/products")).json()) as Product[];
  return products.find((product) => product.id === id);
}

/** An unpaid order placed as checkout places it (POST /api/create-order), by the page's shopper. */
export async function placeOrderByApi(page: Page, lines: { product: AdminProduct; size: string; quantity: number }[]) {
  const me = (await (await page.request.get("/api/auth/me")).json()) as { id: string; email: string };
  const priceOf = (line: { product: AdminProduct; size: string }) =>
    parseRandToCents(sizePrice(line.product, line.size)) ?? 0;
  const subtotal = lines.reduce((sum, line) => sum + priceOf(line) * line.quantity, 0);
  const fee = deliveryFeeCents(subtotal);
  const response = await page.request.post("/api/create-order", {
    data: {
      subtotal: subtotal / 100,
      deliveryFee: fee / 100,
      total: (subtotal + fee) / 100,
      items: lines.map(({ product, size, quantity }) => ({
        id: product.id,
        name: product.name,
        size,
        quantity,
        price: priceOf({ product, size }) / 100,
      })),
      customerEmail: me.email,
      userId: me.id,
      deliveryInfo: {
        name: "Thandi Mokoena",
        phone: "082 555 0199",
        email: me.email,
        address: "8 Acacia Street",
        city: "Bloemfontein",
        province: "Free State",
        zipCode: "9301",
        suburb: "Willows",
      },
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { orderId: string }).orderId;
}

/** MAIL_CAPTURE_DIR of the e2e server (playwright.config.ts): captured messages in full, reset links included. */
export const mailCaptureDir = path.resolve(process.env.DATA_DIR ?? "data", "captured-mail");

/**
 * Clicks a footer link until the address changes. Scrolling down to the footer the first time
 * draws the grid's cards near it (content-visibility). Their stand-in height is close to their
 * real one (storefront.spec.ts checks it), but on a busy machine a few pixels between Playwright's
 * press and release can still put the release beside a link, and the browser then clicks nothing.
 */
export async function clickFooterLink(page: Page, name: string, address: RegExp) {
  const link = page.getByRole("contentinfo").getByRole("link", { name, exact: true });
  await expect(async () => {
    await link.click();
    await expect(page).toHaveURL(address, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}
