import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { checkOutOneProduct, logInAsNewAdmin, signUpAndLogIn, waitForHydration } from "./helpers";

/** axe-core over the page: no serious or critical WCAG 2.1 AA violation. */
async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
    }));
  expect(serious).toEqual([]);
}

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name, exact: true }).click();
  await expect(page.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
}

test("an admin makes a product zero-rated, with the hint of what is, and sees it in the list", async ({ page }) => {
  const productName = `E2E Maternity Pads ${Date.now()}`;
  await logInAsNewAdmin(page);
  await page.goto("/admin");
  await waitForHydration(page);
  await openTab(page, "Products");
  await page.getByRole("button", { name: "Add Product" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Product" });
  const vat = dialog.getByLabel("VAT", { exact: true });
  await expect(vat).toHaveValue("standard");
  await expect(dialog.getByText(/Zero-rated: sanitary pads, pantyliners and maternity pads only/)).toBeVisible();
  await dialog.getByLabel("Name").fill(productName);
  await dialog.getByLabel("Category").selectOption("pads");
  await dialog.getByLabel("Price (R)", { exact: true }).fill("79.99");
  await dialog.getByLabel("Image URL", { exact: true }).fill("/images/products/pads-maxi-night.svg");
  await dialog.getByLabel("Sizes", { exact: true }).fill("Maternity");
  await vat.selectOption("zero");
  await dialog.getByRole("button", { name: "Create Product" }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole("listitem").filter({ hasText: productName });
  await expect(row).toContainText("Zero-rated");
  // The seed's tampons stay standard-rated.
  await expect(page.getByRole("listitem").filter({ hasText: "Snug & Dry Tampons" })).toContainText("Standard-rated");

  await page.getByRole("button", { name: `Edit ${productName}` }).click();
  await expect(page.getByRole("dialog", { name: "Edit Product" }).getByLabel("VAT", { exact: true })).toHaveValue(
    "zero",
  );
});

test("the VAT tab shows this month's sales per rate and downloads them as CSV", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signUpAndLogIn(page);
  await page.goto("/");
  await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  const context = await browser.newContext();
  const admin = await context.newPage();
  await logInAsNewAdmin(admin);
  await admin.goto("/admin?tab=vat");
  await waitForHydration(admin);
  await expect(admin.getByRole("heading", { name: "VAT", exact: true })).toBeVisible();
  const month = new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Johannesburg" }).format(new Date()).slice(0, 7);
  await expect(admin.getByLabel("Month", { exact: true })).toHaveValue(month);
  const net = admin.getByRole("table", { name: "Net VAT (for the VAT201)" });
  // Every order of one product below R500 has a delivery fee: standard-rated at 15%.
  await expect(
    net.getByRole("row", { name: /^Standard-rated 15% R[\d,]+\.\d\d R[\d,]+\.\d\d R[\d,]+\.\d\d$/ }),
  ).toBeVisible();
  await expect(admin.getByRole("table", { name: "Sales (tax invoices)" })).toBeVisible();
  await expect(admin.getByText(/\d+ invoices? and \d+ credit notes?\./)).toBeVisible();
  await expectNoSeriousViolations(admin);

  await admin.getByLabel("Period", { exact: true }).selectOption("2");
  await expect(admin.getByLabel("First month", { exact: true })).toBeVisible();
  const csv = admin.getByRole("link", { name: "Download CSV" });
  await expect(csv).toHaveAttribute("href", `/api/admin/vat-report.csv?from=${month}&months=2`);
  const download = await admin.request.get((await csv.getAttribute("href")) ?? "");
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(await download.text()).toMatch(
    /^Section,Document,Date,Order,VAT rate,Excl\. VAT \(R\),VAT \(R\),Total \(R\)\n/,
  );

  // A month with no documents says so.
  await admin.getByLabel("Period", { exact: true }).selectOption("1");
  const oldest = await admin.getByLabel("Month", { exact: true }).locator("option").last().getAttribute("value");
  await admin.getByLabel("Month", { exact: true }).selectOption(oldest ?? "");
  await expect(admin.getByText("No tax invoices or credit notes in this period")).toBeVisible();
  await context.close();
});
