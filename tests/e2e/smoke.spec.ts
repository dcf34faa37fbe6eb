import { expect, test } from "@playwright/test";

test("the storefront loads and lists the seeded products", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText(/\d+ product\(s\) found/)).toBeVisible();
  const count = Number((await page.getByText(/\d+ product\(s\) found/).textContent())?.match(/\d+/)?.[0]);
  expect(count).toBeGreaterThanOrEqual(24);
});
