import { expect, type Locator, type Page, test } from "@playwright/test";
import { CUSTOMER_REASONS, coolingOffLastDay, returnWindows } from "#domain/returns.js";
import { addDays, saDay } from "#domain/sa-calendar.js";
import { checkOutOneProduct, logInAsNewAdmin, orderNumberOf, signUpAndLogIn } from "./helpers";

// The e2e server has no SMTP_URL: every message is captured in the outbox, readable in the admin's Emails tab.

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name, exact: true }).click();
  await expect(page.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
}

/** The customer's order card in Order History, loaded afresh. */
async function myOrder(page: Page, orderId: string): Promise<Locator> {
  await page.goto("/profile");
  await page.getByRole("tab", { name: "Order History" }).click();
  return page.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
}

/** The request's status as the customer sees it on the order. */
async function expectCustomerStatus(page: Page, orderId: string, reference: string, status: string) {
  const order = await myOrder(page, orderId);
  const request = order
    .getByRole("list", { name: /^Requests about order/ })
    .getByRole("listitem")
    .filter({ hasText: reference });
  await expect(request).toContainText(status);
  return request;
}

/** The captured message to `to` whose subject matches, once the mail job has captured it. */
async function expectCapturedEmail(admin: Page, to: string, subject: RegExp) {
  await openTab(admin, "Emails");
  const entry = admin
    .getByRole("list", { name: "E-mails" })
    .getByRole("article", { name: subject })
    .filter({ hasText: `To ${to}` });
  await expect(async () => {
    await admin.getByRole("button", { name: "Refresh" }).click();
    await expect(entry).toContainText("Captured", { timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
  await expect(entry).toContainText("Return or complaint");
}

test("a customer returns a sealed pack; the admin accepts, receives it with restock and refunds it", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const shopper = await signUpAndLogIn(page);
  await page.goto("/");
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  const number = orderNumberOf(orderId);

  // The admin ships the order and records its delivery.
  const admin = await (await browser.newContext()).newPage();
  await logInAsNewAdmin(admin);
  await admin.goto("/admin");
  await openTab(admin, "Orders");
  const card = admin.getByRole("article", { name: `Order #${number}` });
  await card.getByRole("button", { name: "Mark as Shipped" }).click();
  const ship = admin.getByRole("dialog", { name: `Ship order #${number}` });
  await ship.getByRole("button", { name: "Mark as Shipped" }).click();
  await expect(ship).toBeHidden();
  await card.getByRole("button", { name: "Mark as delivered" }).click();
  await expect(card).toContainText("delivered");

  // The customer asks to send a sealed pack back.
  const order = await myOrder(page, orderId);
  await order.getByRole("button", { name: "Return or report a problem" }).click();
  const form = page.getByRole("dialog", { name: "Return or report a problem" });
  await form.getByRole("radio", { name: /Changed my mind/ }).check();
  await form.getByRole("spinbutton").first().fill("1");
  await form.getByRole("button", { name: "Send request" }).click();
  const confirmation = form.getByRole("status");
  await expect(confirmation).toContainText(/We have your request RET-\d{6}/);
  const reference = ((await confirmation.textContent()) ?? "").match(/RET-\d{6}/)?.[0] ?? "missing";
  await form.getByRole("button", { name: "Done" }).click();
  await expectCustomerStatus(page, orderId, reference, "Requested");

  // The admin's Requests tab: accept, with the return instructions e-mailed.
  await openTab(admin, "Requests");
  const request = admin.getByRole("article", { name: new RegExp(`^${reference}`) });
  await expect(request).toContainText(`Order #${number}`);
  await expect(request).toContainText("days left");
  // A sealed change-of-mind return cannot be declined: the button is not offered and the law is named.
  await expect(request.getByRole("button", { name: "Decline" })).toHaveCount(0);
  await expect(request).toContainText("ECTA s44");
  await request.getByRole("button", { name: "Accept" }).click();
  const accept = admin.getByRole("dialog", { name: `Accept ${reference}` });
  await accept.getByRole("button", { name: "Accept" }).click();
  await expect(accept).toBeHidden();
  await expect(request).toContainText("Accepted");
  const accepted = await expectCustomerStatus(page, orderId, reference, "Accepted");
  await expect(accepted).toContainText("Send the goods to");

  // The pack comes back: received, and put back on the shelf.
  await openTab(admin, "Requests");
  await request.getByRole("button", { name: "Mark goods received" }).click();
  const receive = admin.getByRole("dialog", { name: `Goods received ${reference}` });
  await expect(receive.getByRole("spinbutton")).toHaveValue("1");
  await receive.getByRole("button", { name: "Goods received" }).click();
  await expect(receive).toBeHidden();
  await expect(request).toContainText("1 back in stock");
  await expectCustomerStatus(page, orderId, reference, "Goods received");

  // The refund, through PayFast (the emulator), for the amount the server set.
  await request.getByRole("button", { name: "Refund" }).click();
  const refund = admin.getByRole("dialog", { name: `Refund ${reference}` });
  await refund.getByRole("button", { name: /^Refund R/ }).click();
  await expect(refund).toBeHidden();
  await expect(admin.getByText("Refunded through PayFast", { exact: true })).toBeVisible();
  const refunded = await expectCustomerStatus(page, orderId, reference, "Refunded");
  await expect(refunded).toContainText(/refunded R[\d,]+\.\d{2}/);

  // The order's page lists the request with its history's end, and its activity names each step.
  // (Refunded, it has left the open list.)
  await expect(request).toHaveCount(0);
  await admin.goto(`/admin/orders/${orderId}`);
  await expect(admin.getByRole("list", { name: "Requests about this order" })).toContainText("Refunded");
  const activity = admin.getByRole("list", { name: "What was done to this order" });
  await expect(activity).toContainText("Request accepted");
  await expect(activity).toContainText("Returned goods received");
  await admin.goto("/admin");

  // Each step reached the customer's inbox (captured: no SMTP in the e2e shop).
  for (const subject of [
    new RegExp(`We have your request ${reference}`),
    new RegExp(`request ${reference} .* is accepted`),
    new RegExp(`We have received your return ${reference}`),
    new RegExp(`request ${reference} .* is refunded`),
  ]) {
    await expectCapturedEmail(admin, shopper.email, subject);
  }
  await admin.context().close();
});

test("eight days after delivery the form says why a change of mind is closed and offers the routes still open", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUpAndLogIn(page);
  await page.goto("/");
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  const number = orderNumberOf(orderId);

  const admin = await (await browser.newContext()).newPage();
  await logInAsNewAdmin(admin);
  await admin.goto("/admin");
  await openTab(admin, "Orders");
  const card = admin.getByRole("article", { name: `Order #${number}` });
  await card.getByRole("button", { name: "Mark as Shipped" }).click();
  const ship = admin.getByRole("dialog", { name: `Ship order #${number}` });
  await ship.getByRole("button", { name: "Mark as Shipped" }).click();
  await expect(ship).toBeHidden();
  await card.getByRole("button", { name: "Mark as delivered" }).click();
  await expect(card).toContainText("delivered");
  await admin.context().close();

  // Time passes to the day after the 7 days (day 8, or later when day 7 was a Sunday or public
  // holiday): the windows are what the server's rule (src/domain/returns.ts) answers then
  // (tests/api/returns.test.ts checks the server answers so on that day).
  const now = new Date();
  const dayEight = addDays(coolingOffLastDay(saDay(now)), 1);
  const windows = returnWindows({ status: "processed", deliveredAt: now, shippedAt: now }, dayEight);
  await page.route(`**/api/orders/${orderId}/returns`, async (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    const response = await route.fetch();
    const answer = await response.json();
    await route.fulfill({ response, json: { ...answer, windows: CUSTOMER_REASONS.map((reason) => windows[reason]) } });
  });

  const order = await myOrder(page, orderId);
  await order.getByRole("button", { name: "Return or report a problem" }).click();
  const form = page.getByRole("dialog", { name: "Return or report a problem" });
  const closedBecause = windows.changed_mind.closedBecause ?? "missing";
  expect(closedBecause).toContain("7 days after you received them");
  for (const closed of [/Changed my mind/, /Wrong size/]) {
    await expect(form.getByRole("radio", { name: closed })).toBeDisabled();
  }
  await expect(form.getByText(closedBecause).first()).toBeVisible();
  await expect(form).toContainText(
    "Some options are closed for this order; each says why. Still open: defective or damaged, not what I ordered, another complaint.",
  );
  // The routes still open work: a defect is reported.
  await form.getByRole("radio", { name: /Defective or damaged/ }).check();
  await form.getByRole("spinbutton").first().fill("1");
  await form.getByRole("button", { name: "Send request" }).click();
  await expect(form.getByRole("status")).toContainText(/We have your request RET-\d{6}/);
});

test("with no delivery recorded the form asks the day the goods arrived, and the admin sees the window counted from it", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUpAndLogIn(page);
  await page.goto("/");
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  const number = orderNumberOf(orderId);

  // Shipped, but nobody records the delivery.
  const admin = await (await browser.newContext()).newPage();
  await logInAsNewAdmin(admin);
  await admin.goto("/admin");
  await openTab(admin, "Orders");
  const card = admin.getByRole("article", { name: `Order #${number}` });
  await card.getByRole("button", { name: "Mark as Shipped" }).click();
  const ship = admin.getByRole("dialog", { name: `Ship order #${number}` });
  await ship.getByRole("button", { name: "Mark as Shipped" }).click();
  await expect(ship).toBeHidden();
  await expect(card.getByRole("button", { name: "Mark as delivered" })).toBeVisible();

  const order = await myOrder(page, orderId);
  await order.getByRole("button", { name: "Return or report a problem" }).click();
  const form = page.getByRole("dialog", { name: "Return or report a problem" });
  await form.getByRole("radio", { name: /Changed my mind/ }).check();
  await form.getByRole("spinbutton").first().fill("1");
  const received = form.getByLabel("When did you receive the goods?");
  await expect(received).toBeVisible();
  await form.getByRole("button", { name: "Send request" }).click();
  await expect(form.getByRole("alert")).toHaveText("Tell us the day you received the goods.");
  const today = saDay(new Date());
  await received.fill(today);
  await expect(form).toContainText(`sealed packs until`);
  await form.getByRole("button", { name: "Send request" }).click();
  const confirmation = form.getByRole("status");
  await expect(confirmation).toContainText(/We have your request RET-\d{6}/);
  const reference = ((await confirmation.textContent()) ?? "").match(/RET-\d{6}/)?.[0] ?? "missing";

  await openTab(admin, "Requests");
  const request = admin.getByRole("article", { name: new RegExp(`^${reference}`) });
  await expect(request).toContainText(
    /Window counted from \d{1,2} \w+ \d{4}: the day the customer says they received the goods\./,
  );
  await admin.context().close();
});
