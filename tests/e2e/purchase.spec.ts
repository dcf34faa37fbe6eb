import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import type { Product } from "#domain/schemas/catalog.js";
import { sizeMenu, waitForHydration } from "./helpers";

function newShopper() {
  const tag = randomBytes(4).toString("hex");
  return {
    username: `thandi_${tag}`,
    fullName: `Thandi Mokoena ${tag}`,
    email: `thandi.${tag}@example.co.za`,
    password: `warm-and-dry-${tag}`,
  };
}

const inStockSizes = (product: Product) => product.sizes.filter((size) => !product.sizeOutOfStock[size]);

/** Two products from the live catalogue: one with two sizes in stock, and another in stock. */
async function pickProducts(page: Page) {
  const products = (await (await page.request.get("/api/products")).json()) as Product[];
  const available = products.filter((product) => !product.outOfStock);
  const twoSizes = available.find((product) => inStockSizes(product).length >= 2);
  const other = available.find((product) => product !== twoSizes && inStockSizes(product).length >= 1);
  if (!twoSizes || !other) throw new Error("the seeded catalogue lacks products for this test");
  return { twoSizes, other };
}

async function addToCart(page: Page, product: Product, size: string) {
  const card = page.getByRole("article", { name: product.name });
  await (await sizeMenu(card)).selectOption(size);
  await card.getByRole("button", { name: "Add to Cart" }).click();
  await expect(card.getByRole("button", { name: "Added!" })).toBeDisabled();
  // The button returns to Add to Cart after 1.5 s.
  await expect(card.getByRole("button", { name: "Add to Cart" })).toBeEnabled({ timeout: 5_000 });
}

async function fillDelivery(page: Page) {
  await page.getByLabel("Phone number").fill("082 555 0199");
  await page.getByLabel("Street address").fill("12 Jacaranda Avenue");
  await page.getByLabel("Suburb").fill("Hatfield");
  await page.getByLabel("City").fill("Pretoria");
  await page.getByLabel("Province").selectOption("Gauteng");
  await page.getByLabel("Postal code").fill("0181");
}

