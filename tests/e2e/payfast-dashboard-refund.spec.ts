import { expect, test } from "@playwright/test";
import { PDFParse } from "pdf-parse";
import { checkOutOneProduct, logInAsNewAdmin, orderNumberOf, signUpAndLogIn } from "./helpers";

test("an admin records a refund made in PayFast's dashboard; the customer sees it and downloads the credit note", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUpAndLogIn(page);
  await page.goto("/");
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logInAsNewAdmin(admin);
  await admin.goto(`/admin/orders/${orderId}`);
  const order = admin.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
  await expect(order).toContainText("Paid - Ready to Ship");
  await order.getByRole("button", { name: "Record a refund made in PayFast" }).click();
  const dialog = admin.getByRole("dialog", {
    name: `Record a refund made in PayFast for order #${orderNumberOf(orderId)}`,
  });
  // The amount starts at all that is left, the day at today.
  await dialog.getByRole("textbox", { name: "Amount refunded (R)" }).fill("15.00");
  const reference = `PF-DASH-${orderNumberOf(orderId)}`;
  await dialog.getByRole("textbox", { name: "PayFast's reference" }).fill(reference);
  await dialog.getByRole("textbox", { name: "Reason" }).fill("Refunded to the buyer's bank account");
  await dialog.getByRole("button", { name: "Record refund" }).click();
  await expect(admin.getByText("Refund recorded", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  const refunds = order.getByRole("list", { name: "Refunds" });
  await expect(refunds).toContainText("R15.00");
  await expect(refunds).toContainText(`PayFast reference ${reference}`);
  await expect(refunds.getByRole("link", { name: /^Credit note CN-\d{6}/ })).toBeVisible();
  const activity = admin.getByRole("list", { name: "What was done to this order" });
  await expect(activity.getByRole("listitem").filter({ hasText: "Refund made in PayFast recorded" })).toBeVisible();
  await adminContext.close();

  await page.goto("/profile");
  await page.getByRole("tab", { name: "Order History" }).click();
  const mine = page.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
  const refund = mine.getByRole("list", { name: "Refunds" }).getByRole("listitem");
  await expect(refund).toContainText("Refunded R15.00");
  await expect(refund).toContainText("Refunded to the buyer's bank account");
  const creditNote = refund.getByRole("link", { name: /^Credit note CN-\d{6}/ });
  const number = ((await creditNote.textContent()) ?? "").match(/CN-\d{6}/)?.[0] ?? "missing";
  const download = await page.request.get((await creditNote.getAttribute("href")) ?? "");
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toBe("application/pdf");
  const parser = new PDFParse({ data: new Uint8Array(await download.body()) });
  const text = (await parser.getText()).text.replace(/\s+/g, " ");
  await parser.destroy();
  expect(text).toContain(number);
  expect(text).toContain("R15.00");
});
