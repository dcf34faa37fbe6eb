import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { fillDelivery, pickInStockProduct, signUpAndLogIn, waitForHydration } from "./helpers";

/** Screenshots of the plan's pages at a phone's and a desktop's width, when SCREENSHOT_DIR is set. */
const SHOTS = process.env.SCREENSHOT_DIR;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

test("a shopper starts a nappy plan on a product page, pays, then skips the next box and cancels in My plans", async ({
  page,
}) => {
  await signUpAndLogIn(page);
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

  await card.getByRole("button", { name: "Skip the next box" }).click();
  await expect(card.getByRole("status")).toHaveText(
    /^Skipped the box of .* Next box: .*R[\d,]+\.\d{2} at today's prices\.$/,
  );

  await card.getByRole("button", { name: "Cancel plan" }).click();
  await card.getByRole("button", { name: "Yes, cancel my plan" }).click();
  await expect(card.getByRole("status")).toHaveText(/cancelled/);
  await expect(card.getByText("Cancelled", { exact: true })).toBeVisible();
});
