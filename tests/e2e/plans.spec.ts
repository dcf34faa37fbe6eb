import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { formatRand, parseRandToCents } from "#domain/money.js";
import { sizePrice } from "#domain/packs.js";
import { planUnitPriceCents } from "#domain/plans.js";
import {
  fillDelivery,
  logInAdminOn,
  logInAsNewAdmin,
  mailCaptureDir,
  pickInStockProduct,
  signUpAndLogIn,
  waitForHydration,
} from "./helpers";

/** Screenshots of the plan's pages at a phone's and a desktop's width, when SCREENSHOT_DIR is set. */
const SHOTS = process.env.SCREENSHOT_DIR;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

test("a shopper starts a nappy plan, skips the next box from the e-mail's link and cancels; the admin sees the plan", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const shopper = await signUpAndLogIn(page);
  const { product, size } = await pickInStockProduct(page);

  await page.goto(`/products/${product.slug}`);
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Login", exact: true })).toHaveCount(0);
  const plan = page.getByLabel(/^Nappy plan: save \d+(\.\d+)?%$/);
  await plan.selectOption({ label: "Deliver every 4 weeks" });
  await expect(page.getByText("Your cart becomes a plan: every 4 weeks")).toBeVisible();
  await page.getByLabel("Size", { exact: true }).selectOption(size);
  if (SHOTS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1000 });
      await plan.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/plan-product-page-${width}.png` });
    }
  }
  await page.getByRole("button", { name: /Add to Cart/ }).click();
  await page.getByRole("button", { name: "Cart, 1 item" }).click();
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  // The plan's terms, before the first payment.
  await expect(page.getByText("Your nappy plan")).toBeVisible();
  await expect(page.getByText("No minimum duration", { exact: false })).toBeVisible();
  await expect(page.getByLabel("Card: each box is charged to it on its day")).toBeChecked();
  await fillDelivery(page);
  if (SHOTS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.screenshot({ path: `${SHOTS}/plan-checkout-${width}.png`, fullPage: true });
    }
  }
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  await page.goto("/profile?tab=plans");
  const card = page.getByRole("region", { name: "Plan: every 4 weeks" });
  await expect(card).toBeVisible();
  await expect(card.getByText("Active")).toBeVisible();
  await expect(card.getByText(product.name)).toBeVisible();
  await expect(card.getByText(/Next box: .* at today's prices/)).toBeVisible();
  if (SHOTS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.screenshot({ path: `${SHOTS}/plan-my-plans-${width}.png`, fullPage: true });
    }
  }

  // The next box tomorrow: inside the notice days, so the next-box e-mail (with its skip link) is written.
  const day = card.getByLabel("Next box on");
  await day.fill((await day.getAttribute("min")) as string);
  await card.getByRole("button", { name: "Change date" }).click();
  await expect(card.getByRole("status")).toBeVisible();
  const before = (await card.getByText(/^Next box: /).textContent()) ?? "";
  await logInAdminOn(request);
  const skipPath = await mailedPlanLink(request, shopper.email, "/profile?skip=");
  await page.goto(skipPath);
  await expect(page.getByRole("heading", { name: "Skip your next box" })).toBeVisible();
  await expect(page.getByText(/^Skip the box of /)).toBeVisible();
  await page.getByRole("button", { name: "Skip this box" }).click();
  await expect(page.getByRole("status")).toHaveText(/Your plan carries on with the box after it\.$/);

  await page.getByRole("link", { name: "Open My plans" }).click();
  await expect(card.getByText(/^Next box: /)).not.toHaveText(before);
  await card.getByRole("button", { name: "Cancel plan" }).click();
  await card.getByRole("button", { name: "Yes, cancel my plan" }).click();
  await expect(card.getByRole("status")).toHaveText(/cancelled/);
  await expect(card.getByText("Cancelled", { exact: true })).toBeVisible();

  // The owner: the plan in the admin's Plans tab, and the plans' figures on the dashboard.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logInAsNewAdmin(admin);
  await admin.goto("/admin");
  await expect(admin.getByRole("heading", { name: "Nappy plans" })).toBeVisible();
  await expect(admin.getByRole("term").filter({ hasText: /^Active plans$/ })).toBeVisible();
  await expect(admin.getByRole("term").filter({ hasText: /^Monthly recurring revenue$/ })).toBeVisible();
  if (SHOTS) {
    for (const width of [390, 1280]) {
      await admin.setViewportSize({ width, height: 1000 });
      await admin.getByRole("heading", { name: "Nappy plans" }).scrollIntoViewIfNeeded();
      await admin.screenshot({ path: `${SHOTS}/plan-admin-dashboard-${width}.png` });
    }
  }
  await admin.getByRole("tab", { name: "Plans", exact: true }).click();
  await admin.getByLabel("Search plans").fill(shopper.email);
  const row = admin.getByRole("listitem").filter({ hasText: shopper.email });
  await expect(row).toBeVisible();
  await expect(row.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(row.getByText("Every 4 weeks · no more boxes")).toBeVisible();
  await expect(row.getByText(`1 × ${product.name} (${size})`)).toBeVisible();
  await expect(row.getByText(/^Last charge: .*Skipped/i)).toBeVisible();
  if (SHOTS) {
    for (const width of [390, 1280]) {
      await admin.setViewportSize({ width, height: 1000 });
      await admin.screenshot({ path: `${SHOTS}/plan-admin-plans-${width}.png`, fullPage: true });
    }
  }
  await adminContext.close();
});

test("a shopper chooses a plan on a product card; the cart sheet and the checkout carry it, with its saving", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUpAndLogIn(page);
  const { product, size } = await pickInStockProduct(page);
  await page.goto("/");
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Login", exact: true })).toHaveCount(0);

  const card = page.getByRole("article", { name: product.name, exact: true });
  await card.scrollIntoViewIfNeeded();
  const saving = `${(product.planSavingBp as number) / 100}%`;
  // The card's invitation loads the chooser on its first click, and hands it the focus.
  await card.getByRole("button", { name: `Deliver every few weeks and save ${saving}` }).click();
  const cardPlan = card.getByLabel(`Nappy plan: save ${saving}`);
  await expect(cardPlan).toBeFocused();
  await cardPlan.selectOption({ label: "Deliver every 3 weeks" });
  await expect(card.getByText("Your whole cart, every 3 weeks", { exact: false })).toBeVisible();
  await card.getByLabel("Size", { exact: true }).selectOption(size);
  if (SHOTS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1000 });
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/plan-card-${width}.png` });
    }
  }
  await card.getByRole("button", { name: "Add to Cart" }).click();

  // The cart sheet: the same choice, the box at plan prices and the saving said.
  await page.getByRole("button", { name: "Cart, 1 item" }).click();
  const sheet = page.getByRole("dialog", { name: "Shopping Cart" });
  await expect(sheet.getByLabel(`Nappy plan: save ${saving}`)).toHaveValue("3");
  const shelf = parseRandToCents(sizePrice(product, size)) as number;
  const box = planUnitPriceCents(shelf, product.planSavingBp as number);
  await expect(sheet.getByText("Nappy plan saving").locator("..")).toContainText(`-${formatRand(shelf - box)}`);
  await expect(sheet.getByText("Total", { exact: true }).locator("..")).toContainText(formatRand(box));
  if (SHOTS) {
    // The "Added to cart" toast goes after 5 seconds: the sheet's footer is seen whole after it.
    await expect(page.getByText("Added to cart")).toBeHidden({ timeout: 10_000 });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.screenshot({ path: `${SHOTS}/plan-cart-sheet-${width}.png` });
    }
  }

  // The checkout: the plan, its saving and its terms; create-order is asked for a plan every 3 weeks.
  await sheet.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  await expect(page.getByLabel(`Nappy plan: save ${saving}`)).toHaveValue("3");
  await expect(page.getByText("Your cart becomes a plan: every 3 weeks")).toBeVisible();
  await expect(page.getByText("This box now, then the same box every 3 weeks.")).toBeVisible();
  await fillDelivery(page);
  let body: Record<string, unknown> = {};
  await page.route("**/api/create-order", async (route) => {
    body = route.request().postDataJSON() as Record<string, unknown>;
    await route.continue();
  });
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await expect(page.getByRole("button", { name: "Complete payment", exact: true })).toBeVisible();
  expect(body.plan).toEqual({ cadenceWeeks: 3, payBy: "card" });
  expect(body.items).toEqual([expect.objectContaining({ id: product.id, size, quantity: 1 })]);
});

