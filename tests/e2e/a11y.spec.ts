import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { catalogSearchPath, DEFAULT_FILTER, searchParamsOf } from "#domain/catalog.js";
import type { CatalogPage } from "#domain/schemas/catalog-search.js";
import { waitForHydration } from "./helpers";

/** axe-core over the whole page; serious and critical violations fail, with what and where. */
async function expectNoSeriousViolations(page: Page) {
  // A dialog fading in has its colours part-way: check what the shopper reads once it has settled
  // (endless animations, such as a spinner, are not waited for).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== "running" || animation.effect?.getTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
    }));
  expect(serious).toEqual([]);
}

async function openStorefront(page: Page) {
  await page.goto("/");
  await waitForHydration(page);
  await expect(page.getByText(/^\d+ product\(s\) found$/)).toBeVisible();
}

test("the storefront has no serious or critical accessibility violations", async ({ page }) => {
  await openStorefront(page);
  await expectNoSeriousViolations(page);
});

test("the product detail dialog has no serious or critical accessibility violations", async ({ page }) => {
  await openStorefront(page);
  const name = "Snug & Dry Baby Nappies Value Pack";
  await page.getByRole("link", { name, exact: true }).click();
  const dialog = page.getByRole("dialog", { name });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Size").selectOption({ index: 1 });
  await expect(dialog.getByText(/Image updated for/)).toBeVisible();
  await expectNoSeriousViolations(page);
});

test("the About and Requests dialogs have no serious or critical accessibility violations", async ({ page }) => {
  await openStorefront(page);
  await page.getByRole("button", { name: "Learn More" }).click();
  await expect(page.getByRole("dialog", { name: "About Snug & Dry" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.keyboard.press("Escape");
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Requests" }).click();
  await expect(page.getByRole("dialog", { name: "Product Requests" })).toBeVisible();
  await expectNoSeriousViolations(page);
});

for (const [path, heading] of [
  ["/return-policy", "Return Policy"],
  ["/terms", "Terms and Conditions"],
  ["/privacy", "Privacy Policy"],
  ["/paia-manual", "PAIA Manual"],
  ["/legal", "Legal"],
  ["/no-such-page", "404 Page Not Found"],
] as const) {
  test(`${path} has no serious or critical accessibility violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expectNoSeriousViolations(page);
  });
}

test.describe("at 375px wide", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the storefront with its mobile menu open has no serious or critical accessibility violations", async ({
    page,
  }) => {
    await openStorefront(page);
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expectNoSeriousViolations(page);
  });
});

test("every control of the storefront can be reached with the keyboard", async ({ page }) => {
  await openStorefront(page);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");

  // Tab through the hero to the search box, search, then on to the first card's Add to Cart (which
  // asks a guest to log in; the plan's "Deliver every few weeks" line before it is passed by), and
  // press it with Enter.
  const search = page.getByLabel("Search products");
  for (let step = 0; step < 20 && !(await search.evaluate((element) => element === document.activeElement)); step++) {
    await page.keyboard.press("Tab");
  }
  await expect(search).toBeFocused();
  await page.keyboard.type("wipes");
  // The grid shows the search's own products before the test tabs into it: until they arrive it
  // shows the whole catalogue, and a card focused then is gone by the time the dialog closes (CI).
  const found = await page.request.get(catalogSearchPath(searchParamsOf({ ...DEFAULT_FILTER, search: "wipes" }), null));
  const { total } = (await found.json()) as CatalogPage;
  expect(total).toBeGreaterThan(0);
  await expect(page.getByText(/^\d+ product\(s\) found$/)).toHaveText(`${total} product(s) found`);
  const grid = page
    .getByRole("region", { name: "Our products" })
    .getByRole("list")
    .filter({ has: page.getByRole("article") });
  await expect(grid).toHaveAttribute("aria-busy", "false");

  const addToCart = page
    .getByRole("region", { name: "Our products" })
    .getByRole("article")
    .first()
    .getByRole("button", { name: "Add to Cart" })
    .first();
  for (
    let step = 0;
    step < 20 && !(await addToCart.evaluate((element) => element === document.activeElement));
    step++
  ) {
    await page.keyboard.press("Tab");
  }
  await expect(addToCart).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  // Focus is trapped in the dialog.
  for (let step = 0; step < 12; step++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(addToCart).toBeFocused();
});
