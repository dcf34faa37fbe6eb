import { expect, type Page, test } from "@playwright/test";
import { addToCart, fillDelivery, newShopper, pickInStockProduct, signUpAndLogIn, waitForHydration } from "./helpers";

/**
 * The shop's answer while its database is away (src/server/platform/errors.ts; tests/api/outage-browsing.test.ts
 * shows create-order and login answer it with the database really stopped). The browser suite runs
 * one shop on one embedded database that every spec shares, so the outage is played here by routing
 * the one call to this exact answer.
 */
const PAUSED = {
  status: 503,
  headers: { "retry-after": "5" },
  json: { message: "The shop is temporarily unavailable. Please try again in a moment.", code: "SERVICE_UNAVAILABLE" },
};

const toast = (page: Page, text: string) => page.getByText(text, { exact: true });

test("an order placed while the shop is paused shows Checkout is paused, keeps the cart, and goes through later", async ({
  page,
}) => {
  await signUpAndLogIn(page);
  await page.goto("/");
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Login", exact: true })).toHaveCount(0);
  const { product, size } = await pickInStockProduct(page);
  await addToCart(page, product, size);
  await page.getByRole("button", { name: "Cart, 1 item" }).click();
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  await fillDelivery(page);

  await page.route("**/api/create-order", (route) => route.fulfill(PAUSED));
  await page.getByRole("button", { name: /^Place Order - / }).click();
  const notice = page.getByRole("status").filter({ hasText: "Checkout is paused for a few minutes" });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("Your cart is saved");
  await expect(toast(page, "Order Creation Failed")).toHaveCount(0);
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByRole("button", { name: "Cart, 1 item" })).toBeVisible();

  // The shop is back: the same button places the order, on to payment.
  await page.unroute("**/api/create-order");
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await expect(page.getByRole("button", { name: "Complete payment", exact: true })).toBeVisible();
});

test("logging in while the shop is paused says so in the dialog, not as a failure", async ({ page }) => {
  const shopper = newShopper();
  expect((await page.request.post("/api/auth/register", { data: shopper })).status()).toBe(201);
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Login" }).click();
  const dialog = page.getByRole("dialog", { name: "Account Required" });
  await dialog.getByLabel("Username or email").fill(shopper.email);
  await dialog.getByLabel("Password").fill(shopper.password);

  await page.route("**/api/auth/login", (route) => route.fulfill(PAUSED));
  await dialog.getByRole("button", { name: "Login" }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "Logging in is paused for a few minutes" })).toBeVisible();
  await expect(toast(page, "Login Failed")).toHaveCount(0);

  await page.unroute("**/api/auth/login");
  await dialog.getByRole("button", { name: "Login" }).click();
  await expect(dialog).toBeHidden();
});
