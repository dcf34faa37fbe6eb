import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { logInAdminOn, mailCaptureDir, newShopper, signUpAndLogIn, waitForHydration } from "./helpers";

// The e2e server has no SMTP_URL: the reset e-mail is captured. The admin's API lists it (its link
// redacted: no admin can read a reset link); the test reads the link where the shop wrote the
// captured message in full, MAIL_CAPTURE_DIR, as a developer would.

interface EmailSummary {
  id: number;
  kind: string;
  to: string;
  status: string;
}

/** The path and query of the newest reset link mailed to `to`, once the mail job has captured it. */
async function mailedResetPath(admin: APIRequestContext, to: string): Promise<string> {
  let path = "";
  await expect(async () => {
    const list = await admin.get("/api/admin/emails?limit=200");
    expect(list.status()).toBe(200);
    const { emails } = (await list.json()) as { emails: EmailSummary[] };
    const mail = emails.find((email) => email.kind === "password_reset" && email.to === to);
    expect(mail?.status).toBe("captured");
    const message = (await (await admin.get(`/api/admin/emails/${mail?.id}`)).json()) as { text: string };
    expect(message.text).not.toMatch(/reset-password\?token=/);
    const captured = await readFile(`${mailCaptureDir}/${mail?.id}.txt`, "utf8");
    const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(captured)?.[0];
    expect(link).toBeDefined();
    const url = new URL(link as string);
    path = `${url.pathname}${url.search}`;
  }).toPass({ timeout: 45_000 });
  return path;
}

const toast = (page: Page, text: string) => page.getByText(text, { exact: true });

test("a shopper who forgot the password sets a new one from the e-mailed link and logs in with it", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const shopper = newShopper();
  expect((await page.request.post("/api/auth/register", { data: shopper })).status()).toBe(201);

  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Login" }).click();
  const dialog = page.getByRole("dialog", { name: "Account Required" });
  await dialog.getByLabel("Username or email").fill(shopper.email);
  await dialog.getByRole("button", { name: "Forgot password?" }).click();
  await expect(dialog.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  // What was typed as the login name, being an address, is carried over.
  await expect(dialog.getByLabel("Email")).toHaveValue(shopper.email);
  await dialog.getByRole("button", { name: "Send reset link" }).click();
  await expect(dialog.getByRole("status")).toContainText(
    "If an account has this e-mail address, we have sent it a link to reset the password.",
  );
  await dialog.getByRole("button", { name: "Close" }).click();

  await logInAdminOn(request);
  const resetPath = await mailedResetPath(request, shopper.email);

  await page.goto(resetPath);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  // A leaked password is refused beside the field, and the link still works after.
  await page.getByRole("textbox", { name: "New password", exact: true }).fill("iloveyou");
  await page.getByLabel("Confirm new password").fill("iloveyou");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("This password is too common: it appears in lists of leaked passwords.")).toBeVisible();

  const newPassword = `warm and dry ${randomBytes(4).toString("hex")}`;
  await page.getByRole("textbox", { name: "New password", exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password").fill(`${newPassword}!`);
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("The two passwords are not the same")).toBeVisible();
  await page.getByLabel("Confirm new password").fill(newPassword);
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("Your password was changed. Log in with your new password.")).toBeVisible();

  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Username or email").fill(shopper.username);
  await dialog.getByLabel("Password").fill(newPassword);
  await dialog.getByRole("button", { name: "Login" }).click();
  await expect(toast(page, "Logged in successfully!")).toBeVisible();
  await expect(page.getByRole("link", { name: shopper.fullName })).toBeVisible();

  // The link was used up: opening it again says so and offers a new one.
  await page.goto(resetPath);
  await page.getByRole("textbox", { name: "New password", exact: true }).fill(`${newPassword} again`);
  await page.getByLabel("Confirm new password").fill(`${newPassword} again`);
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  await expect(page.getByText("This reset link has expired or was already used. Ask for a new one.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send reset link" })).toBeVisible();
});

test("a signed-in shopper changes the password in the profile, and needs it to change the e-mail", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const shopper = await signUpAndLogIn(page);
  await page.goto("/profile");

  await page.getByRole("button", { name: "Change password" }).click();
  const newPassword = `snug nights ${randomBytes(4).toString("hex")}`;
  await page.getByLabel("Current password").fill(`${shopper.password}-wrong`);
  await page.getByRole("textbox", { name: "New password", exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password").fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password not changed", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Current password").fill(shopper.password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(toast(page, "Password changed")).toBeVisible();
  const relogin = await page.request.post("/api/auth/login", {
    data: { username: shopper.username, password: newPassword },
  });
  expect(relogin.status()).toBe(200);

  // A different address asks for the password; the same one does not.
  await page.getByRole("button", { name: "Edit Profile" }).click();
  await expect(page.getByLabel("Current password")).toHaveCount(0);
  const newEmail = `moved.${randomBytes(4).toString("hex")}@example.co.za`;
  await page.getByLabel("Email").fill(newEmail);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Enter your current password to change your e-mail address.")).toBeVisible();
  await page.getByLabel("Current password").fill(newPassword);
  await page.getByRole("button", { name: "Save Changes" }).click();
  // The new address takes effect once the link mailed to it is followed.
  await expect(toast(page, "Check your new e-mail address")).toBeVisible();
  await expect(page.getByText(shopper.email)).toBeVisible();
  // The admin's API lists the message (its link redacted); the link is read where the shop captured it in full.
  await logInAdminOn(request);
  let confirmPath = "";
  await expect(async () => {
    const list = await request.get("/api/admin/emails?limit=200");
    const { emails } = (await list.json()) as { emails: EmailSummary[] };
    const mail = emails.find((email) => email.kind === "email_change" && email.to === newEmail);
    expect(mail?.status).toBe("captured");
    const captured = await readFile(`${mailCaptureDir}/${mail?.id}.txt`, "utf8");
    const link = /https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_-]+/.exec(captured)?.[0];
    expect(link).toBeDefined();
    const url = new URL(link as string);
    confirmPath = `${url.pathname}${url.search}`;
  }).toPass({ timeout: 45_000 });
  await page.goto(confirmPath);
  await page.getByRole("button", { name: "Confirm this address" }).click();
  await expect(page.getByText("Your e-mail address is changed.", { exact: false })).toBeVisible();
  await page.goto("/profile");
  await expect(page.getByText(newEmail)).toBeVisible();
});
