import { expect, type Page, test } from "@playwright/test";
import { createAdminWithCli, waitForHydration } from "./helpers";

// Unique names: other spec files run against the same server at the same time.
const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const admin = { username: `xss_admin_${tag}`, email: `xss-admin-${tag}@example.co.za`, password: `Xss-${tag}-secret` };

// Text an attacker with admin access (or a stolen admin session) could save. Each must show as text.
const alertName = `<img src=x onerror=alert(1)> ${tag}`;
const alertPromo = "<script>alert(2)</script>";
const flagName = `<img src=x onerror="window.__xss=1"> ${tag}`;
const flagPromo = `<svg onload="window.__xss=1">`;
const flagDescription = `<iframe srcdoc="<script>parent.__xss=1</script>"></iframe> ${tag}`;
const flagCategory = `<b onmouseover="window.__xss=1">${tag}</b>`;

test.beforeAll(() => createAdminWithCli(admin));

/** Fails the test on any dialog (alert, confirm, prompt) that injected markup might open. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

async function expectNothingRan(page: Page, dialogs: string[]) {
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  // Saved markup never became elements: no image with src "x", no injected svg, iframe or script.
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator("svg[onload], iframe[srcdoc], b[onmouseover]")).toHaveCount(0);
  expect(
    // Only scripts that run count: the page's inert JSON (its data, JSON-LD) holds the names as text.
    await page
      .locator("script")
      .evaluateAll((scripts) =>
        scripts.some((s) => !/json/.test(s.getAttribute("type") ?? "") && s.textContent?.includes("alert(2)")),
      ),
  ).toBe(false);
  expect(dialogs).toEqual([]);
}

test("shows product names, promo texts, descriptions and category names holding markup as text, and runs none of it", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const dialogs = watchDialogs(page);

  const login = await page.request.post("/api/auth/login", {
    data: { username: admin.username, password: admin.password },
  });
  expect(login.status()).toBe(200);
  const category = await page.request.post("/api/admin/categories", {
    data: { name: flagCategory, description: flagPromo },
  });
  expect(category.status(), await category.text()).toBe(201);
  const storedCategory = ((await category.json()) as { name: string }).name;
  const product = (name: string, promoText: string, description: string, categoryName = "baby") => ({
    name,
    category: categoryName,
    price: "99.99",
    image: "/images/products/adult-briefs-super.svg",
    description,
    sizes: ["S", "M"],
    sizeImages: {},
    stock: { S: 20, M: 20 },
    promoText,
  });
  for (const data of [
    product(alertName, alertPromo, `Plain description ${tag}`),
    product(flagName, flagPromo, flagDescription, storedCategory),
  ]) {
    const created = await page.request.post("/api/admin/products", { data });
    expect(created.status(), await created.text()).toBe(201);
  }

  // The storefront: the card shows the name and the promo block as text.
  await page.goto("/");
  await waitForHydration(page);
  await expect(page.getByText(/\d+ product\(s\) found/)).toBeVisible();
  await page.getByLabel("Search products").fill(tag);
  await expect(page.getByText(/^2 product\(s\) found/)).toBeVisible();
  await expect(page.getByRole("link", { name: alertName, exact: true })).toBeVisible();
  await expect(page.getByText(alertPromo, { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: flagName, exact: true })).toBeVisible();
  await expect(page.getByText(flagPromo, { exact: true })).toBeVisible();
  // The category chip and badge hold the markup as text too.
  await expect(page.getByText(storedCategory, { exact: true }).first()).toBeVisible();
  await expectNothingRan(page, dialogs);

  // The detail dialog shows the description as text.
  await page.getByRole("link", { name: flagName, exact: true }).click();
  const detail = page.getByRole("dialog");
  await expect(detail.getByText(flagDescription, { exact: true })).toBeVisible();
  await expect(detail.getByText(flagPromo, { exact: true })).toBeVisible();
  await expectNothingRan(page, dialogs);
  await page.keyboard.press("Escape");

  // The admin panel: the products and categories tabs show them as text.
  await page.goto("/admin");
  await page.getByRole("tab", { name: "Products", exact: true }).click();
  await page.getByLabel("Search products").fill(tag);
  await expect(page.getByText(alertName, { exact: true })).toBeVisible();
  await expect(page.getByText(flagName, { exact: true })).toBeVisible();
  await expectNothingRan(page, dialogs);

  await page.getByRole("tab", { name: "Categories", exact: true }).click();
  await expect(page.getByText(storedCategory, { exact: true }).first()).toBeVisible();
  await expectNothingRan(page, dialogs);
});
