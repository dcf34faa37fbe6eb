import { expect, type Page, test } from "@playwright/test";
import { formatRandText } from "#domain/money.js";
import type { Product } from "#domain/schemas/catalog.js";
import { pickInStockProduct, signUpAndLogIn, waitForHydration } from "./helpers";

/** Console errors and warnings of the page (React reports hydration mismatches there), and CSP refusals. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the storefront lists the products with their prices, and a product's link opens its page", async ({ page }) => {
    const products = (await (await page.request.get("/api/products")).json()) as Product[];
    await page.goto("/");
    await expect(page.getByText(`${products.length} product(s) found`)).toBeVisible();
    for (const product of products) {
      await expect(page.getByRole("article", { name: product.name, exact: true })).toContainText(
        formatRandText(product.price),
      );
    }
    const { product } = await pickInStockProduct(page);
    await page.getByRole("link", { name: product.name, exact: true }).click();
    await expect(page).toHaveURL(`/products/${product.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
    await expect(page.getByText(formatRandText(product.price), { exact: true }).first()).toBeVisible();
    await expect(page).toHaveTitle(`${product.name} | Snug & Dry`);
  });
});

test("the storefront and a product page hydrate without a warning in the console", async ({ page }) => {
  const problems = watchConsole(page);
  const { product, size } = await pickInStockProduct(page);
  await page.goto("/");
  await waitForHydration(page);
  await expect(page.getByRole("article", { name: product.name, exact: true })).toBeVisible();
  await page.goto(`/products/${product.slug}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
  // Hydrated, the page works: a signed-in shopper adds to the cart from it.
  const shopper = await signUpAndLogIn(page);
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByText(shopper.fullName)).toBeVisible();
  await page.getByLabel("Size").selectOption(size);
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByRole("button", { name: "Cart, 1 item" })).toBeVisible();
  // The stored user and cart (read after hydration) and a category page hydrate cleanly too.
  await page.goto("/category/baby");
  await waitForHydration(page);
  await expect(page).toHaveTitle("Baby products | Snug & Dry");
  await expect(page.getByRole("button", { name: "Cart, 1 item" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("a product opened from the grid shows its dialog at its own address; Back closes it", async ({ page }) => {
  const problems = watchConsole(page);
  const { product } = await pickInStockProduct(page);
  await page.goto("/");
  await waitForHydration(page);
  const link = page.getByRole("link", { name: product.name, exact: true });
  await expect(link).toHaveAttribute("href", `/products/${product.slug}`);
  await link.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  await link.click();

  const dialog = page.getByRole("dialog", { name: product.name });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(`/products/${product.slug}`);
  await expect(page).toHaveTitle(`${product.name} | Snug & Dry`);
  // The grid stays under the dialog.
  await expect(page.getByText(/^\d+ product\(s\) found$/)).toBeAttached();

  await page.goBack();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL("/");
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);

  // Forward opens it again; its Close button goes back to the grid's address.
  await page.goForward();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL("/");
  expect(problems).toEqual([]);
});

test("the address of a product, shared or reloaded, opens its own page", async ({ page }) => {
  const { product } = await pickInStockProduct(page);
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("link", { name: product.name, exact: true }).click();
  await expect(page.getByRole("dialog", { name: product.name })).toBeVisible();
  const shared = page.url();
  expect(new URL(shared).pathname).toBe(`/products/${product.slug}`);

  // The link as another shopper opens it.
  const other = await page.context().newPage();
  await other.goto(shared);
  await expect(other.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
  await expect(other.getByRole("dialog")).toHaveCount(0);
  await expect(other.getByText(formatRandText(product.price), { exact: true }).first()).toBeVisible();
  // Hydrated first: a click on a link while React hydrates the page can be lost (seen once under load).
  await waitForHydration(other);
  const breadcrumb = other.getByRole("navigation", { name: "Breadcrumb" });
  await breadcrumb.getByRole("link", { name: "Home" }).click();
  await expect(other).toHaveURL("/");
  await other.close();

  // A reload of the dialog's address shows the page, as the server rendered it.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("an unknown product address shows the 404 page", async ({ page }) => {
  const response = await page.goto("/products/no-such-nappy");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
});
