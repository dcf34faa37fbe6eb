import { expect, test } from "@playwright/test";
import { checkOutOneProduct, logInAsNewAdmin, orderNumberOf, signUpAndLogIn } from "./helpers";

const testModeNotice = "Test mode: no real payments are taken";

test("a payment whose notification is lost is found by reconciliation and the order is paid", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await signUpAndLogIn(page);
  await page.goto("/");
  // The shop runs with the local emulator: every page says no real money moves.
  await expect(page.getByRole("note").filter({ hasText: testModeNotice })).toBeVisible();

  const shopOrigin = new URL(baseURL ?? "").origin;
  const orderId = await checkOutOneProduct(page);
  // PayFast's payment page is on another origin, as payment.payfast.io is for the live shop.
  expect(new URL(page.url()).origin).not.toBe(shopOrigin);
  await page.getByRole("button", { name: "Complete payment (notification lost)" }).click();

  await expect(page).toHaveURL(`${shopOrigin}/success?orderId=${orderId}`);
  await expect(page.getByRole("note").filter({ hasText: testModeNotice })).toBeVisible();
  // No notification came, so the page waits ("Confirming your payment...", not asserted here: with
  // the 3-second sweep of this suite the order may already be paid when the page first asks) until
  // reconciliation asks PayFast's (emulated) API, finds the payment and marks the order paid.
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(`Your order number is ${orderNumberOf(orderId)}.`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Cart, 0 items" })).toBeVisible();

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logInAsNewAdmin(admin);
  await admin.goto("/admin");
  await admin.getByRole("tab", { name: "Orders", exact: true }).click();
  const order = admin.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
  await expect(order).toContainText("Paid - Ready to Ship");
  await expect(order.getByRole("button", { name: "Mark as Shipped" })).toBeVisible();
  await adminContext.close();
});

test("a shop taking real payments shows no test-mode notice", async ({ page }) => {
  // The page as the server renders it in live mode: the same page config with testPayments false.
  await page.route("**/", async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace('"testPayments":true', '"testPayments":false');
    await route.fulfill({ response, body: html });
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("note")).toHaveCount(0);
  await expect(page.getByText(testModeNotice)).toHaveCount(0);
});