/**
 * The path and query of the newest "your next box" e-mail's link to `linkPath` mailed to `to`: the
 * e2e server writes these e-mails every few seconds (PLAN_NOTICE_MINUTES) and captures them in full
 * in MAIL_CAPTURE_DIR, where the test reads them as a developer would.
 */
async function mailedPlanLink(admin: APIRequestContext, to: string, linkPath: string): Promise<string> {
  let found = "";
  await expect(async () => {
    const list = await admin.get("/api/admin/emails?limit=200");
    expect(list.status()).toBe(200);
    const { emails } = (await list.json()) as { emails: { id: number; kind: string; to: string; status: string }[] };
    const mail = emails.find((email) => email.kind === "plan_next_box" && email.to === to);
    expect(mail?.status).toBe("captured");
    const captured = await readFile(`${mailCaptureDir}/${mail?.id}.txt`, "utf8");
    const link = new RegExp(`https?://[^\\s"<>]+${linkPath.replace("?", "\\?")}[^\\s"<>]+`).exec(captured)?.[0];
    expect(link).toBeDefined();
    const url = new URL(link as string);
    found = `${url.pathname}${url.search}`;
  }).toPass({ timeout: 45_000 });
  return found;
}

/** A product page's plan, every 4 weeks, paid by `payBy` through the emulator; ends on My plans' card. */
async function startPlan(page: Page, payBy: "card" | "eft") {
  const { product, size } = await pickInStockProduct(page);
  await page.goto(`/products/${product.slug}`);
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Login", exact: true })).toHaveCount(0);
  await page.getByLabel(/^Nappy plan: save \d+(\.\d+)?%$/).selectOption({ label: "Deliver every 4 weeks" });
  await page.getByLabel("Size", { exact: true }).selectOption(size);
  await page.getByRole("button", { name: /Add to Cart/ }).click();
  await page.getByRole("button", { name: "Cart, 1 item" }).click();
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  if (payBy === "eft") await page.getByLabel("EFT: we e-mail you a link to pay each box").check();
  await fillDelivery(page);
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await page.goto("/profile?tab=plans");
  const card = page.getByRole("region", { name: "Plan: every 4 weeks" });
  await expect(card.getByText("Active")).toBeVisible();
  return { product, card };
}