test("a new shopper signs up, buys two sizes of one product and another product, and pays", async ({ page }) => {
  const shopper = newShopper();
  const { twoSizes, other } = await pickProducts(page);
  const [sizeA, sizeB] = inStockSizes(twoSizes) as [string, string];
  const sizeC = inStockSizes(other)[0] as string;

  await page.goto("/");
  await waitForHydration(page);
  // A guest who adds to the cart is asked to log in or sign up first.
  await page.getByRole("article", { name: twoSizes.name }).getByRole("button", { name: "Add to Cart" }).click();
  const dialog = page.getByRole("dialog", { name: "Account Required" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("tab", { name: "Sign Up" }).click();
  await dialog.getByLabel("Username").fill(shopper.username);
  await dialog.getByLabel("Full name").fill(shopper.fullName);
  await dialog.getByLabel("Email").fill(shopper.email);
  await dialog.getByLabel("Password").fill(shopper.password);
  await dialog.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Account created successfully! You can now log in.", { exact: true })).toBeVisible();
  await dialog.getByLabel("Password").fill(shopper.password);
  await dialog.getByRole("button", { name: "Login" }).click();
  await expect(page.getByText("Logged in successfully!", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  await addToCart(page, twoSizes, sizeA);
  await addToCart(page, twoSizes, sizeB);
  await addToCart(page, twoSizes, sizeB);
  await addToCart(page, other, sizeC);
  await expect(page.getByRole("button", { name: "Cart, 4 items" })).toBeVisible();

  await page.getByRole("button", { name: "Cart, 4 items" }).click();
  const sheet = page.getByRole("dialog", { name: "Shopping Cart" });
  const lines = sheet.getByRole("list", { name: "Cart items" }).getByRole("listitem");
  await expect(lines).toHaveCount(3);
  await expect(sheet.getByLabel(`Quantity of ${twoSizes.name}, size ${sizeB}`, { exact: true })).toHaveText("2");
  await sheet.getByRole("button", { name: "Proceed to Checkout" }).click();

  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  // Prefilled from the profile.
  await expect(page.getByLabel("Full name")).toHaveValue(shopper.fullName);
  await expect(page.getByLabel("Email address")).toHaveValue(shopper.email);
  await fillDelivery(page);
  await page.getByRole("button", { name: /^Place Order - R[\d,]+\.\d{2}$/ }).click();

  // The local PayFast emulator: the amount and the two buttons.
  await expect(page.getByRole("button", { name: "Complete payment", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();

  await expect(page).toHaveURL(/\/success\?orderId=[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  const orderId = new URL(page.url()).searchParams.get("orderId") as string;
  const order = await (await page.request.get(`/api/orders/${orderId}`)).json();
  expect(order.status).toBe("completed");
  expect(order.items).toHaveLength(3);
  // Paid: the cart is cleared.
  await expect(page.getByRole("button", { name: "Cart, 0 items" })).toBeVisible();

  await page.getByRole("link", { name: shopper.fullName }).click();
  await page.getByRole("tab", { name: "Order History" }).click();
  await expect(page.getByText(orderId.slice(-8).toUpperCase())).toBeVisible();
  await expect(page.getByText("Paid - Ready to Ship")).toBeVisible();
});

test("a shopper who cancels at PayFast keeps the cart, retries and pays", async ({ page }) => {
  const shopper = newShopper();
  expect((await page.request.post("/api/auth/register", { data: shopper })).status()).toBe(201);
  expect(
    (
      await page.request.post("/api/auth/login", { data: { username: shopper.username, password: shopper.password } })
    ).status(),
  ).toBe(200);
  const { other } = await pickProducts(page);

  await page.goto("/");
  await expect(page.getByRole("link", { name: shopper.fullName })).toBeVisible();
  await addToCart(page, other, inStockSizes(other)[0] as string);
  await page.getByRole("button", { name: "Cart, 1 item" }).click();
  await page.getByRole("button", { name: "Proceed to Checkout" }).click();
  await fillDelivery(page);
  await page.getByRole("button", { name: /^Place Order - / }).click();

  await page.getByRole("button", { name: "Cancel payment" }).click();
  await expect(page).toHaveURL(/\/cancel\?orderId=/);
  await expect(page.getByRole("heading", { name: "Payment Cancelled" })).toBeVisible();
  await expect(page.getByText("Status: Cancelled")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cart, 1 item" })).toBeVisible();
  const cancelledId = new URL(page.url()).searchParams.get("orderId") as string;
  // Leaving PayFast cancels the unpaid order at once, so its stock is free for other shoppers.
  expect(await (await page.request.get(`/api/orders/${cancelledId}`)).json()).toMatchObject({
    status: "cancelled",
    cancelReason: "shopper",
  });

  await page.getByRole("link", { name: "Retry Payment" }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await fillDelivery(page);
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cart, 0 items" })).toBeVisible();
});

test("checkout refuses incomplete delivery details and bounces an empty cart", async ({ page }) => {
  const shopper = newShopper();
  await page.request.post("/api/auth/register", { data: shopper });
  await page.request.post("/api/auth/login", { data: { username: shopper.username, password: shopper.password } });

  await page.goto("/checkout");
  await expect(page).toHaveURL(/\/$/);

  const { other } = await pickProducts(page);
  await addToCart(page, other, inStockSizes(other)[0] as string);
  await page.goto("/checkout?cancelled=true");
  await expect(
    page.getByText("Your payment was cancelled. You can try again when ready.", { exact: true }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/checkout$/);

  await page.getByRole("button", { name: /^Place Order - / }).click();
  await expect(
    page.getByText("Please fill in all delivery details including phone number and email address.", { exact: true }),
  ).toBeVisible();
  await fillDelivery(page);
  await page.getByLabel("Email address").fill("not-an-email");
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await expect(page.getByText("Please enter a valid email address.", { exact: true })).toBeVisible();
});
