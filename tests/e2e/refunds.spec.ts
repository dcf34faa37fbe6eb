import { expect, test } from "@playwright/test";
import { PDFParse } from "pdf-parse";
import { checkOutOneProduct, logInAsNewAdmin, orderNumberOf, signUpAndLogIn } from "./helpers";

test("an admin refunds part of an order; the customer sees it and downloads the credit note", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUpAndLogIn(page);
  await page.goto("/");
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  const invoice = page.getByRole("link", { name: /^Download invoice INV-\d{6}/ });
  await expect(invoice).toBeVisible();
  const invoicePdf = await page.request.get((await invoice.getAttribute("href")) ?? "");
  expect(invoicePdf.headers()["content-type"]).toBe("application/pdf");

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logInAsNewAdmin(admin);
  await admin.goto("/admin");
  await admin.getByRole("tab", { name: "Orders", exact: true }).click();
  const order = admin.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
  await expect(order).toContainText("Paid - Ready to Ship");
  await expect(order.getByRole("link", { name: /^Invoice INV-\d{6}/ })).toBeVisible();
  await order.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = admin.getByRole("dialog", { name: `Refund order #${orderNumberOf(orderId)}` });
  // A goodwill amount: spread over the order, as the admin chose.
  await dialog.getByRole("radio", { name: "An amount spread over the whole order (goodwill)" }).check();
  await dialog.getByRole("textbox", { name: "Amount (R)" }).fill("20.00");
  await dialog.getByRole("textbox", { name: "Reason" }).fill("One pack arrived damaged");
  await dialog.getByRole("button", { name: "Refund through PayFast" }).click();
  await expect(admin.getByText("Refund made", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  const refunds = order.getByRole("list", { name: "Refunds" });
  await expect(refunds).toContainText("R20.00");
  await expect(refunds).toContainText("One pack arrived damaged");
  await expect(refunds.getByRole("link", { name: /^Credit note CN-\d{6}/ })).toBeVisible();
  // Partly refunded, it is still to be shipped.
  await expect(order).toContainText("Paid - Ready to Ship");
  // The order's page lists the refund among what was done to it, and who did it.
  await admin.goto(`/admin/orders/${orderId}`);
  const activity = admin.getByRole("list", { name: "What was done to this order" });
  await expect(activity.getByRole("listitem").filter({ hasText: "Order refunded" })).toContainText("One pack arrived");
  await expect(admin.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` })).toContainText("R20.00");
  await adminContext.close();

  await page.goto("/profile");
  await page.getByRole("tab", { name: "Order History" }).click();
  const mine = page.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
  const refund = mine.getByRole("list", { name: "Refunds" }).getByRole("listitem");
  await expect(refund).toContainText("Refunded R20.00");
  await expect(refund).toContainText("One pack arrived damaged");
  const creditNote = refund.getByRole("link", { name: /^Credit note CN-\d{6}/ });
  const number = ((await creditNote.textContent()) ?? "").match(/CN-\d{6}/)?.[0] ?? "missing";
  const download = await page.request.get((await creditNote.getAttribute("href")) ?? "");
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toBe("application/pdf");
  const parser = new PDFParse({ data: new Uint8Array(await download.body()) });
  const text = (await parser.getText()).text.replace(/\s+/g, " ");
  await parser.destroy();
  expect(text).toContain(number);
  expect(text).toContain("R20.00");
  expect(text).toContain("One pack arrived damaged");
});

test("the refund dialog refuses more than is left to refund, before asking PayFast", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signUpAndLogIn(page);
  await page.goto("/");
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logInAsNewAdmin(admin);
  await admin.goto("/admin");
  await admin.getByRole("tab", { name: "Orders", exact: true }).click();
  const order = admin.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
  await order.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = admin.getByRole("dialog", { name: `Refund order #${orderNumberOf(orderId)}` });
  // More than was paid: the dialog says how much is left, before anything reaches PayFast.
  await dialog.getByRole("radio", { name: "An amount spread over the whole order (goodwill)" }).check();
  await dialog.getByRole("textbox", { name: "Amount (R)" }).fill("99999.00");
  await dialog.getByRole("textbox", { name: "Reason" }).fill("Too much");
  await dialog.getByRole("button", { name: "Refund through PayFast" }).click();
  await expect(dialog.getByRole("alert")).toContainText(/At most R[\d,]+\.\d{2} is left to refund/);
  await expect(order.getByRole("list", { name: "Refunds" })).toHaveCount(0);
  await adminContext.close();
});

test("an admin refunds the units that came back and the delivery fee; the credit note lists them", async ({
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
  await admin.goto("/admin");
  await admin.getByRole("tab", { name: "Orders", exact: true }).click();
  const order = admin.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
  await order.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = admin.getByRole("dialog", { name: `Refund order #${orderNumberOf(orderId)}` });
  // The items that came back is the first choice: nothing chosen, nothing to refund.
  await expect(dialog.getByRole("radio", { name: "The items that came back, at their price" })).toBeChecked();
  await dialog.getByRole("textbox", { name: "Reason" }).fill("Returned unopened");
  await dialog.getByRole("button", { name: "Refund through PayFast" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Choose the units that came back, or the delivery fee.");
  const units = dialog.getByRole("textbox", { name: /^Units of / }).first();
  await units.fill("1");
  const delivery = dialog.getByRole("checkbox", { name: /^Refund the delivery fee/ });
  const withDelivery = (await delivery.count()) > 0;
  if (withDelivery) await delivery.check();
  const summary = dialog.getByText(/^Refunds R[\d,]+\.\d{2}/);
  const refunded = ((await summary.textContent()) ?? "").match(/R[\d,]+\.\d{2}/)?.[0] ?? "missing";
  await dialog.getByRole("button", { name: "Refund through PayFast" }).click();
  await expect(dialog).toBeHidden();
  const refunds = order.getByRole("list", { name: "Refunds" });
  await expect(refunds).toContainText(refunded);
  const creditNote = refunds.getByRole("link", { name: /^Credit note CN-\d{6}/ });
  const download = await admin.request.get((await creditNote.getAttribute("href")) ?? "");
  expect(download.status()).toBe(200);
  const parser = new PDFParse({ data: new Uint8Array(await download.body()) });
  const text = (await parser.getText()).text.replace(/\s+/g, " ");
  await parser.destroy();
  expect(text).toMatch(/1 x .+ \(.+\)/);
  if (withDelivery) expect(text).toContain("Delivery");
  expect(text).toMatch(/Total credited/);
  expect(text).toContain(refunded);
  await adminContext.close();
});
