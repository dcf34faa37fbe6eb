import { randomBytes } from "node:crypto";
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { checkOutOneProduct, logInAsNewAdmin, orderNumberOf, type Shopper, signUpAndLogIn } from "./helpers";

// The e2e server has no SMTP_URL: every message is captured in the outbox, readable in the admin.

/** A new shopper buys one product and pays in the PayFast emulator; answers them and the order's id. */
async function buyAndPay(page: Page): Promise<{ shopper: Shopper; orderId: string }> {
  const shopper = await signUpAndLogIn(page);
  await page.goto("/");
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  return { shopper, orderId };
}

async function newAdminPage(browser: Browser): Promise<Page> {
  const admin = await (await browser.newContext()).newPage();
  await logInAsNewAdmin(admin);
  await admin.goto("/admin");
  await expect(admin.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
  return admin;
}

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name, exact: true }).click();
  await expect(page.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
}

/**
 * The Emails tab's entry for a message to `to` whose subject matches, once the mail job has
 * captured it (it runs every few seconds; Refresh asks the list again).
 */
async function capturedEmail(admin: Page, to: string, subject: RegExp): Promise<Locator> {
  await openTab(admin, "Emails");
  const entry = admin
    .getByRole("list", { name: "E-mails" })
    .getByRole("article", { name: subject })
    .filter({ hasText: `To ${to}` });
  await expect(async () => {
    await admin.getByRole("button", { name: "Refresh" }).click();
    await expect(entry).toContainText("Captured", { timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
  return entry;
}

test("an admin reads the order confirmation a paying shopper was sent", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { shopper, orderId } = await buyAndPay(page);
  const number = orderNumberOf(orderId);

  const admin = await newAdminPage(browser);
  const entry = await capturedEmail(admin, shopper.email, new RegExp(`order ${number} is confirmed`));
  await expect(entry).toContainText("Order confirmation");
  await entry.getByRole("button", { name: "View" }).click();

  const dialog = admin.getByRole("dialog", { name: new RegExp(`order ${number} is confirmed`) });
  await expect(dialog).toContainText(`To ${shopper.email}`);
  const frame = dialog.locator(`iframe[src$="/html"]`);
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(dialog.frameLocator("iframe").locator("body")).toContainText(number);
  await dialog.getByRole("tab", { name: "Plain text" }).click();
  await expect(dialog.getByRole("tabpanel")).toContainText(number);

  // Resend queues it again; with no SMTP it is captured afresh.
  await dialog.getByRole("button", { name: "Resend" }).click();
  await expect(admin.getByText("E-mail queued again", { exact: true })).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(async () => {
    await admin.getByRole("button", { name: "Refresh" }).click();
    await expect(entry).toContainText("Captured", { timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
  await admin.context().close();
});

test("Mark as Shipped with a courier and tracking number e-mails the shopper and shows the tracking link", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { shopper, orderId } = await buyAndPay(page);
  const number = orderNumberOf(orderId);
  const tracking = `TCG${randomBytes(4).toString("hex").toUpperCase()}`;

  const admin = await newAdminPage(browser);
  await openTab(admin, "Orders");
  const card = admin.getByRole("article", { name: `Order #${number}` });
  await expect(card).toContainText("Paid - Ready to Ship");
  await card.getByRole("button", { name: "Mark as Shipped" }).click();
  const dialog = admin.getByRole("dialog", { name: `Ship order #${number}` });
  await dialog.getByLabel("Courier (optional)").selectOption("The Courier Guy");
  await dialog.getByLabel("Tracking number (optional)").fill(tracking);
  await dialog.getByRole("button", { name: "Mark as Shipped" }).click();
  await expect(admin.getByText("Order marked as processed and ready to ship", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText(`Shipped with The Courier Guy · tracking ${tracking}`);
  const adminLink = card.getByRole("link", { name: "Track parcel" });
  await expect(adminLink).toHaveAttribute("href", new RegExp(`${tracking}$`));
  const trackingUrl = await adminLink.getAttribute("href");

  const entry = await capturedEmail(admin, shopper.email, new RegExp(`order ${number} is on its way`));
  await expect(entry).toContainText("Order shipped");
  await entry.getByRole("button", { name: "View" }).click();
  const message = admin.getByRole("dialog", { name: new RegExp(`order ${number} is on its way`) });
  await expect(message.frameLocator("iframe").locator("body")).toContainText(tracking);
  await admin.context().close();

  // The shopper's order history: who carries it, the number, and a link to follow it.
  await page.getByRole("link", { name: shopper.fullName }).click();
  await page.getByRole("tab", { name: "Order History" }).click();
  const order = page.getByRole("article", { name: `Order #${number}` });
  await expect(order).toContainText(`Shipped with The Courier Guy · tracking ${tracking}`);
  const link = order.getByRole("link", { name: /^Track parcel/ });
  await expect(link).toHaveAttribute("href", trackingUrl ?? "");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", /noopener/);
});
