import { expect, type Page, test } from "@playwright/test";
import type { AttentionItem } from "#domain/schemas/payments.js";
import { checkOutOneProduct, logInAsNewAdmin, orderNumberOf, signUpAndLogIn } from "./helpers";

async function openPaymentVerification(page: Page) {
  await page.goto("/admin");
  await page.getByRole("tab", { name: "Payment Verification", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Needs attention" })).toBeVisible();
}

test("an admin asks PayFast about an order that waits for payment", async ({ page, browser }) => {
  await signUpAndLogIn(page);
  await page.goto("/");
  // The shopper reaches PayFast's payment page and leaves without paying.
  const orderId = await checkOutOneProduct(page);

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logInAsNewAdmin(admin);
  await openPaymentVerification(admin);
  const order = admin.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
  await expect(order).toContainText("Needs Payment");
  await order.getByRole("button", { name: "Check with PayFast" }).click();
  await expect(admin.getByText("No payment yet", { exact: true })).toBeVisible();
  await expect(admin.getByText("PayFast shows no payment for this order yet.", { exact: true })).toBeVisible();
  await expect(order.getByRole("button", { name: "Confirm Payment" })).toBeEnabled();
  await adminContext.close();
});

test("a second payment for a paid order needs attention until the admin marks it resolved", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signUpAndLogIn(page);
  await page.goto("/");
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  // Back to PayFast's page, and pay the same order again.
  await page.goBack();
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logInAsNewAdmin(admin);
  const attention = (await (await admin.request.get("/api/admin/payments/attention")).json()) as {
    items: AttentionItem[];
  };
  const paidTwice = attention.items.find((item) => item.orderId === orderId);
  expect(paidTwice).toMatchObject({ kind: "paid_twice", orderStatus: "completed", resolvable: true });
  expect(paidTwice?.pfPaymentIds).toHaveLength(2);

  await openPaymentVerification(admin);
  const item = admin
    .getByRole("list", { name: "Needs attention" })
    .getByRole("listitem", { name: `Paid twice Order #${orderNumberOf(orderId)}` });
  await expect(item).toContainText("Paid - Ready to Ship");
  for (const pfPaymentId of paidTwice?.pfPaymentIds ?? []) await expect(item).toContainText(pfPaymentId);
  await expect(item.getByRole("definition").first()).toHaveText(/^R[\d,]+\.\d{2}$/);

  admin.once("dialog", (dialog) => dialog.accept());
  await item.getByRole("button", { name: "Mark resolved" }).click();
  await expect(admin.getByText("Marked resolved", { exact: true })).toBeVisible();
  await expect(item).toHaveCount(0);
  const after = (await (await admin.request.get("/api/admin/payments/attention")).json()) as { items: AttentionItem[] };
  expect(after.items.some((entry) => entry.orderId === orderId)).toBe(false);
  await adminContext.close();
});
