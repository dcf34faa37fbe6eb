import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { addToCart, pickInStockProduct, signUpAndLogIn, waitForHydration } from "./helpers";

/**
 * What the footer and the checkout say about VAT follows the shop's registration (CPA s41;
 * docs/decisions/037). The suite's shop has no SHOP_VAT_NUMBER; a second shop, started here from
 * the same build on its own embedded database, has one.
 */

/** The storefront's footer line and the checkout's note under the total, as a shopper reads them. */
async function footerAndCheckout(page: Page): Promise<{ footer: string; checkout: string }> {
  await signUpAndLogIn(page);
  await page.goto("/");
  await waitForHydration(page);
  const footer =
    (await page
      .getByRole("contentinfo")
      .getByText(/^© \d{4}/)
      .textContent()) ?? "";
  await expect(page.getByRole("button", { name: "Login", exact: true })).toHaveCount(0);
  const { product, size } = await pickInStockProduct(page);
  await addToCart(page, product, size);
  await page.getByRole("button", { name: "Cart, 1 item" }).click();
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  const summary = page.getByRole("region", { name: "Order summary" });
  await expect(summary.getByText(/VAT/)).toBeVisible();
  const checkout = (await summary.getByText(/VAT/).textContent()) ?? "";
  return { footer, checkout };
}

test("a shop that is not VAT-registered says nothing of VAT included in its footer or checkout", async ({ page }) => {
  const { footer, checkout } = await footerAndCheckout(page);
  expect(footer).toMatch(/Prices in rand\.$/);
  expect(checkout).toBe("We are not registered for VAT, so no VAT is charged.");
  await expect(page.getByText(/VAT included|include VAT|zero-rated/)).toHaveCount(0);
});

test.describe("a VAT-registered shop", () => {
  const port = Number(new URL(baseURL).port) + 60;
  const registeredUrl = `http://localhost:${port}`;
  let shop: ChildProcess;
  let dataDir: string;
  let output = "";

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-e2e-vat-"));
    shop = spawn(process.execPath, ["dist/server/main.js"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: registeredUrl,
        PAYFAST_MODE: "local",
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(54_339 + (port - 3100)),
        LOG_LEVEL: "warn",
        AUTH_RATE_LIMIT_PER_MINUTE: "1000",
        BACKUP_EVERY_HOURS: "0",
        ALERT_CHECK_MINUTES: "0",
        SHOP_VAT_NUMBER: "4123456789",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    shop.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    shop.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    await expect(async () => {
      expect(shop.exitCode, output).toBeNull();
      expect((await fetch(`${registeredUrl}/api/health`)).status).toBe(200);
    }).toPass({ timeout: 150_000, intervals: [500] });
  });

  test.afterAll(async () => {
    if (shop && shop.exitCode === null) {
      const exited = new Promise((resolve) => shop.once("exit", resolve));
      shop.kill("SIGTERM");
      await exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("says prices include VAT and pads are zero-rated, in its footer and checkout", async ({
    browser,
  }: {
    browser: Browser;
  }) => {
    const context = await browser.newContext({ baseURL: registeredUrl });
    const page = await context.newPage();
    const { footer, checkout } = await footerAndCheckout(page);
    expect(footer).toMatch(/Prices in rand, VAT included\.$/);
    expect(checkout).toBe("Prices include VAT; sanitary pads and pantyliners are zero-rated.");
    await context.close();
  });
});
