import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { waitForHydration } from "./helpers";

function newShopper() {
  const tag = randomBytes(4).toString("hex");
  return {
    username: `naledi_${tag}`,
    fullName: `Naledi Khumalo ${tag}`,
    email: `naledi.${tag}@example.co.za`,
    password: `soft-and-dry-${tag}`,
  };
}

type Shopper = ReturnType<typeof newShopper>;

/** Registers and logs in through the API; the page's browser context then carries the session cookie. */
async function signedInByApi(page: Page, shopper: Shopper) {
  const registered = await page.request.post("/api/auth/register", { data: shopper });
  expect(registered.status()).toBe(201);
  const login = await page.request.post("/api/auth/login", {
    data: { username: shopper.username, password: shopper.password },
  });
  expect(login.status()).toBe(200);
}

const toast = (page: Page, text: string) => page.getByText(text, { exact: true });

test("a shopper signs up, logs in, edits their profile and logs out", async ({ page }) => {
  const shopper = newShopper();
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Login" }).click();

  const dialog = page.getByRole("dialog", { name: "Account Required" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Please log in or create an account to add items to your cart")).toBeVisible();

  await dialog.getByRole("tab", { name: "Sign Up" }).click();
  await dialog.getByLabel("Username").fill(shopper.username);
  await dialog.getByLabel("Full name").fill(shopper.fullName);
  await dialog.getByLabel("Email").fill(shopper.email);
  await dialog.getByLabel("Password").fill(shopper.password);
  await dialog.getByLabel("Phone").fill("082 555 0147");
  await dialog.getByRole("button", { name: "Create Account" }).click();
  await expect(toast(page, "Account created successfully! You can now log in.")).toBeVisible();

  // Registering does not sign in: the Login tab opens with the new username filled in.
  await expect(dialog.getByRole("tab", { name: "Login" })).toHaveAttribute("aria-selected", "true");
  await expect(dialog.getByLabel("Username or email")).toHaveValue(shopper.username);
  await dialog.getByLabel("Password").fill(shopper.password);
  await dialog.getByRole("button", { name: "Login" }).click();
  await expect(toast(page, "Logged in successfully!")).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.getByRole("link", { name: shopper.fullName }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole("heading", { name: shopper.fullName })).toBeVisible();
  await expect(page.getByText(shopper.email)).toBeVisible();

  await page.getByRole("button", { name: "Edit Profile" }).click();
  await page.getByLabel("City").fill("Bloemfontein");
  await page.getByLabel("Street address").fill("21 Aloe Crescent");
  await page.getByLabel("Suburb").fill("Willows");
  await page.getByLabel("Province").selectOption("Free State");
  await page.getByLabel("Postal code").fill("9301");
  await page.getByLabel("Delivery instructions").fill("Leave with security");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page, "Profile updated successfully!")).toBeVisible();
  await expect(page.getByText("Bloemfontein")).toBeVisible();

  // The server keeps the change and the session: both survive a reload.
  await page.reload();
  await expect(page.getByText("21 Aloe Crescent")).toBeVisible();
  await expect(page.getByText("Willows")).toBeVisible();
  await expect(page.getByText("Free State")).toBeVisible();
  await expect(page.getByText("Leave with security")).toBeVisible();
  await page.getByRole("tab", { name: "Order History" }).click();
  await expect(page.getByRole("heading", { name: "No orders yet" })).toBeVisible();

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => window.localStorage.getItem("user"))).toBeNull();
  expect((await page.request.get("/api/auth/me")).status()).toBe(401);

  await page.goto("/profile");
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
});

test("a wrong password shows Login Failed with the server's message", async ({ page }) => {
  const shopper = newShopper();
  expect((await page.request.post("/api/auth/register", { data: shopper })).status()).toBe(201);
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Login" }).click();
  const dialog = page.getByRole("dialog", { name: "Account Required" });
  await dialog.getByLabel("Username or email").fill(shopper.email);
  await dialog.getByLabel("Password").fill("not-the-password");
  await dialog.getByRole("button", { name: "Login" }).click();
  await expect(toast(page, "Login Failed")).toBeVisible();
  await expect(toast(page, "Invalid credentials")).toBeVisible();
  await expect(dialog).toBeVisible();
});

