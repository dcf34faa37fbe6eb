import { expect, test } from "@playwright/test";
import { fillDelivery, signUpAndLogIn, sizeMenu, waitForHydration } from "./helpers";

/**
 * Multi-buy tiers (issue 42): the seeded Premium Nappies Jumbo Pack gives 3% off from 2 packs and
 * 6% from 4, whatever their sizes. Figures worked out by hand from the seed's prices:
 * Size 3 R459.99 (136 nappies), Size 4 R479.99 (124).
 */
const JUMBO = "Snug & Dry Premium Nappies Jumbo Pack";

for (const width of [390, 1280]) {
  test(`a shopper buys two sizes of one product and sees the tier price and the next tier (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await signUpAndLogIn(page);
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.getByRole("button", { name: "Login", exact: true })).toHaveCount(0);

    // The card shows the tiers, and the best price per nappy only beside them.
    const card = page.getByRole("article", { name: JUMBO });
    await card.scrollIntoViewIfNeeded();
    await expect(card).toContainText("Multi-buy: 2+ packs: 3% off · 4+ packs: 6% off");
    // Size 3 at 6% off: R459.99 less R27.60 = R432.39, over 136: R3.18.
    await expect(card).toContainText("from R3.18 per nappy at 4+ packs");
    await page.screenshot({ path: `/tmp/h-tiers/multibuy-card-${width}.png` });

    for (const size of ["Size 3 (4-9kg)", "Size 4 (7-18kg)"]) {
      await (await sizeMenu(card)).selectOption(size);
      await card.getByRole("button", { name: "Add to Cart" }).click();
      await expect(card.getByRole("button", { name: "Added!" })).toBeDisabled();
      await expect(card.getByRole("button", { name: "Add to Cart" })).toBeEnabled({ timeout: 5000 });
    }

    // The cart: 2 packs reach 3% (R939.98 -> R28.20 off); 2 more reach 6%: R1,859.96 at 6% = R111.60.
    await page.getByRole("button", { name: "Cart, 2 items" }).click();
    const sheet = page.getByRole("dialog", { name: "Shopping Cart" });
    await expect(sheet).toContainText("Multi-buy 3% off (2 packs): you save R28.20");
    await expect(sheet).toContainText("Add 2 more packs to save R111.60 (6% off).");
    // Per nappy after the tier: Size 3 R446.19 / 136 = R3.28; Size 4 R465.59 / 124 = R3.75.
    await expect(sheet).toContainText("R3.28 per nappy with multi-buy");
    await expect(sheet).toContainText("R3.75 per nappy with multi-buy");
    await expect(sheet).toContainText("Multi-buy saving-R28.20");
    await expect(sheet).toContainText("TotalR911.78");
    await page.screenshot({ path: `/tmp/h-tiers/multibuy-cart-${width}.png` });

    await sheet.getByRole("button", { name: "Proceed to Checkout" }).click();
    await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
    const summary = page.getByRole("region", { name: "Order summary" });
    await expect(summary).toContainText("Multi-buy 3% off (2 packs): you save R28.20");
    await expect(summary).toContainText("Add 2 more packs to save R111.60 (6% off).");
    await expect(summary).toContainText("R3.28 per nappy with multi-buy");
    await expect(summary).toContainText("Multi-buy saving-R28.20");
    await expect(summary).toContainText("TotalR911.78");
    await summary.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/h-tiers/multibuy-checkout-${width}.png`, fullPage: true });

    // The server works the saving out again and takes the checkout's figures.
    await fillDelivery(page);
    await page.getByRole("button", { name: "Place Order - R911.78" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("911.78");
  });
}
