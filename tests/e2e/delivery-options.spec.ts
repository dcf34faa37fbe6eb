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
  const lockerName = (await first.locator("span.font-medium").textContent()) ?? "";
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

test("a shopper chooses a locker by its marker on the map, and the order shows that locker", async ({ page }) => {
  await signUpAndLogIn(page, newShopper());
  const { product, size } = await pickInStockProduct(page);
  await page.goto("/");
  await addToCart(page, product, size);
  await page.goto("/checkout");
  await fillDelivery(page);
  await page
    .getByRole("group", { name: "How should we deliver?" })
    .getByRole("radio", { name: /To a TCG Locker/ })
    .check();

  // The map beside the list: numbered markers, one for each locker in the list, in the same order.
  const lockers = page.getByRole("list", { name: "Nearby lockers" });
  const map = page.getByRole("group", { name: "Map of nearby lockers" });
  await expect(map.getByRole("button").first()).toBeVisible();
  const count = await lockers.getByRole("button").count();
  expect(count).toBeGreaterThan(2);
  await expect(map.getByRole("button")).toHaveCount(count);

  // The third marker, by keyboard: its name is the list's third locker's.
  const marker = map.getByRole("button", { name: /^3: / });
  const lockerName = ((await marker.getAttribute("aria-label")) ?? "").replace(/^3: /, "");
  await expect(lockers.getByRole("button").nth(2)).toContainText(lockerName);
  await marker.focus();
  await page.keyboard.press("Enter");
  await expect(marker).toHaveAttribute("aria-pressed", "true");
  await expect(lockers.getByRole("button").nth(2)).toHaveAttribute("aria-pressed", "true");
  await expect(lockers.getByRole("button", { pressed: true })).toHaveCount(1);

  if (SHOTS) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 1100 });
      await map.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/checkout-locker-map-${width}.png` });
      await page
        .getByRole("region", { name: "Delivery options" })
        .screenshot({ path: `${SHOTS}/checkout-locker-map-section-${width}.png` });
    }
  }

  await page.getByRole("button", { name: /^Place Order - / }).click();
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page).toHaveURL(/\/success\?orderId=[0-9a-f-]{36}$/);
  const orderId = new URL(page.url()).searchParams.get("orderId") as string;
  const order = await (await page.request.get(`/api/orders/${orderId}`)).json();
  expect(order.delivery).toMatchObject({ service: "locker", pointName: lockerName });

  // The customer's own orders name the locker too.
  await page.goto("/profile");
  await page.getByRole("tab", { name: "Order History" }).click();
  await expect(page.getByText(`To a TCG Locker: ${lockerName},`, { exact: false })).toBeVisible();
});
