import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { formatRand, parseRandToCents } from "#domain/money.js";
import { deliveryFeeCents } from "#domain/pricing.js";
import type { AdminPromoCode } from "#domain/schemas/promo.js";
import {
  addToCart,
  fillDelivery,
  logInAdminOn,
  logInAsNewAdmin,
  pickInStockProduct,
  recordScripts,
  signUpAndLogIn,
  waitForHydration,
} from "./helpers";

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name, exact: true }).click();
  await expect(page.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
}

test("an admin makes a promo code in the Promotions tab and sees it listed", async ({ page }) => {
  await logInAsNewAdmin(page);
  const code = `SPRING${randomBytes(3).toString("hex").toUpperCase()}`;
  await page.goto("/admin");
  await openTab(page, "Promotions");
  await page.getByRole("button", { name: "New promo code" }).click();
  const dialog = page.getByRole("dialog", { name: "New promo code" });
  await dialog.getByLabel("Code").fill(code.toLowerCase());
  await dialog.getByLabel("Gives").selectOption("fixed");
  await dialog.getByLabel("Amount off (R)").fill("25.00");
  await dialog.getByLabel("Minimum spend (R, optional)").fill("200.00");
  await dialog.getByLabel("Uses in all (optional)").fill("100");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  // The list's item, not the toast that says the code was created (also a list item).
  const item = page.getByRole("region", { name: "Promotions" }).getByRole("listitem").filter({ hasText: code });
  await expect(item).toContainText("R25.00 off on orders of R200.00 or more");
  await expect(item).toContainText("100 uses in all");
  await expect(item).toContainText("Active");
});

test("a shopper is told why a code fails, applies a good one and pays the discounted total", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await logInAdminOn(request);
  const code = `SAVE${randomBytes(3).toString("hex").toUpperCase()}`;
  const made = await request.post("/api/admin/promo-codes", { data: { code, kind: "percent", percent: 10 } });
  expect(made.status()).toBe(201);

  await signUpAndLogIn(page);
  const { product, size } = await pickInStockProduct(page);
  await page.goto("/");
  await addToCart(page, product, size);
  await page.getByRole("button", { name: "Cart, 1 item" }).click();
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();

  const field = page.getByRole("textbox", { name: "Promo code" });
  await field.fill("NOT-A-CODE");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This promo code does not exist" })).toBeVisible();

  await field.fill(code.toLowerCase());
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Code ${code} applied: 10% off` })).toBeVisible();
  const price = parseRandToCents(product.price) ?? 0;
  const discount = Math.floor((price * 10 + 50) / 100);
  const total = price - discount + deliveryFeeCents(price);
  const summary = page.getByRole("region", { name: "Order summary" });
  await expect(summary).toContainText(`Promo code ${code}-${formatRand(discount)}`);
  await expect(summary).toContainText(`Total${formatRand(total)}`);

  await fillDelivery(page);
  await page.getByRole("button", { name: `Place Order - ${formatRand(total)}` }).click();
  // The emulator shows the amount PayFast is asked for: the discounted total.
  await expect(page.getByRole("heading", { level: 1 })).toContainText(formatRand(total).replace(/^R/, ""));
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page).toHaveURL(/\/success\?orderId=[0-9a-f-]{36}$/);
  const orderId = new URL(page.url()).searchParams.get("orderId") as string;
  const order = await (await page.request.get(`/api/orders/${orderId}`)).json();
  expect(order).toMatchObject({ status: "completed", promoCode: code, total: (total / 100).toFixed(2) });

  const codes = (await (await request.get("/api/admin/promo-codes")).json()) as AdminPromoCode[];
  expect(codes.find((row) => row.code === code)).toMatchObject({ uses: 1, givenAway: (discount / 100).toFixed(2) });
});

test("the promo code field is not in the storefront's first load: its script comes with the checkout", async ({
  page,
}) => {
  // Only the field's module calls the check: its script is the one that holds this address.
  const PROMO_FIELD = "/api/promo-codes/check";
  await signUpAndLogIn(page);
  const { product, size } = await pickInStockProduct(page);
  const scripts = recordScripts(page);
  await page.goto("/");
  await waitForHydration(page);
  await addToCart(page, product, size);
  await page.waitForLoadState("networkidle");
  const firstLoad = await scripts();
  expect(firstLoad.length).toBeGreaterThan(0);
  expect(firstLoad.filter((script) => script.body.includes(PROMO_FIELD)).map((script) => script.url)).toEqual([]);

  await page.getByRole("button", { name: "Cart, 1 item" }).click();
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByRole("textbox", { name: "Promo code" })).toBeVisible();
  const later = (await scripts()).slice(firstLoad.length);
  expect(later.filter((script) => script.body.includes(PROMO_FIELD))).toHaveLength(1);
});
