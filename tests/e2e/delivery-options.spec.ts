import { expect, test } from "@playwright/test";
import { addToCart, fillDelivery, newShopper, pickInStockProduct, signUpAndLogIn } from "./helpers";

const SHOTS = process.env.SCREENSHOT_DIR;

test("a shopper chooses a locker from the nearest ones to the postal code, and pays through PayFast", async ({
  page,
}) => {
  await signUpAndLogIn(page, newShopper());
  const { product, size } = await pickInStockProduct(page);
  await page.goto("/");
  await addToCart(page, product, size);
  await page.goto("/checkout");
  await fillDelivery(page);

  const options = page.getByRole("group", { name: "How should we deliver?" });
  await expect(options.getByRole("radio", { name: /To your door \(economy\)/ })).toBeChecked();
  await options.getByRole("radio", { name: /To a TCG Locker/ }).check();

  const lockers = page.getByRole("list", { name: "Nearby lockers" });
  await expect(lockers.getByRole("button").first()).toBeVisible();
  await expect(lockers.getByRole("button").first()).toContainText("Open Mon-Sun 06:00-22:00");
  const first = lockers.getByRole("button").first();
  const lockerName = (await first.locator("span").first().textContent()) ?? "";
  await first.click();
  await expect(first).toHaveAttribute("aria-pressed", "true");

  if (SHOTS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1100 });
      await page.getByRole("heading", { name: "Delivery options" }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/checkout-locker-${width}.png`, fullPage: true });
    }
  }

  await page.getByRole("button", { name: /^Place Order - / }).click();
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page).toHaveURL(/\/success\?orderId=[0-9a-f-]{36}$/);
  const orderId = new URL(page.url()).searchParams.get("orderId") as string;
  const order = await (await page.request.get(`/api/orders/${orderId}`)).json();
  expect(order.status).toBe("completed");
  expect(order.delivery).toMatchObject({ service: "locker", pointName: lockerName });
});