test("an EFT plan's next box is paid from the e-mail's pay link, and the plan moves on", async ({ page, request }) => {
  test.setTimeout(120_000);
  const shopper = await signUpAndLogIn(page);
  const { product, card } = await startPlan(page, "eft");
  // The next box tomorrow: inside the notice days, so the next-box e-mail (with its pay link) is written.
  const day = card.getByLabel("Next box on");
  const tomorrow = (await day.getAttribute("min")) as string;
  await day.fill(tomorrow);
  await card.getByRole("button", { name: "Change date" }).click();
  await expect(card.getByRole("status")).toBeVisible();
  const before = (await card.getByText(/^Next box: /).textContent()) ?? "";

  await logInAdminOn(request);
  const payPath = await mailedPlanLink(request, shopper.email, "/checkout?pay=");
  await page.goto(payPath);
  await expect(page.getByRole("heading", { name: /^Paying your nappy plan's box for / })).toBeVisible();
  const summary = page.getByRole("complementary");
  await expect(summary.getByText(product.name).first()).toBeVisible();
  // The box's own price: no plan to choose and no promo code beside it.
  await expect(page.getByLabel(/^Nappy plan: /)).toHaveCount(0);
  if (SHOTS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.screenshot({ path: `${SHOTS}/plan-pay-link-checkout-${width}.png`, fullPage: true });
    }
  }
  await fillDelivery(page);
  let body: Record<string, unknown> = {};
  await page.route("**/api/create-order", async (route) => {
    body = route.request().postDataJSON() as Record<string, unknown>;
    await route.continue();
  });
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  expect(body.planPayLink).toEqual(expect.any(String));
  expect(body.plan).toBeUndefined();

  await page.goto("/profile?tab=plans");
  await expect(card.getByText("Active")).toBeVisible();
  await expect(card.getByText(/^Next box: /)).not.toHaveText(before);
});