test("the sign-up form explains what is missing before it sends anything", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Login" }).click();
  const dialog = page.getByRole("dialog", { name: "Account Required" });
  await dialog.getByRole("tab", { name: "Sign Up" }).click();
  await dialog.getByLabel("Email").fill("not-an-email");
  await dialog.getByLabel("Password").fill("short");
  await dialog.getByRole("button", { name: "Create Account" }).click();
  await expect(dialog.getByText("Username is required")).toBeVisible();
  await expect(dialog.getByText("Full name is required")).toBeVisible();
  await expect(dialog.getByText("Email must be a valid email address")).toBeVisible();
  await expect(dialog.getByText("Password must be at least 8 characters")).toBeVisible();
  await expect(dialog.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");
});

test("/admin asks a guest to log in, with a way home", async ({ page }) => {
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Authentication Required" })).toBeVisible();
  await expect(page.getByText("You must be logged in to access the admin panel")).toBeVisible();
  await page.getByRole("link", { name: "Go to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("/admin turns a signed-in customer away, with a way home", async ({ page }) => {
  const shopper = newShopper();
  await signedInByApi(page, shopper);
  // Nothing is stored in the browser yet: the session is restored from the server on load.
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await expect(page.getByText("You do not have permission to access the admin panel")).toBeVisible();
  await expect(page.getByRole("link", { name: shopper.fullName })).toBeVisible();
  await expect(page.getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);
  await page.getByRole("link", { name: "Go to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("a stored user whose session is gone is dropped instead of shown as logged in", async ({ page }) => {
  await page.goto("/return-policy");
  await page.evaluate(() =>
    window.localStorage.setItem(
      "user",
      JSON.stringify({
        id: "00000000-0000-4000-8000-000000000000",
        username: "ghost",
        email: "ghost@example.co.za",
        fullName: "Ghost Shopper",
        phone: "",
        address: "",
        city: "",
        zipCode: "",
        isAdmin: "true",
        createdAt: new Date().toISOString(),
      }),
    ),
  );
  await page.goto("/");
  // The server's page knows nobody; the app reads the stored user once it has taken over.
  await waitForHydration(page);
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("user"))).toBeNull();
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ghost Shopper" })).toHaveCount(0);
});

test("the profile says an unconfirmed address is not yet confirmed, and resends its link once a minute", async ({
  page,
}) => {
  const shopper = newShopper();
  await signedInByApi(page, shopper);
  await page.goto("/profile");
  await waitForHydration(page);
  await expect(page.getByText("Your e-mail address is not yet confirmed.")).toBeVisible();
  await page.getByRole("button", { name: "Resend the link" }).click();
  await expect(page.getByText(/^We sent a new link to /)).toBeVisible();
  await page.getByRole("button", { name: "Resend the link" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Please wait a minute" })).toBeVisible();
});

test("signing up with an address that already has an account looks exactly like a new sign-up", async ({ page }) => {
  const owner = newShopper();
  const registered = await page.request.post("/api/auth/register", { data: owner });
  expect(registered.status()).toBe(201);
  const stranger = newShopper();
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Login" }).click();
  const dialog = page.getByRole("dialog", { name: "Account Required" });
  await dialog.getByRole("tab", { name: "Sign Up" }).click();
  await dialog.getByLabel("Username").fill(stranger.username);
  await dialog.getByLabel("Full name").fill(stranger.fullName);
  await dialog.getByLabel("Email").fill(owner.email);
  await dialog.getByLabel("Password").fill(stranger.password);
  await dialog.getByRole("button", { name: "Create Account" }).click();
  await expect(toast(page, "Account created successfully! You can now log in.")).toBeVisible();
  await expect(dialog.getByRole("tab", { name: "Login" })).toHaveAttribute("aria-selected", "true");
});
