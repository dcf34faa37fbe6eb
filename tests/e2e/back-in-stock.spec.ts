import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { AdminProduct } from "#domain/schemas/catalog.js";
import {
  logInAsNewAdmin,
  logInAsNewAdminForApi,
  mailCaptureDir,
  recordScripts,
  signUpAndLogIn,
  sizeMenu,
  waitForHydration,
} from "./helpers";

// The e2e server has no SMTP_URL: every message is captured in the outbox, readable in the admin.
const tag = randomBytes(3).toString("hex");
const SHOTS = process.env.SCREENSHOT_DIR;

/** Follows the link mailed at sign-up, as the shopper would, so their address is proven (docs/decisions/041). */
async function confirmSignUpAddress(admin: APIRequestContext, shopper: APIRequestContext, to: string) {
  let token = "";
  await expect(async () => {
    const list = await admin.get("/api/admin/emails?limit=200");
    const { emails } = (await list.json()) as { emails: { id: number; kind: string; to: string; status: string }[] };
    const mail = emails.find((email) => email.kind === "email_confirm" && email.to === to);
    expect(mail?.status).toBe("captured");
    const captured = await readFile(`${mailCaptureDir}/${mail?.id}.txt`, "utf8");
    token = /\/confirm-email\?token=([A-Za-z0-9_-]+)/.exec(captured)?.[1] ?? "";
    expect(token).not.toBe("");
  }).toPass({ timeout: 45_000 });
  expect((await shopper.post("/api/auth/confirm-email", { data: { token } })).status()).toBe(200);
}

async function createSoldOutProduct(admin: APIRequestContext, name: string): Promise<AdminProduct> {
  const category = `alerts ${name.toLowerCase()}`;
  expect((await admin.post("/api/admin/categories", { data: { name: category } })).status()).toBe(201);
  const created = await admin.post("/api/admin/products", {
    data: {
      name,
      category,
      price: "149.99",
      image: "/images/products/kids-pull-up-pants.svg",
      sizes: ["Size 3", "Size 4"],
      stock: { "Size 3": 0, "Size 4": 5 },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as AdminProduct;
}

async function openCard(page: Page, name: string) {
  await page.goto("/");
  await waitForHydration(page);
  await page.getByLabel("Search products").fill(name);
  const card = page.getByRole("article", { name, exact: true });
  await expect(card).toBeVisible();
  return card;
}

test("a shopper asks for an alert on a sold-out size and is e-mailed once the admin restocks it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await (await browser.newContext()).newPage();
  await logInAsNewAdmin(admin);
  const name = `Zz Alert Pull-Ups ${tag}`;
  const product = await createSoldOutProduct(admin.request, name);

  const shopper = await signUpAndLogIn(page);
  await confirmSignUpAddress(admin.request, page.request, shopper.email);
  const card = await openCard(page, name);
  await (await sizeMenu(card)).selectOption("Size 3");
  await expect(card.getByRole("button", { name: "Size Unavailable" })).toBeDisabled();
  const ask = card.getByRole("button", { name: "E-mail me when it's back" });
  if (SHOTS) {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/sold-out-card-${width}.png` });
    }
  }
  // Logged in: one click, with the account's address.
  await ask.click();
  await expect(card.getByRole("status")).toContainText(`We will e-mail ${shopper.email} once when Size 3 is back.`);

  // The admin restocks the size in the product form; the shopper's one message goes through the outbox.
  await admin.goto("/admin");
  await waitForHydration(admin);
  await admin.getByRole("tab", { name: "Products", exact: true }).click();
  await admin.getByLabel("Search products").fill(name);
  await admin.getByRole("button", { name: `Edit ${name}` }).click();
  const form = admin.getByRole("dialog", { name: "Edit Product" });
  await expect(form.getByLabel("Stock of Size 3", { exact: true })).toHaveValue("0");
  await form.getByLabel("Stock of Size 3", { exact: true }).fill("6");
  await form.getByRole("button", { name: "Save Changes" }).click();
  await expect(form).toHaveCount(0);

  await admin.getByRole("tab", { name: "Emails", exact: true }).click();
  const entry = admin
    .getByRole("list", { name: "E-mails" })
    .getByRole("article", { name: /Back in stock at .*: the size you asked about/ })
    .filter({ hasText: `To ${shopper.email}` });
  await expect(async () => {
    await admin.getByRole("button", { name: "Refresh" }).click();
    await expect(entry).toContainText("Captured", { timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
  await entry.getByRole("button", { name: "View" }).click();
  const dialog = admin.getByRole("dialog", { name: /Back in stock at/ });
  await dialog.getByRole("tab", { name: "Plain text" }).click();
  await expect(dialog.getByRole("tabpanel")).toContainText(`/products/${product.slug}`);
  await expect(dialog.getByRole("tabpanel")).toContainText("/stock-alerts/unsubscribe?token=");
  await admin.context().close();
});

test("anyone gives an address on the product page and is asked to confirm it by e-mail", async ({ page, request }) => {
  await logInAsNewAdminForApi(request);
  const name = `Zz Alert Briefs ${tag}`;
  const product = await createSoldOutProduct(request, name);
  await page.goto(`/products/${product.slug}`);
  await waitForHydration(page);
  const email = `guest.${tag}@example.co.za`;
  await page.getByLabel("Your e-mail address").fill(email);
  if (SHOTS) {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.getByLabel("Your e-mail address").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/sold-out-product-page-${width}.png` });
    }
  }
  await page.getByRole("button", { name: "E-mail me when it's back" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Check ${email}` })).toBeVisible();
});

test("the alert form is not in the storefront's first load: it is fetched when the shopper asks for it", async ({
  page,
  request,
}) => {
  // The form's own words: only its module holds them.
  const ALERT_FORM = "Sold out? We will e-mail you once when it is back.";
  await logInAsNewAdminForApi(request);
  const name = `Zz Alert Socks ${tag}`;
  await createSoldOutProduct(request, name);
  const scripts = recordScripts(page);
  await page.goto("/");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  const firstLoad = await scripts();
  expect(firstLoad.length).toBeGreaterThan(0);
  expect(firstLoad.filter((script) => script.body.includes(ALERT_FORM)).map((script) => script.url)).toEqual([]);

  // It comes once the shopper shows intent: pointing at the grid preloads the detail dialog (which
  // shows the form), or the card's button loads the form itself.
  await page.getByLabel("Search products").fill(name);
  const card = page.getByRole("article", { name, exact: true });
  await (await sizeMenu(card)).selectOption("Size 3");
  await card.getByRole("button", { name: "E-mail me when it's back" }).click();
  await expect(card.getByLabel("Your e-mail address")).toBeVisible();
  const later = (await scripts()).slice(firstLoad.length);
  expect(later.filter((script) => script.body.includes(ALERT_FORM))).toHaveLength(1);
});
