import { expect, test } from "@playwright/test";
import { generate } from "otplib";
import { checkOutOneProduct, logInAsNewAdmin, orderNumberOf, signUpAndLogIn, waitForHydration } from "./helpers";

/** The code of the 30-second step `steps` from now: the shop takes one step of drift, each step once. */
const codeAt = (secret: string, steps: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

test("an admin sets up two-step sign-in, logs in with a code, and confirms a refund and the customer export with a fresh one", async ({
  page,
  browser,
}) => {
  test.setTimeout(210_000);
  // A paid order to refund.
  await signUpAndLogIn(page);
  await page.goto("/");
  const orderId = await checkOutOneProduct(page);
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

  const context = await browser.newContext();
  const admin = await context.newPage();
  const account = await logInAsNewAdmin(admin);

  // Enrol from the profile: the QR code, and its key as text, which the test's authenticator reads.
  await admin.goto("/profile");
  await waitForHydration(admin);
  const card = admin.getByRole("region", { name: "Two-step sign-in" });
  await card.getByRole("button", { name: "Set up two-step sign-in" }).click();
  await expect(card.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = ((await card.getByTestId("totp-secret").textContent()) ?? "").trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await card.getByRole("textbox", { name: "6-digit code" }).fill(await codeAt(secret, 0));
  await card.getByRole("button", { name: "Turn on two-step sign-in" }).click();
  await expect(card.getByText("Two-step sign-in is on.")).toBeVisible();
  await expect(card.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await card.getByRole("button", { name: "I have saved them" }).click();
  await expect(card).toContainText("10 of 10 recovery codes left");

  // Log out, and in again: the password, then the code. The header shows Login once the session
  // has ended (going to / before that could cancel the sign-out's request and keep the session).
  await admin.getByRole("button", { name: "Log out" }).click();
  await expect(admin.getByRole("button", { name: "Login" })).toBeVisible();
  await admin.goto("/");
  await waitForHydration(admin);
  await admin.getByRole("button", { name: "Login" }).click();
  const login = admin.getByRole("dialog");
  await login.getByLabel("Username or email").fill(account.username);
  await login.getByLabel("Password").fill(account.password);
  await login.getByRole("button", { name: "Login", exact: true }).click();
  const codeField = login.getByRole("textbox", { name: "Authentication code" });
  await expect(codeField).toBeVisible();
  const loginStep = Math.floor(Date.now() / 30_000);
  await codeField.fill(await codeAt(secret, 1));
  await login.getByRole("button", { name: "Login", exact: true }).click();
  await expect(admin.getByText("Logged in successfully!", { exact: true })).toBeVisible();

  // The login's code goes stale (6 s in this run); a refund then asks for a fresh one.
  await admin.goto("/admin");
  await admin.getByRole("tab", { name: "Orders", exact: true }).click();
  const order = admin.getByRole("article", { name: `Order #${orderNumberOf(orderId)}` });
  await expect(order).toContainText("Paid - Ready to Ship");
  await admin.waitForTimeout(7_000);
  await order.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = admin.getByRole("dialog", { name: `Refund order #${orderNumberOf(orderId)}` });
  await dialog.getByRole("radio", { name: "An amount spread over the whole order (goodwill)" }).check();
  await dialog.getByRole("textbox", { name: "Amount (R)" }).fill("10.00");
  await dialog.getByRole("textbox", { name: "Reason" }).fill("A pack arrived open");
  await dialog.getByRole("button", { name: "Refund through PayFast" }).click();

  const stepUp = admin.getByRole("dialog", { name: "Confirm it is you" });
  await expect(stepUp).toBeVisible();
  await stepUp.getByRole("textbox", { name: "Authentication code" }).fill("000000");
  await stepUp.getByRole("button", { name: "Confirm" }).click();
  await expect(stepUp.getByText(/That code is not right/)).toBeVisible();
  // Each step's code is taken once: the login used the step after loginStep, so wait until that
  // step has begun and give the one after it (one step of drift is allowed).
  await expect
    .poll(async () => Math.floor(Date.now() / 30_000), { timeout: 40_000, intervals: [1_000] })
    .toBeGreaterThan(loginStep);
  const refundStep = Math.floor(Date.now() / 30_000) + 1;
  await stepUp.getByRole("textbox", { name: "Authentication code" }).fill(await codeAt(secret, 1));
  await stepUp.getByRole("button", { name: "Confirm" }).click();
  await expect(admin.getByText("Refund made", { exact: true })).toBeVisible();
  await expect(order.getByRole("list", { name: "Refunds" })).toContainText("R10.00");

  // The orders CSV (every customer's details) is a plain link: once the code is stale it asks first,
  // then downloads. The refund took the step after refundStep - 1, so give one after it.
  await expect
    .poll(async () => Math.floor(Date.now() / 30_000), { timeout: 40_000, intervals: [1_000] })
    .toBeGreaterThanOrEqual(refundStep);
  await admin.waitForTimeout(7_000);
  await admin.getByRole("link", { name: "Export CSV" }).click();
  const exportStepUp = admin.getByRole("dialog", { name: "Confirm it is you" });
  await expect(exportStepUp).toBeVisible();
  const download = admin.waitForEvent("download");
  await exportStepUp.getByRole("textbox", { name: "Authentication code" }).fill(await codeAt(secret, 1));
  await exportStepUp.getByRole("button", { name: "Confirm" }).click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  await context.close();
});
