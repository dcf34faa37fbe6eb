import { expect, type Page, test } from "@playwright/test";
import { addToCart, fillDelivery, logInAsNewAdmin, newShopper, pickInStockProduct, signUpAndLogIn } from "./helpers";

const SHOTS = process.env.SCREENSHOT_DIR;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

/** A shopper's locker order, paid through the PayFast emulator: its id. */
async function paidLockerOrder(page: Page): Promise<string> {
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
  const first = page.getByRole("list", { name: "Nearby lockers" }).getByRole("button").first();
  await first.click();
  await expect(first).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: /^Place Order - / }).click();
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page).toHaveURL(/\/success\?orderId=[0-9a-f-]{36}$/);
  return new URL(page.url()).searchParams.get("orderId") as string;
}

test("the admin creates the waybill and downloads its label; the customer follows the parcel to its locker PIN", async ({
  page,
  browser,
}) => {
  const orderId = await paidLockerOrder(page);

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logInAsNewAdmin(admin);
  await admin.goto(`/admin/orders/${orderId}`);
  const delivery = admin.getByRole("region", { name: "Delivery" });
  await expect(delivery).toContainText("To a TCG Locker");
  await delivery.getByRole("button", { name: "Create waybill" }).click();
  await expect(delivery).toContainText("Waybill created");
  // What delivery cost: the customer's fee against the courier's quote at booking.
  await expect(delivery).toContainText(/Customer paid R[\d.,]+ · courier quoted R/);
  const label = delivery.getByRole("link", { name: /Download label/ });
  await expect(label).toBeVisible();
  const pdf = await admin.request.get((await label.getAttribute("href")) as string);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

  // The courier collects the parcel and puts it in the locker (the emulator's control, as its webhooks would).
  const shipment = (await (await admin.request.get(`/api/admin/orders/${orderId}/shipment`)).json()) as {
    shipment: { trackingReference: string };
  };
  const advanced = await admin.request.post("/courier-emulator/control/advance", {
    data: {
      tracking_reference: shipment.shipment.trackingReference,
      statuses: ["collected", "in-transit", "in-locker"],
    },
  });
  expect(advanced.status()).toBe(200);

  await admin.reload();
  await expect(delivery).toContainText("Ready for collection");
  await expect(delivery.getByRole("list", { name: "Where the parcel has been" }).getByRole("listitem")).toHaveCount(3);
  await shots(admin, "admin-order-waybill");
  await adminContext.close();

  // The customer, from their orders, follows the parcel.
  await page.goto("/profile");
  await page.getByRole("tab", { name: "Order History" }).click();
  await page.getByRole("link", { name: "Follow your parcel" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/orders/${orderId}/tracking$`));
  await expect(page.getByRole("heading", { name: "Ready for collection" })).toBeVisible();
  await expect(page.getByText(/^PIN \d{6}$/)).toBeVisible();
  const journey = page.getByRole("list", { name: "Tracking events, oldest first" });
  await expect(journey.getByRole("listitem")).toHaveCount(3);
  await expect(journey.getByRole("listitem").first()).toContainText("Collected by the courier");
  await shots(page, "tracking-ready");
});

test("the owner keeps the delivery boxes and reads the monthly delivery costs in the Delivery tab", async ({
  page,
}) => {
  await logInAsNewAdmin(page);
  await page.goto("/admin?tab=delivery");
  const boxes = page.getByRole("region", { name: "Boxes" });
  await expect(boxes.getByRole("listitem")).not.toHaveCount(0);

  const code = `T${Date.now().toString(36).slice(-5).toUpperCase()}`;
  await boxes.getByRole("button", { name: "Add Box" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Box" });
  await dialog.getByLabel("Code").fill(code);
  await dialog.getByLabel("Name").fill("Test carton");
  await dialog.getByLabel("Length inside (mm)").fill("0");
  await dialog.getByLabel("Width inside (mm)").fill("300");
  await dialog.getByLabel("Height inside (mm)").fill("200");
  await dialog.getByLabel("Most weight when full (g)").fill("8000");
  await dialog.getByRole("button", { name: "Add Box" }).click();
  await expect(dialog.getByText("Length must be more than 0 mm")).toBeVisible();
  await dialog.getByLabel("Length inside (mm)").fill("450");
  await dialog.getByRole("button", { name: "Add Box" }).click();
  await expect(dialog).toBeHidden();
  const added = boxes.getByRole("listitem").filter({ hasText: `Test carton (${code})` });
  await expect(added).toContainText("450 × 300 × 200 mm inside, up to 8 kg");

  page.once("dialog", (confirm) => confirm.accept());
  await added.getByRole("button", { name: "Remove Test carton" }).click();
  await expect(added).toHaveCount(0);

  const costs = page.getByRole("region", { name: "Delivery costs" });
  await expect(costs.getByRole("table")).toBeVisible();
  await expect(costs.getByRole("row", { name: /^Total/ })).toBeVisible();
  const csv = await page.request.get(
    (await costs.getByRole("link", { name: "Download CSV" }).getAttribute("href")) as string,
  );
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toMatch(/^Month,Orders shipped,/);
});
