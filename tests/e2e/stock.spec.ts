import { randomBytes } from "node:crypto";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { formatRand } from "#domain/money.js";
import type { AdminProduct } from "#domain/schemas/catalog.js";
import type { Order } from "#domain/schemas/orders.js";
import {
  checkOutOneProduct,
  fillDelivery,
  logInAdminOn,
  orderNumberOf,
  placeOrderByApi,
  publicProduct,
  signUpAndLogIn,
  sizeMenu,
  waitForHydration,
} from "./helpers";

// Products of this spec's own (other specs share the server): named to sort after the seeded
// "Snug & Dry ..." products, which the other specs pick from the top of the catalogue.
const tag = randomBytes(3).toString("hex");

/** A signed-in admin on `request` (the page stays the shopper's), with a category of this test's own. */
async function adminWithCategory(request: APIRequestContext, category: string) {
  await logInAdminOn(request);
  const created = await request.post("/api/admin/categories", { data: { name: category } });
  expect(created.status(), await created.text()).toBe(201);
}

async function createProduct(
  admin: APIRequestContext,
  name: string,
  category: string,
  { sizes, stock, price = "100.00" }: { sizes: string[]; stock: Record<string, number>; price?: string },
): Promise<AdminProduct> {
  const created = await admin.post("/api/admin/products", {
    data: { name, category, price, image: "/images/products/kids-pull-up-pants.svg", sizes, stock },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as AdminProduct;
}

/** PUT /api/admin/products/{id} with the product's own fields and `changes` (stock per size, price). */
async function updateProduct(
  admin: APIRequestContext,
  product: AdminProduct,
  changes: { stock?: Record<string, number>; price?: string },
) {
  const { name, category, price, image, description, sizes, sizeImages, promoText } = product;
  const updated = await admin.put(`/api/admin/products/${product.id}`, {
    data: { name, category, price, image, description, sizes, sizeImages, promoText, stock: {}, ...changes },
  });
  expect(updated.status(), await updated.text()).toBe(200);
}

/** The storefront once it knows the shopper (an add before that asks them to log in). */
async function openAs(page: Page, shopper: { fullName: string }) {
  await page.goto("/");
  await expect(page.getByRole("link", { name: shopper.fullName })).toBeVisible();
}

/** The storefront, searched down to one product, and its card. */
async function openCard(page: Page, name: string) {
  await page.goto("/");
  await waitForHydration(page);
  await page.getByLabel("Search products").fill(name);
  const card = page.getByRole("article", { name, exact: true });
  await expect(card).toBeVisible();
  return card;
}

test("a size with two left reads Only 2 left on the card and in the dialog, and no stepper passes 2", async ({
  page,
  request,
}) => {
  const category = `stockroom low ${tag}`;
  await adminWithCategory(request, category);
  const name = `Stockroom Pull-Up Pants ${tag}`;
  const product = await createProduct(request, name, category, { sizes: ["S", "M"], stock: { S: 20, M: 20 } });
  await updateProduct(request, product, { stock: { M: 2 } });
  expect(await publicProduct(request, product.id)).toMatchObject({ sizeLowStock: { M: 2 }, sizeOutOfStock: {} });

  const shopper = await signUpAndLogIn(page);
  const card = await openCard(page, name);
  await expect(page.getByRole("link", { name: shopper.fullName })).toBeVisible();
  await expect(card.getByText(/^Only \d+ left$/)).toHaveCount(0);
  await (await sizeMenu(card)).selectOption("M");
  await expect(card.getByText("Only 2 left", { exact: true })).toBeVisible();
  await expect(await sizeMenu(card)).toHaveAccessibleDescription("Only 2 left");

  await card.getByRole("link", { name }).click();
  const dialog = page.getByRole("dialog", { name });
  await dialog.getByLabel("Size").selectOption("M");
  await expect(dialog.getByText("Only 2 left", { exact: true })).toBeVisible();
  const quantity = dialog.getByRole("group", { name: "Quantity" });
  const increase = quantity.getByRole("button", { name: "Increase quantity" });
  await increase.click();
  await expect(quantity.getByRole("status")).toHaveText("2");
  await expect(increase).toBeDisabled();
  await expect(dialog.getByText(formatRand(20_000), { exact: true })).toBeVisible();
  // Plenty of S: no note, and the stepper goes on.
  await dialog.getByLabel("Size").selectOption("S");
  await expect(dialog.getByText(/^Only \d+ left$/)).toHaveCount(0);
  await expect(increase).toBeEnabled();
  await dialog.getByLabel("Size").selectOption("M");
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${name} (M) x2`, { exact: true })).toBeVisible();

  // The cart holds all that is left: the card adds no more, and the cart's stepper stops there.
  await card.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByText(`Your cart already holds the last 2 of ${name} (M).`, { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Cart, 2 items" }).click();
  const sheet = page.getByRole("dialog", { name: "Shopping Cart" });
  await expect(sheet.getByLabel(`Quantity of ${name}, size M`, { exact: true })).toHaveText("2");
  await expect(sheet.getByRole("button", { name: `Increase quantity of ${name}, size M` })).toBeDisabled();
  await expect(sheet.getByText("Only 2 left", { exact: true })).toBeVisible();

  // One of them sells elsewhere before checkout: create-order refuses with the server's words, and
  // the cart learns what is left.
  await updateProduct(request, product, { stock: { M: 1 } });
  await sheet.getByRole("button", { name: "Proceed to Checkout" }).click();
  await fillDelivery(page);
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await expect(page.getByText("Not enough in stock", { exact: true })).toBeVisible();
  await expect(page.getByText(new RegExp(`^Only 1 left of ${name} \\(M\\)`))).toBeVisible();
  await expect(page.getByText("Only 1 left: please lower the quantity", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Place Order - / })).toBeEnabled();

  expect((await request.delete(`/api/admin/products/${product.id}`)).status()).toBe(204);
});

test("Buy again fills the cart at today's prices and names what is not sold any more", async ({ page, request }) => {
  const category = `stockroom again ${tag}`;
  await adminWithCategory(request, category);
  const pantsName = `Stockroom Night Pants ${tag}`;
  const swimName = `Stockroom Swim Nappies ${tag}`;
  const pants = await createProduct(request, pantsName, category, { sizes: ["S", "M"], stock: { S: 20, M: 20 } });
  const swim = await createProduct(request, swimName, category, {
    sizes: ["Size 4"],
    stock: { "Size 4": 5 },
    price: "50.00",
  });

  await signUpAndLogIn(page);
  const orderId = await placeOrderByApi(page, [
    { product: pants, size: "S", quantity: 2 },
    { product: swim, size: "Size 4", quantity: 1 },
  ]);
  const cancelled = await page.request.post(`/api/orders/${orderId}/cancel`, { data: {} });
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  expect((await cancelled.json()) as Order).toMatchObject({ status: "cancelled", cancelReason: "shopper" });

  // Since then the pants cost more and the swim nappies are gone from the shop.
  await updateProduct(request, pants, { price: "120.00" });
  expect((await request.delete(`/api/admin/products/${swim.id}`)).status()).toBe(204);

  await page.goto("/profile");
  await page.getByRole("tab", { name: "Order History" }).click();
  const order = page.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
  await expect(order.getByText(/^Cancelled by you on /)).toBeVisible();
  await order.getByRole("button", { name: "Buy again" }).click();
  await expect(page.getByText("Added 2 items to your cart", { exact: true })).toBeVisible();
  await expect(page.getByText(`Not available any more: ${swimName} (Size 4).`, { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Cart, 2 items" }).click();
  const sheet = page.getByRole("dialog", { name: "Shopping Cart" });
  const lines = sheet.getByRole("list", { name: "Cart items" }).getByRole("listitem");
  await expect(lines).toHaveCount(1);
  await expect(sheet.getByLabel(`Quantity of ${pantsName}, size S`, { exact: true })).toHaveText("2");
  await expect(lines.first()).toContainText(`${formatRand(12_000)} each`);

  expect((await request.delete(`/api/admin/products/${pants.id}`)).status()).toBe(204);
});

test("Cancel payment at PayFast cancels the unpaid order and keeps the cart", async ({ page }) => {
  await openAs(page, await signUpAndLogIn(page));
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Cancel payment" }).click();

  await expect(page).toHaveURL(new RegExp(`/cancel\\?orderId=${orderId}$`));
  await expect(page.getByRole("heading", { name: "Payment Cancelled" })).toBeVisible();
  await expect(page.getByText("Status: Cancelled")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cart, 1 item" })).toBeVisible();
  const order = (await (await page.request.get(`/api/orders/${orderId}`)).json()) as Order;
  expect(order).toMatchObject({ status: "cancelled", cancelReason: "shopper" });

  // Back on the page later: still cancelled, nothing asked twice of the shopper.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Payment Cancelled" })).toBeVisible();
  await page.getByRole("link", { name: "Retry Payment" }).click();
  await expect(page).toHaveURL(/\/checkout$/);
});

test("the cancel page says the payment went through when PayFast took it first", async ({ page }) => {
  await openAs(page, await signUpAndLogIn(page));
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  await page.goto(`/cancel?orderId=${orderId}`);
  await expect(page.getByRole("heading", { name: "Your payment went through" })).toBeVisible();
  await expect(page.getByText(/There is no need to pay again/)).toBeVisible();
  expect(((await (await page.request.get(`/api/orders/${orderId}`)).json()) as Order).status).toBe("completed");
  await page.getByRole("link", { name: "View your order" }).click();
  await expect(page).toHaveURL(new RegExp(`/success\\?orderId=${orderId}$`));
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
});
