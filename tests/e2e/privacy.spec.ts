import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations } from "./axe";
import { checkOutOneProduct, orderNumberOf, signUpAndLogIn, waitForHydration } from "./helpers";

test("a customer chooses news and offers, downloads their data and closes their account", async ({ page }) => {
  const shopper = await signUpAndLogIn(page);
  await page.goto("/");
  // The session is restored after the page starts: Add to Cart before that asks the shopper to log in.
  await expect(page.getByRole("link", { name: shopper.fullName })).toBeVisible();
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  await page.goto("/profile");
  await waitForHydration(page);
  // The order names the versions of the policies it was placed under, each at its own address.
  await page.getByRole("tab", { name: "Order History" }).click();
  const placed = page.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
  await expect(placed).toContainText("Placed under our");
  for (const [name, kind] of [
    ["Terms and Conditions", "terms"],
    ["Return Policy", "return-policy"],
    ["Privacy Policy", "privacy"],
  ]) {
    await expect(placed.getByRole("link", { name, exact: true })).toHaveAttribute(
      "href",
      new RegExp(`^/${kind}/v/\\d+$`),
    );
  }
  await page.getByRole("tab", { name: "Privacy" }).click();

  // Marketing is opt-in: the box starts unticked, and ticking it is recorded.
  const news = page.getByRole("checkbox", { name: /news and special offers by e-mail/ });
  await expect(news).not.toBeChecked();
  await expectNoSeriousViolations(page);
  // The box shows what the server holds: it turns checked once the change is saved, not on the click.
  await news.click();
  await expect(page.getByText("You will hear about news and offers", { exact: true })).toBeVisible();
  await expect(news).toBeChecked();

  // Download my data: the password, then one JSON file with the account, the order and the consent.
  await page.getByRole("button", { name: "Download my data" }).click();
  await page.getByLabel("Password").fill(`${shopper.password}-wrong`);
  await page.getByRole("button", { name: "Download", exact: true }).click();
  await expect(page.getByText("Your current password is not correct, so nothing was changed.").first()).toBeVisible();
  await page.getByLabel("Password").fill(shopper.password);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download", exact: true }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^snug-dry-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile((await download.path()) as string, "utf8"));
  expect(data.account).toMatchObject({ username: shopper.username, email: shopper.email });
  expect(data.orders.map((order: { id: string }) => order.id)).toEqual([orderId]);
  expect(data.marketingConsents).toMatchObject([{ channel: "email", granted: true, source: "profile" }]);

  // Close my account: the password again; the shop logs this browser out and goes home.
  await page.getByRole("button", { name: "Close my account" }).click();
  await expectNoSeriousViolations(page);
  await page.getByLabel("Password").fill(shopper.password);
  await page.getByRole("button", { name: "Close my account for good" }).click();
  await expect(page.getByText("Your account is closed", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();

  // Nobody can log in with it any more, by username or e-mail.
  for (const username of [shopper.username, shopper.email]) {
    const login = await page.request.post("/api/auth/login", { data: { username, password: shopper.password } });
    expect(login.status()).toBe(401);
  }
  await page.goto("/profile");
  await expect(page.getByRole("heading", { name: shopper.fullName })).toBeHidden();
});

test("the sign-up form leaves marketing unticked and links the privacy policy", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Login" }).click();
  const dialog = page.getByRole("dialog", { name: "Account Required" });
  await dialog.getByRole("tab", { name: "Sign Up" }).click();
  await expect(dialog.getByRole("checkbox", { name: /news and special offers by e-mail/ })).not.toBeChecked();
  await expect(dialog.getByText(/We use these details to run your account/)).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
  await expectNoSeriousViolations(page);
});
