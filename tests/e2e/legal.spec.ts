import { expect, test } from "@playwright/test";
import { addToCart, clickFooterLink, pickInStockProduct, signUpAndLogIn, waitForHydration } from "./helpers";

test("the footer's Legal link opens the Legal page with every ECTA s43(1) item", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  const footer = page.getByRole("contentinfo");
  await expect(
    footer.getByText(/run by Snug & Dry Demo Trading \(Pty\) Ltd, reg\. no\. 0000\/000000\/07/),
  ).toBeVisible();
  await expect(
    footer.getByText(
      /Consumer Goods and Services Industry Code: complain to us first, then to the CGSO \(www\.cgso\.org\.za, 0860 000 272\)/,
    ),
  ).toBeVisible();

  await clickFooterLink(page, "Legal", /\/legal$/);
  await expect(page.getByRole("heading", { level: 1, name: "Legal" })).toBeVisible();
  await expect(page).toHaveTitle(/^Legal \|/);
  await expect(page.getByText("These are a demo business's details.")).toBeVisible();
  for (const heading of [
    "Who we are",
    "Registration",
    "Address for service of legal documents",
    "Full price",
    "How to pay",
    "Dispatch and delivery",
    "Your record of the transaction",
    "Complaints and alternative dispute resolution",
    "Your right to cancel (cooling-off)",
  ]) {
    await expect(page.getByRole("term").filter({ hasText: heading })).toBeVisible();
  }
  await expect(page.getByText("Registration number: 0000/000000/07.")).toBeVisible();
  await expect(
    page.getByText(/CGSO\), free of charge: www\.cgso\.org\.za, telephone 0860 000 272, e-mail/),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "info@cgso.org.za" }).first()).toHaveAttribute(
    "href",
    "mailto:info@cgso.org.za",
  );
  await expect(page.getByRole("link", { name: "www.cgso.org.za" }).first()).toHaveAttribute(
    "href",
    "https://www.cgso.org.za",
  );
});

test("the footer's Privacy Policy link opens the privacy policy, which links the PAIA manual", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await clickFooterLink(page, "Privacy Policy", /\/privacy$/);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "What we collect and why" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Information Officer" })).toBeVisible();
  await expect(page.getByRole("link", { name: "www.inforegulator.org.za" })).toBeVisible();

  await page.getByRole("link", { name: "PAIA manual" }).click();
  await expect(page).toHaveURL(/\/paia-manual$/);
  await expect(page.getByRole("heading", { level: 1, name: "PAIA Manual" })).toBeVisible();
});

test("a policy's version has its own address, and an unknown version is a 404", async ({ page }) => {
  const response = await page.goto("/privacy/v/1");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await expect(page.getByText(/\(version 1\)/)).toBeVisible();
  expect((await page.goto("/privacy/v/999"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
});

test("checkout says what the delivery details are for, with a link to the Privacy Policy", async ({ page }) => {
  const shopper = await signUpAndLogIn(page);
  await page.goto("/");
  // The session is restored after the page starts: Add to Cart before that asks the shopper to log in.
  await expect(page.getByRole("link", { name: shopper.fullName })).toBeVisible();
  const { product, size } = await pickInStockProduct(page);
  await addToCart(page, product, size);
  await page.goto("/checkout");
  await expect(page).toHaveURL(/\/checkout$/);
  const notice = page.getByText("We use your details to deliver your order and as our Privacy Policy says.");
  await expect(notice).toBeVisible();
  await expect(notice.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
});
