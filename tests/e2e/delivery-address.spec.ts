import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { addToCart, logInAsNewAdmin, newShopper, orderNumberOf, pickInStockProduct, signUpAndLogIn } from "./helpers";

const SHOTS = process.env.SCREENSHOT_DIR;

test("checkout asks for a South African address and pre-fills it from the profile, the province included", async ({
  page,
  browser,
}) => {
  const shopper = await signUpAndLogIn(page, newShopper());
  const me = await (await page.request.get("/api/auth/me")).json();
  const saved = await page.request.put(`/api/users/${me.id}`, {
    headers: { "x-user-id": me.id },
    data: {
      fullName: shopper.fullName,
      email: shopper.email,
      phone: "082 555 0199",
      altPhone: "012 555 0102",
      address: "12 Jacaranda Street",
      complex: "Unit 4, Jacaranda Court",
      suburb: "Hatfield",
      city: "Pretoria",
      province: "Gauteng",
      zipCode: "0083",
      deliveryInstructions: "Gate code 4455, leave with security",
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  const { product, size } = await pickInStockProduct(page);
  await page.goto("/");
  await addToCart(page, product, size);
  await page.goto("/checkout");
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  await expect(page.getByLabel("Suburb")).toHaveValue("Hatfield");
  await expect(page.getByLabel("Complex or unit")).toHaveValue("Unit 4, Jacaranda Court");
  await expect(page.getByLabel("Province")).toHaveValue("Gauteng");
  await expect(page.getByLabel("Postal code")).toHaveValue("0083");
  await expect(page.getByLabel("Other contact number")).toHaveValue("012 555 0102");
  await expect(page.getByLabel("Delivery instructions")).toHaveValue("Gate code 4455, leave with security");

  // A postal code that is not four digits, and no suburb: the form names both before sending anything.
  await page.getByLabel("Postal code").fill("83");
  await page.getByLabel("Suburb").fill("");
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await expect(page.getByText("Suburb is required")).toBeVisible();
  await expect(page.getByText("Postal code must be a South African postal code: four digits")).toBeVisible();

  if (SHOTS) {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 1100 });
      await page.getByLabel("Street address").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/checkout-address-${width}.png`, fullPage: true });
    }
  }

  // A suburb of this test's own, for the admin's search below.
  const suburb = `Hatfield ${randomBytes(3).toString("hex")}`;
  await page.getByLabel("Suburb").fill(suburb);
  await page.getByLabel("Postal code").fill("0083");
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await expect(page).toHaveURL(/\/eng\/process\//);
  const orders = await (await page.request.get(`/api/users/${me.id}/orders`)).json();
  expect(orders[0]).toMatchObject({
    deliverySuburb: suburb,
    deliveryComplex: "Unit 4, Jacaranda Court",
    deliveryProvince: "Gauteng",
    deliveryInstructions: "Gate code 4455, leave with security",
    deliveryAltPhone: "012 555 0102",
  });

  // The admin finds the order by its suburb and sees the whole address on its card.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logInAsNewAdmin(admin);
  await admin.goto("/admin");
  await admin.getByRole("tab", { name: "Orders", exact: true }).click();
  await admin.getByRole("searchbox", { name: "Search orders" }).fill(suburb.toUpperCase());
  await expect(admin.getByRole("article")).toHaveCount(1);
  const card = admin.getByRole("article", { name: `Order #${orderNumberOf(orders[0].id)}` });
  for (const shown of [
    "Unit 4, Jacaranda Court",
    "12 Jacaranda Street",
    suburb,
    "Pretoria, Gauteng 0083",
    "other 012 555 0102",
    "Instructions: Gate code 4455, leave with security",
  ]) {
    await expect(card).toContainText(shown);
  }
  await adminContext.close();
});
