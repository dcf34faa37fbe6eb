import { expect, type Page, type Request, test } from "@playwright/test";
import { loadConfig } from "#server/platform/config.js";
import { securityHeaders } from "#server/platform/security-headers.js";
import { expectNoSeriousViolations } from "./axe";
import { checkOutOneProduct, signUpAndLogIn } from "./helpers";

/**
 * The ad conversion (docs/product.md §7): sent on /success once the order is paid, only when the
 * server has AD_CONVERSION_ID and the shopper said "Allow" to the ad-measurement notice. The e2e server runs without it, so the "with" case serves /success
 * as the server would with the id: the id in the page config and the CSP that config builds.
 * Google's script never loads for real: a stub stands in for it and nothing leaves this machine.
 */

const CONVERSION_ID = "AW-TEST";
const adsCsp = securityHeaders(loadConfig({ AD_CONVERSION_ID: CONVERSION_ID })).page["content-security-policy"] ?? "";

/** The /success (and /profile) document with the conversion id added to the injected page config. */
async function serveSuccessWithConversionId(page: Page) {
  await page.route(
    (url) => url.pathname === "/success" || url.pathname === "/profile",
    async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      const withId = html.replace(
        /(<script type="application\/json" id="shop-config">)(.*?)(<\/script>)/s,
        (_match, open: string, json: string, close: string) => {
          const config = { ...JSON.parse(json), adConversionId: CONVERSION_ID };
          return `${open}${JSON.stringify(config).replace(/</g, "\\u003c")}${close}`;
        },
      );
      expect(withId).toContain(CONVERSION_ID);
      await route.fulfill({
        response,
        body: withId,
        headers: { ...response.headers(), "content-security-policy": adsCsp },
      });
    },
  );
}

/** Stands in for gtag.js: marks that it ran (so the CSP let it load) and keeps what was queued. */
async function stubGoogleTag(page: Page) {
  const loaded: string[] = [];
  await page.route("https://www.googletagmanager.com/**", async (route) => {
    loaded.push(route.request().url());
    await route.fulfill({
      contentType: "text/javascript",
      body: "window.__gtagStub = (window.dataLayer || []).map(function (args) { return Array.from(args); });",
    });
  });
  return loaded;
}

async function payOnEmulator(page: Page) {
  await page.getByRole("button", { name: "Complete payment", exact: true }).click();
  await expect(page).toHaveURL(/\/success\?orderId=[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
}

/** Pays an order and loads /success again as a shop with the conversion id serves it. */
async function paidSuccessWithConversionId(page: Page) {
  const shopper = await signUpAndLogIn(page);
  await page.goto("/");
  // The session is restored after the page starts: Add to Cart before that asks the shopper to log in.
  await expect(page.getByRole("link", { name: shopper.fullName })).toBeVisible();
  const orderId = await checkOutOneProduct(page);
  await payOnEmulator(page);
  // The emulator's redirect lands on /success before a route could rewrite it: load it again as
  // a shop with the id would serve it (the conversion was not sent yet: there was no id).
  await serveSuccessWithConversionId(page);
  const loaded = await stubGoogleTag(page);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  return { orderId, loaded };
}

const notice = (page: Page) => page.getByRole("region", { name: "Ad measurement", exact: true });
const gtagStub = (page: Page) => page.evaluate(() => (window as { __gtagStub?: unknown[][] }).__gtagStub);

test("with a conversion id, nothing goes to the ad service until the shopper allows it, then the conversion does", async ({
  page,
}) => {
  const { orderId, loaded } = await paidSuccessWithConversionId(page);

  // The paid order is showing and the notice asks; nothing has left for the ad service.
  await expect(notice(page)).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(loaded).toEqual([]);
  expect(await page.evaluate(() => typeof (window as { gtag?: unknown }).gtag)).toBe("undefined");

  await expectNoSeriousViolations(page);
  // Both answers are plain buttons of the same kind, side by side.
  const allow = notice(page).getByRole("button", { name: "Allow" });
  const decline = notice(page).getByRole("button", { name: "No thanks" });
  expect(await allow.getAttribute("class")).toBe(await decline.getAttribute("class"));

  await allow.click();
  await expect(notice(page)).toBeHidden();
  await expect.poll(() => gtagStub(page)).toBeTruthy();
  expect(loaded).toEqual([`https://www.googletagmanager.com/gtag/js?id=${CONVERSION_ID}`]);
  const calls = (await gtagStub(page)) ?? [];
  expect(calls).toContainEqual(["config", CONVERSION_ID]);
  expect(calls).toContainEqual(["event", "conversion", { send_to: CONVERSION_ID, transaction_id: orderId }]);

  // Remembered: the next page does not ask again.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await expect(notice(page)).toBeHidden();

  // The profile's Privacy tab takes the answer back.
  await page.goto("/profile");
  await page.getByRole("tab", { name: "Privacy" }).click();
  await expect(page.getByText("You allowed it in this browser.")).toBeVisible();
  await page.getByRole("button", { name: "Stop ad measurement" }).click();
  await expect(page.getByText("Not allowed in this browser.")).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("ad_consent"))).toBe("denied");
  await expect(notice(page)).toBeHidden();
});

test("with a conversion id, No thanks sends nothing and is remembered", async ({ page }) => {
  const { loaded } = await paidSuccessWithConversionId(page);
  await notice(page).getByRole("button", { name: "No thanks" }).click();
  await expect(notice(page)).toBeHidden();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(notice(page)).toBeHidden();
  expect(loaded).toEqual([]);
  expect(await page.evaluate(() => typeof (window as { gtag?: unknown }).gtag)).toBe("undefined");
});

test("without a conversion id, /success loads nothing from any other host", async ({ page, baseURL }) => {
  const shopHost = new URL(baseURL ?? "http://localhost").host;
  const thirdParty: string[] = [];
  const note = (request: Request) => {
    const url = new URL(request.url());
    // Count from the arrival on /success: the way there passes the PayFast emulator's own host.
    if (request.isNavigationRequest() && url.pathname === "/success") thirdParty.length = 0;
    if ((url.protocol === "http:" || url.protocol === "https:") && url.host !== shopHost) thirdParty.push(url.href);
  };
  page.on("request", note);

  await signUpAndLogIn(page);
  await page.goto("/");
  await checkOutOneProduct(page);
  await payOnEmulator(page);
  // The conversion would be sent once the paid order shows: give a late script the chance to appear.
  await page.waitForLoadState("networkidle");

  expect(thirdParty).toEqual([]);
  expect(await page.evaluate(() => typeof (window as { gtag?: unknown }).gtag)).toBe("undefined");
  await expect(notice(page)).toHaveCount(0);
});
