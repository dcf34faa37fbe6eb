import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { AdminProduct } from "#domain/schemas/catalog.js";
import { logInAsNewAdmin, placeOrderByApi, publicProduct } from "./helpers";

// Unique names: other spec files run against the same server at the same time.
const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const categoryName = `stock ${tag}`;
// Sorts after the seeded catalogue ("Snug & Dry ..."): specs that order the first product in stock
// of GET /api/products never take this one, so its counts stay this test's.
const productName = `Test Stock Pants ${tag}`;

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name, exact: true }).click();
  await expect(page.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
}

async function adminProduct(request: APIRequestContext, id: string): Promise<AdminProduct | undefined> {
  const response = await request.get("/api/admin/products");
  expect(response.status()).toBe(200);
  return ((await response.json()) as AdminProduct[]).find((product) => product.id === id);
}

test("an admin counts stock per size; the shop sells only what is left and the dashboard lists what runs low", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await logInAsNewAdmin(page);

  expect((await page.request.post("/api/admin/categories", { data: { name: categoryName } })).status()).toBe(201);
  const created = await page.request.post("/api/admin/products", {
    data: {
      name: productName,
      category: categoryName,
      price: "100.00",
      image: "/images/products/baby-swim-nappies.svg",
      sizes: ["S", "M", "L"],
      stock: { S: 10, M: 10, L: 10 },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const product = (await created.json()) as AdminProduct;
  expect(product.stock).toEqual({ S: 10, M: 10, L: 10 });

  // Stock edited in the product form: M sold out, L down to 3, S up to 12.
  await page.goto("/admin");
  await openTab(page, "Products");
  const row = page.getByRole("listitem").filter({ hasText: productName });
  await expect(row.getByRole("list", { name: `Stock of ${productName} by size` })).toContainText("M: 10");
  await page.getByRole("button", { name: `Edit ${productName}` }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Product" });
  await expect(dialog.getByLabel("Stock of M", { exact: true })).toHaveValue("10");
  await expect(dialog.getByRole("switch")).toHaveCount(0);
  await dialog.getByLabel("Stock of S", { exact: true }).fill("12");
  await dialog.getByLabel("Stock of M", { exact: true }).fill("0");
  await dialog.getByLabel("Stock of L", { exact: true }).fill("3");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Product updated", { exact: true }).first()).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const stockList = row.getByRole("list", { name: `Stock of ${productName} by size` });
  await expect(stockList.getByRole("listitem")).toHaveText([/^S: 12/, /^M: Sold out/, /^L: Only 3/]);
  expect(await adminProduct(page.request, product.id)).toMatchObject({ stock: { S: 12, M: 0, L: 3 }, held: {} });

  // The storefront sells what is left: M sold out, L low, S as usual.
  expect(await publicProduct(page.request, product.id)).toMatchObject({
    sizeOutOfStock: { M: true },
    sizeLowStock: { L: 3 },
    outOfStock: false,
  });

  // The Dashboard's Low stock lists L with 3 left and M sold out, sold out first.
  await openTab(page, "Dashboard");
  const lowStock = page.getByRole("region", { name: "Low stock" });
  const showAll = lowStock.getByRole("button", { name: /^Show all/ });
  await expect(lowStock.getByRole("listitem").first()).toBeVisible();
  if (await showAll.isVisible()) await showAll.click();
  const ours = lowStock.getByRole("listitem").filter({ hasText: productName });
  await expect(ours).toHaveText([/M\s*Sold out/, /L\s*3 left/]);

  // Two of S held by an unpaid order: the form shows them, and refuses S below 2 with the server's words.
  const orderId = await placeOrderByApi(page, [{ product, size: "S", quantity: 2 }]);
  await openTab(page, "Products");
  await page.getByRole("button", { name: `Edit ${productName}` }).click();
  await expect(dialog.getByText("2 held by unpaid orders")).toBeVisible();
  await expect(dialog.getByLabel("Stock of S", { exact: true })).toHaveAccessibleDescription("2 held by unpaid orders");
  await dialog.getByLabel("Stock of S", { exact: true }).fill("1");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  const refusal = dialog.getByRole("alert");
  await expect(refusal).toContainText("Not saved.");
  await expect(refusal).toContainText("S");
  await expect(dialog).toBeVisible();
  expect((await adminProduct(page.request, product.id))?.stock.S).toBe(12);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(stockList.getByRole("listitem").first()).toHaveText(/^S: 10.*\(2 held\)/);

  // The order is cancelled: the Orders tab says why and when, and the held units can be sold again.
  expect((await page.request.post(`/api/orders/${orderId}/cancel`)).status()).toBe(200);
  await openTab(page, "Orders");
  const order = page.getByRole("article", { name: `Order #${orderId.slice(-8).toUpperCase()}` });
  await expect(order).toContainText("Cancelled");
  await expect(order).toContainText(/Cancelled by the shopper · \d/);
  expect(await adminProduct(page.request, product.id)).toMatchObject({ stock: { S: 12 }, held: {} });

  expect((await page.request.delete(`/api/admin/products/${product.id}`)).status()).toBe(204);
});
