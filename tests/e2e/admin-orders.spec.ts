import { expect, type Page, test } from "@playwright/test";
import type { AdminProduct } from "#domain/schemas/catalog.js";
import {
  checkOutOneProduct,
  logInAsNewAdmin,
  newShopper,
  orderNumberOf,
  pickInStockProduct,
  placeOrderByApi,
  signUpAndLogIn,
} from "./helpers";

test("an admin finds a paid order by search, opens its page and ships it from there", async ({ page, browser }) => {
  test.setTimeout(120_000);
  // A shopper pays through the PayFast emulator: its notification is on the order's page.
  const shopper = await signUpAndLogIn(page, newShopper());
  await page.goto("/");
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  const number = orderNumberOf(orderId);

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logInAsNewAdmin(admin);
  await admin.goto("/admin");
  await admin.getByRole("tab", { name: "Orders", exact: true }).click();

  // Search by part of the e-mail, in another case: only this shopper's order.
  const search = admin.getByRole("searchbox", { name: "Search orders" });
  await search.fill(shopper.email.split("@")[0]?.slice(3).toUpperCase() ?? "");
  await expect(admin.getByRole("article")).toHaveCount(1);
  const card = admin.getByRole("article", { name: `Order #${number}` });
  await expect(card).toContainText(shopper.email);
  // Search by the order number the shop shows; a search that matches nothing says so.
  await search.fill(`#${number}`);
  await expect(admin.getByRole("article")).toHaveCount(1);
  await search.fill("no-such-customer-anywhere");
  await expect(admin.getByText("No orders match")).toBeVisible();
  await search.fill(number.toLowerCase());
  await expect(card).toBeVisible();

  // The status filter keeps the order while it is paid, and drops it for another status.
  await admin.getByLabel("Status").selectOption({ label: "Shipped" });
  await expect(admin.getByText("No orders match")).toBeVisible();
  await admin.getByLabel("Status").selectOption({ label: "All statuses" });

  await card.getByRole("link", { name: `Order #${number}` }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
  await expect(admin.getByRole("heading", { level: 1, name: `Order #${number}` })).toBeVisible();
  const order = admin.getByRole("article", { name: `Order #${number}` });
  await expect(order).toContainText("Paid - Ready to Ship");
  await expect(order.getByRole("heading", { name: "Items" })).toBeVisible();
  await expect(admin.getByRole("region", { name: "Customer" })).toContainText(shopper.username);
  const notifications = admin.getByRole("list", { name: "Payment notifications" });
  await expect(notifications.getByRole("listitem")).toHaveCount(1);
  await expect(notifications).toContainText("Accepted: the order was paid");
  await expect(admin.getByRole("list", { name: "E-mails about this order" })).toContainText("Order confirmation");

  // An action from the page: ship it with a courier.
  await order.getByRole("button", { name: "Mark as Shipped" }).click();
  const dialog = admin.getByRole("dialog", { name: `Ship order #${number}` });
  await dialog.getByLabel("Courier (optional)").selectOption("The Courier Guy");
  await dialog.getByRole("button", { name: "Mark as Shipped" }).click();
  await expect(admin.getByText("Order marked as processed and ready to ship").first()).toBeVisible();
  await expect(order.getByText("Order shipped and completed")).toBeVisible();
  await expect(order).toContainText("Shipped with The Courier Guy");
  await expect(admin.getByRole("list", { name: "E-mails about this order" })).toContainText("Order shipped");

  await admin.getByRole("link", { name: "Back to orders" }).click();
  await expect(admin.getByRole("tab", { name: "Orders", exact: true })).toHaveAttribute("aria-selected", "true");
  await adminContext.close();
});

/** Pages of 2 instead of 50, so a handful of orders makes several pages. */
async function smallPages(page: Page) {
  await page.route("**/api/admin/orders?*", (route) => {
    const url = new URL(route.request().url());
    if (url.searchParams.get("limit") === "50") url.searchParams.set("limit", "2");
    return route.continue({ url: url.toString() });
  });
}

const shownText = /^(\d+) orders shown/;

test("the Orders tab loads older orders as the admin scrolls down", async ({ page }) => {
  test.setTimeout(90_000);
  await logInAsNewAdmin(page);
  const { product, size } = await pickInStockProduct(page);
  for (let index = 0; index < 5; index++) {
    await placeOrderByApi(page, [{ product: product as unknown as AdminProduct, size, quantity: 1 }]);
  }
  await smallPages(page);
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto("/admin?tab=orders");
  await expect(page.getByText("2 orders shown")).toBeVisible();
  await page.getByText(shownText).scrollIntoViewIfNeeded();
  await expect(page.getByText(/^([4-9]|\d{2,}) orders shown/)).toBeVisible();
});

test("without IntersectionObserver, Load more brings the next page", async ({ page }) => {
  await page.addInitScript(() => {
    Reflect.deleteProperty(window, "IntersectionObserver");
  });
  await logInAsNewAdmin(page);
  await smallPages(page);
  await page.goto("/admin?tab=orders");
  await expect(page.getByText("2 orders shown")).toBeVisible();
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(page.getByText("4 orders shown")).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(4);
});
