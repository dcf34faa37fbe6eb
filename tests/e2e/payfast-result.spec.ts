import { expect, type Page, test } from "@playwright/test";
import { checkOutOneProduct, signUpAndLogIn } from "./helpers";

// A declined card goes through the emulator's real FAILED notification, a slow EFT through its real
// PENDING one ("Payment pending (slow EFT)"); the page's switch from PENDING to paid is laid over the
// real order, as the page would receive it (the server side: tests/api/payfast-outcomes.test.ts).

/** A signed-in shopper with one product in the cart and an order waiting at PayFast. */
async function waitingOrder(page: Page): Promise<string> {
  await signUpAndLogIn(page);
  await page.goto("/");
  return checkOutOneProduct(page);
}

async function reportOrderAs(page: Page, orderId: string, patch: Record<string, unknown>) {
  await page.route(`**/api/orders/${orderId}`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), ...patch } });
  });
}

test("a shopper whose card is declined is told so on return and retries with the cart kept", async ({ page }) => {
  const orderId = await waitingOrder(page);
  // The emulator notifies the shop FAILED, as PayFast does for a declined card, then returns the shopper.
  await page.getByRole("button", { name: "Payment fails (card declined)" }).click();
  await expect(page).toHaveURL(new RegExp(`/success\\?orderId=${orderId}$`));

  await expect(page.getByRole("heading", { name: "Your payment did not go through" })).toBeVisible();
  await expect(page.getByText("Status: Payment failed")).toBeVisible();
  await expect(page.getByText(/nothing was charged for this order/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Cart, 1 item" })).toBeVisible();

  await page.getByRole("link", { name: "Retry Payment" }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByRole("button", { name: /^Place Order - / })).toBeVisible();
});

test("a slow EFT: PayFast reports it pending, and the shopper is told until when the items are kept", async ({
  page,
}) => {
  const orderId = await waitingOrder(page);
  await page.getByRole("button", { name: "Payment pending (slow EFT)" }).click();
  await expect(page).toHaveURL(new RegExp(`/success\\?orderId=${orderId}$`));
  await expect(page.getByRole("heading", { name: "PayFast is still processing your payment" })).toBeVisible();
  await expect(page.getByText(/We keep your items for you until \d/)).toBeVisible();

  await page.goto("/profile");
  await page.getByRole("tab", { name: "Order History" }).click();
  const mine = page.getByRole("article", { name: new RegExp(`Order #${orderId.slice(-8).toUpperCase()}`) });
  await expect(mine).toContainText(/PayFast is still processing your payment; we keep your items for you until \d/);
});

test("while PayFast is still processing a payment the page says so and keeps checking", async ({ page }) => {
  const orderId = await waitingOrder(page);
  await reportOrderAs(page, orderId, { status: "pending", payfastStatus: "PENDING" });
  await page.goto(`/thank-you?orderId=${orderId}`);

  await expect(page.getByRole("heading", { name: "PayFast is still processing your payment" })).toBeVisible();
  await expect(page.getByText(/There is no need to pay again/)).toBeVisible();

  // PayFast confirms it: the next check shows the payment.
  await page.unroute(`**/api/orders/${orderId}`);
  await reportOrderAs(page, orderId, { status: "completed", payfastStatus: null });
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cart, 0 items" })).toBeVisible();
});

test("after twenty minutes without a payment the page stops checking and offers to check again", async ({ page }) => {
  const orderId = await waitingOrder(page);
  await page.clock.install();
  await page.goto(`/success?orderId=${orderId}`);
  await expect(page.getByRole("heading", { name: "Confirming your payment..." })).toBeVisible();
  await expect(page.getByText(/This page updates by itself/)).toBeVisible();

  // The polling schedule itself is unit-tested (use-order.test.ts); here, the end of the wait.
  await page.clock.runFor("21:00");
  await expect(page.getByRole("heading", { name: "PayFast has not confirmed this payment yet" })).toBeVisible();
  await expect(page.getByText(/please do not pay again/)).toBeVisible();
  await page.getByRole("button", { name: "Check again" }).click();
  await expect(page.getByRole("heading", { name: "Confirming your payment..." })).toBeVisible();
});
