import { expect, type Page, test } from "@playwright/test";
import { logInAsNewAdmin, newShopper } from "./helpers";

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name, exact: true }).click();
  await expect(page.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
}

test("an admin makes a customer an admin after confirming, and the Activity tab shows who did it", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const shopper = newShopper();
  expect((await request.post("/api/auth/register", { data: shopper })).status()).toBe(201);
  const admin = await logInAsNewAdmin(page);

  await page.goto("/admin");
  await openTab(page, "Users");
  await page.getByLabel("Search customers").fill(shopper.username.toUpperCase());
  const customers = page.getByRole("list", { name: "Customers", exact: true });
  await expect(customers.getByRole("listitem")).toHaveCount(1, { timeout: 10_000 });
  await expect(customers).toContainText(shopper.email);
  await expect(customers).toContainText("0 orders");
  await customers.getByRole("button", { name: new RegExp(`Open .*@${shopper.username}`) }).click();

  await expect(page.getByRole("heading", { name: shopper.fullName })).toBeVisible();
  await page.getByRole("button", { name: "Make admin" }).click();
  const dialog = page.getByRole("dialog", { name: "Make this customer an admin?" });
  await expect(dialog).toContainText("will see every order, customer and payment");
  // Cancel changes nothing.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole("button", { name: "Make admin" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Make admin" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${shopper.username} is now an admin` })).toBeVisible();
  await expect(page.getByRole("button", { name: "Remove admin rights" })).toBeVisible();

  // The new admin really may open the admin's API now.
  const login = await request.post("/api/auth/login", {
    data: { username: shopper.username, password: shopper.password },
  });
  expect(login.status()).toBe(200);
  expect((await request.get("/api/admin/users")).status()).toBe(200);

  // An admin's own page offers no way to remove their own rights.
  await page.getByRole("button", { name: "All customers" }).click();
  await page.getByLabel("Search customers").fill(admin.username);
  await page.getByRole("button", { name: new RegExp(`Open .*@${admin.username}`) }).click();
  await expect(page.getByText("This is you.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Remove admin rights" })).toHaveCount(0);

  await openTab(page, "Activity");
  await page.getByLabel("Search activity").fill(admin.username);
  const activity = page.getByRole("list", { name: "Activity" });
  const granted = activity.getByRole("listitem").filter({ hasText: "Made an admin" });
  await expect(granted).toHaveCount(1, { timeout: 10_000 });
  await expect(granted).toContainText(`@${admin.username}`);
  await expect(granted).toContainText(/isAdmin: false\W*became true/);
  await expect(activity.getByRole("listitem").filter({ hasText: "Logged in" }).first()).toBeVisible();
});

test("the Dashboard draws revenue per day and orders per status, each with a text alternative", async ({ page }) => {
  await logInAsNewAdmin(page);
  await page.goto("/admin");
  const revenue = page.getByRole("img", {
    name: /^(Revenue per day for the last 30 days|No revenue in the last 30 days)/,
  });
  await expect(revenue).toBeVisible();
  await page.getByText("Show the figures").click();
  const table = page.getByRole("table", { name: "Revenue per day, last 30 days" });
  await expect(table).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(31);
  const statuses = page.getByRole("list", { name: "Orders per status" });
  await expect(statuses.getByRole("listitem")).toHaveCount(5);
  for (const label of ["Needs Payment", "Paid - Ready to Ship", "Shipped", "Cancelled", "Refunded"]) {
    await expect(statuses).toContainText(label);
  }
});
