import { randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { categoryBadge, filterAndSortProducts } from "#domain/catalog.js";
import { formatRand, formatRandText, parseRandToCents } from "#domain/money.js";
import type { Category, Product } from "#domain/schemas/catalog.js";
import { clickFooterLink, sizeMenu, waitForHydration } from "./helpers";

// Its project runs alone, before any spec changes the catalogue (playwright.config.ts); its tests
// only read it and each has its own page, so the two workers share them.
test.describe.configure({ mode: "parallel" });

const OUT_OF_STOCK_PRODUCT = "Snug & Dry Organic Cotton Pads";
const defaultFilter = {
  search: "",
  category: null,
  sortBy: "name",
  order: "asc",
  weightGrams: null,
  size: null,
  absorbency: null,
} as const;

/**
 * Opens the storefront and returns the catalogue exactly as this page received it, so the
 * expectations hold even while other specs add or remove products on the shared server.
 */
/**
 * The storefront comes rendered by the server with the catalogue it shows in its page data (the
 * browser fetches nothing more): the products and categories are read from there.
 */
async function openStorefront(page: Page, path = "/") {
  await page.goto(path);
  await waitForHydration(page);
  const pageData = JSON.parse((await page.locator("#page-data").textContent()) ?? "{}") as {
    queries: { key: unknown[]; data: unknown }[];
  };
  const dataOf = (...key: string[]) =>
    pageData.queries.find((query) => key.every((part, index) => query.key[index] === part))?.data;
  // The first page of the storefront's search (48 products: today's catalogue whole).
  const search = dataOf("/api/products", "search") as { products: Product[]; nextCursor: string | null };
  expect(search.nextCursor).toBeNull();
  const products = search.products;
  const categories = dataOf("/api/categories") as Category[];
  await expect(countLine(page)).toHaveText(`${products.length} product(s) found`);
  return { products, categories };
}

const countLine = (page: Page) => page.getByText(/^(\d+ product\(s\) found|Loading\.\.\.)$/);
const productsRegion = (page: Page) => page.getByRole("region", { name: "Our products" });
/** The names on the cards, in order, once every card of the count line is on the page. */
async function cardNames(page: Page): Promise<string[]> {
  const count = Number((await countLine(page).textContent())?.match(/^\d+/)?.[0] ?? Number.NaN);
  const names = productsRegion(page).getByRole("heading", { level: 3 });
  await expect(names).toHaveCount(count);
  return names.allTextContents();
}
const card = (page: Page, name: string) => page.getByRole("article", { name, exact: true });
const categoryChips = (page: Page) => page.getByRole("group", { name: "Category" });

function byName(products: readonly Product[], name: string): Product {
  const product = products.find((candidate) => candidate.name === name);
  if (!product) throw new Error(`no product named ${name} in the catalogue`);
  return product;
}

/** A product that can be bought, with a per-size image and a size that is out of stock. */
function productWithSizeImagesAndAGap(products: readonly Product[]): Product {
  const product = products.find(
    (candidate) =>
      !candidate.outOfStock &&
      Object.keys(candidate.sizeImages).length > 0 &&
      candidate.sizes.some((size) => candidate.sizeOutOfStock[size]) &&
      candidate.sizes.some((size) => !candidate.sizeOutOfStock[size] && !candidate.sizeImages[size]),
  );
  if (!product) throw new Error("the seed data should hold a product with size images and an out-of-stock size");
  return product;
}

test("the storefront shows a skeleton grid of 8 cards and Loading... until the products arrive", async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/products/search?**", async (route) => {
    await held;
    await route.continue();
  });
  // `/` comes rendered with its products; the browser fetches them when it renders the storefront
  // itself, as after arriving on another page (docs/decisions/012-server-rendering.md).
  await page.goto("/return-policy");
  // The policy page is rendered on the server too: a click before the app starts loads `/` whole.
  await waitForHydration(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
  await expect(countLine(page)).toHaveText("Loading...");
  await expect(productsRegion(page).locator('ul[aria-hidden="true"] > li')).toHaveCount(8);
  release();
  await expect(countLine(page)).toHaveText(/^\d+ product\(s\) found$/);
  await expect(productsRegion(page).locator('ul[aria-hidden="true"]')).toHaveCount(0);
});

test("every product card shows its image, category badge, price in rand, promo text and size choice", async ({
  page,
}) => {
  const { products } = await openStorefront(page);
  expect(await cardNames(page)).toEqual(filterAndSortProducts(products, defaultFilter).map((product) => product.name));

  for (const product of products.slice(0, 12)) {
    const shown = card(page, product.name);
    await expect(shown.getByRole("img", { name: product.name })).toHaveAttribute("src", product.image);
    await expect(shown.getByText(categoryBadge(product.category), { exact: true })).toBeVisible();
    // Sizes priced differently: the lowest, as "from R…", until a size is chosen (issue 28).
    const sizePrices = new Set(Object.values(product.sizePrices ?? {}));
    const from = sizePrices.size > 1 ? "from " : "";
    await expect(shown.getByText(`${from}${formatRandText(product.price)}`, { exact: true })).toBeVisible();
    await expect(await sizeMenu(shown)).toHaveValue(product.sizes[0] ?? "");
    if (product.promoText?.trim()) await expect(shown.getByText(product.promoText.trim())).toBeVisible();
  }

  // Images reserve their space, decode off the main thread, and load lazily below the first row.
  const sorted = filterAndSortProducts(products, defaultFilter);
  const first = card(page, sorted[0]?.name ?? "").getByRole("img");
  await expect(first).toHaveAttribute("width", "400");
  await expect(first).toHaveAttribute("height", "400");
  await expect(first).toHaveAttribute("decoding", "async");
  await expect(first).toHaveAttribute("loading", "eager");
  await expect(card(page, sorted.at(-1)?.name ?? "").getByRole("img")).toHaveAttribute("loading", "lazy");
});

test("search matches the name or the category, whatever the case", async ({ page }) => {
  const { products } = await openStorefront(page);
  const search = page.getByLabel("Search products");

  for (const term of ["WIPES", "pads", "Kids", "night"]) {
    await search.fill(term);
    const expected = filterAndSortProducts(products, { ...defaultFilter, search: term }).map((product) => product.name);
    expect(expected.length).toBeGreaterThan(0);
    await expect(countLine(page)).toHaveText(`${expected.length} product(s) found`);
    expect(await cardNames(page)).toEqual(expected);
  }

  // "pads" is a category: products in it match even when "pads" is not in their name.
  await search.fill("PADS");
  const tampons = products.find((product) => product.category === "pads" && !/pads/i.test(product.name));
  if (tampons) await expect(card(page, tampons.name)).toBeVisible();
});

test("each category chip shows only that category, and All shows everything again", async ({ page }) => {
  const { categories } = await openStorefront(page);
  const chips = categoryChips(page);
  await expect(chips.getByRole("button", { name: "All", exact: true })).toHaveAttribute("aria-pressed", "true");
  // Other specs add and remove products while this one runs: each check compares the grid with the
  // catalogue as the server has it then, not as the page was first served.
  const liveProducts = async () => (await (await page.request.get("/api/products")).json()) as Product[];

  for (const category of categories) {
    const label = category.name.charAt(0).toUpperCase() + category.name.slice(1);
    const chip = chips.getByRole("button", { name: label, exact: true });
    await chip.click();
    await expect(chip).toHaveAttribute("aria-pressed", "true");
    await expect(async () => {
      const expected = (await liveProducts()).filter((product) => product.category === category.name);
      await expect(countLine(page)).toHaveText(`${expected.length} product(s) found`, { timeout: 1_000 });
      if (expected.length === 0) {
        await expect(page.getByText("No products found matching your criteria")).toBeVisible({ timeout: 1_000 });
        return;
      }
      expect(new Set(await cardNames(page))).toEqual(new Set(expected.map((product) => product.name)));
      await expect(
        productsRegion(page).getByRole("article").getByText(categoryBadge(category.name), { exact: true }),
      ).toHaveCount(expected.length, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
  }

  await chips.getByRole("button", { name: "All", exact: true }).click();
  await expect(async () => {
    const all = await liveProducts();
    await expect(countLine(page)).toHaveText(`${all.length} product(s) found`, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
});

test("products sort alphabetically or by price, low to high and high to low", async ({ page }) => {
  const { products } = await openStorefront(page);
  const sortBy = page.getByLabel("Sort by");
  const order = page.getByLabel("Order");
  await expect(sortBy).toHaveValue("name");
  await expect(order).toHaveValue("asc");

  const names = await cardNames(page);
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));

  await order.selectOption({ label: "High to Low" });
  await expect.poll(() => cardNames(page)).toEqual([...names].reverse());

  await sortBy.selectOption({ label: "Price" });
  await order.selectOption({ label: "Low to High" });
  const cents = (name: string) => parseRandToCents(byName(products, name).price) ?? 0;
  await expect
    .poll(async () => (await cardNames(page)).map(cents))
    .toEqual(products.map((product) => parseRandToCents(product.price) ?? 0).sort((a, b) => a - b));
  const cheapest = filterAndSortProducts(products, { ...defaultFilter, sortBy: "price" })[0];
  await expect(productsRegion(page).getByRole("article").first()).toHaveAccessibleName(cheapest?.name ?? "");

  await order.selectOption({ label: "High to Low" });
  await expect
    .poll(async () => (await cardNames(page)).map(cents))
    .toEqual(products.map((product) => parseRandToCents(product.price) ?? 0).sort((a, b) => b - a));
});

test("no match shows the empty state, and Clear Filters resets search, category, sort and order", async ({ page }) => {
  const { products } = await openStorefront(page);
  await categoryChips(page).getByRole("button", { name: "Baby", exact: true }).click();
  await page.getByLabel("Sort by").selectOption({ label: "Price" });
  await page.getByLabel("Order").selectOption({ label: "High to Low" });
  await page.getByLabel("Search products").fill("no such product anywhere");

  await expect(page.getByText("No products found matching your criteria")).toBeVisible();
  await expect(countLine(page)).toHaveText("0 product(s) found");

  await page.getByRole("button", { name: "Clear Filters" }).click();
  await expect(page.getByLabel("Search products")).toHaveValue("");
  await expect(categoryChips(page).getByRole("button", { name: "All", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(page.getByLabel("Sort by")).toHaveValue("name");
  await expect(page.getByLabel("Order")).toHaveValue("asc");
  await expect(countLine(page)).toHaveText(`${products.length} product(s) found`);
  await expect(page.getByText("No products found matching your criteria")).toHaveCount(0);
});

test("the detail dialog switches per-size images, lists out-of-stock sizes disabled, and totals the quantity", async ({
  page,
}) => {
  const { products } = await openStorefront(page);
  const product = productWithSizeImagesAndAGap(products);
  const [sizeWithImage, image] = Object.entries(product.sizeImages)[0] ?? [];
  const outOfStockSize = product.sizes.find((size) => product.sizeOutOfStock[size]) ?? "";
  const plainSize = product.sizes.find((size) => !product.sizeOutOfStock[size] && !product.sizeImages[size]) ?? "";
  const unitCents = parseRandToCents(product.price) ?? 0;

  const nameButton = card(page, product.name).getByRole("link", { name: product.name });
  await nameButton.click();
  const dialog = page.getByRole("dialog", { name: product.name });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(product.description)).toBeVisible();
  await expect(dialog.getByRole("img", { name: product.name })).toHaveAttribute("src", product.image);

  const size = dialog.getByLabel("Size");
  await expect(size).toHaveValue("");
  await expect(size.locator("option:checked")).toHaveText("Choose a size");
  await expect(dialog.getByRole("option", { name: `${outOfStockSize} - Out of Stock` })).toBeDisabled();
  await expect(dialog.getByText(`Out of Stock: ${outOfStockSize}`)).toBeVisible();

  await size.selectOption(sizeWithImage ?? "");
  await expect(dialog.getByRole("img", { name: `${product.name}, ${sizeWithImage}` })).toHaveAttribute(
    "src",
    image ?? "",
  );
  await expect(dialog.getByText(`Image updated for ${sizeWithImage} size`)).toBeVisible();

  await size.selectOption(plainSize);
  await expect(dialog.getByRole("img", { name: product.name })).toHaveAttribute("src", product.image);
  await expect(dialog.getByText(/Image updated for/)).toHaveCount(0);

  const quantity = dialog.getByRole("group", { name: "Quantity" });
  await expect(quantity.getByRole("status")).toHaveText("1");
  await expect(quantity.getByRole("button", { name: "Decrease quantity" })).toBeDisabled();
  await expect(dialog.getByText(formatRand(unitCents), { exact: true }).last()).toBeVisible();
  await quantity.getByRole("button", { name: "Increase quantity" }).click();
  await quantity.getByRole("button", { name: "Increase quantity" }).click();
  await expect(quantity.getByRole("status")).toHaveText("3");
  await expect(dialog.getByText(formatRand(unitCents * 3), { exact: true })).toBeVisible();
  await quantity.getByRole("button", { name: "Decrease quantity" }).click();
  await expect(quantity.getByRole("status")).toHaveText("2");
  await expect(dialog.getByText(formatRand(unitCents * 2), { exact: true })).toBeVisible();

  // Closing resets size and quantity, and focus returns to the card.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(nameButton).toBeFocused();
  await nameButton.click();
  await expect(dialog.getByLabel("Size")).toHaveValue("");
  await expect(dialog.getByRole("group", { name: "Quantity" }).getByRole("status")).toHaveText("1");

  // Adding without a size is refused with the spec's message.
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByText("Please select a size before adding to cart", { exact: true })).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  // Clicking the image opens it too.
  const cardImage = card(page, product.name).getByRole("img", { name: product.name });
  await cardImage.scrollIntoViewIfNeeded();
  const box = await cardImage.boundingBox();
  if (!box) throw new Error("the card image has no box");
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(dialog).toBeVisible();
});

test("an out-of-stock product reads Out of Stock and does not open the detail dialog", async ({ page }) => {
  const { products } = await openStorefront(page);
  const product = byName(products, OUT_OF_STOCK_PRODUCT);
  expect(product.outOfStock).toBe(true);

  const shown = card(page, product.name);
  await expect(shown.getByRole("button", { name: "Out of Stock" })).toBeDisabled();
  await expect(shown.getByRole("link", { name: product.name })).toHaveCount(0);

  const image = shown.getByRole("img", { name: product.name });
  await image.scrollIntoViewIfNeeded();
  const box = await image.boundingBox();
  if (!box) throw new Error("the card image has no box");
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await shown.getByText(product.name).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("a card whose chosen size is out of stock reads Size Unavailable", async ({ page }) => {
  const { products } = await openStorefront(page);
  const product = productWithSizeImagesAndAGap(products);
  const outOfStockSize = product.sizes.find((size) => product.sizeOutOfStock[size]) ?? "";
  const shown = card(page, product.name);
  await (await sizeMenu(shown)).selectOption(outOfStockSize);
  await expect(shown.getByRole("button", { name: "Size Unavailable" })).toBeDisabled();
  await (await sizeMenu(shown)).selectOption(product.sizes.find((size) => !product.sizeOutOfStock[size]) ?? "");
  await expect(shown.getByRole("button", { name: "Add to Cart" })).toBeEnabled();
});

test("a guest who adds to the cart is asked to log in", async ({ page }) => {
  const { products } = await openStorefront(page);
  const product = products.find(
    (candidate) => !candidate.outOfStock && !candidate.sizeOutOfStock[candidate.sizes[0] ?? ""],
  );
  await card(page, product?.name ?? "")
    .getByRole("button", { name: "Add to Cart" })
    .click();
  const login = page.getByRole("dialog", { name: "Account Required" });
  await expect(login).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(login).toBeHidden();
  await expect(page.getByRole("button", { name: "Cart, 0 items" })).toBeVisible();
});

test("a signed-in shopper adds from a card (Added! for 1.5 s) and from the detail dialog", async ({ page }) => {
  const tag = randomBytes(4).toString("hex");
  const shopper = {
    username: `lerato_${tag}`,
    fullName: `Lerato Dlamini ${tag}`,
    email: `lerato.${tag}@example.co.za`,
    password: `snug-and-dry-${tag}`,
  };
  expect((await page.request.post("/api/auth/register", { data: shopper })).status()).toBe(201);
  expect(
    (
      await page.request.post("/api/auth/login", { data: { username: shopper.username, password: shopper.password } })
    ).status(),
  ).toBe(200);

  const { products } = await openStorefront(page);
  await expect(page.getByRole("link", { name: shopper.fullName })).toBeVisible();
  const product = productWithSizeImagesAndAGap(products);
  const firstSize = product.sizes[0] ?? "";

  const button = card(page, product.name).getByRole("button", { name: "Add to Cart" });
  await button.click();
  const added = card(page, product.name).getByRole("button", { name: "Added!" });
  await expect(added).toBeDisabled();
  await expect(page.getByText("Added to cart", { exact: true })).toBeVisible();
  await expect(page.getByText(`${product.name} (${firstSize}) x1`, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cart, 1 item" })).toBeVisible();
  await expect(card(page, product.name).getByRole("button", { name: "Add to Cart" })).toBeEnabled({ timeout: 3000 });

  await card(page, product.name).getByRole("link", { name: product.name }).click();
  const dialog = page.getByRole("dialog", { name: product.name });
  const inStock = product.sizes.filter((size) => !product.sizeOutOfStock[size]);
  const size = inStock[1] ?? inStock[0] ?? "";
  await dialog.getByLabel("Size").selectOption(size);
  await dialog.getByRole("button", { name: "Increase quantity" }).click();
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${product.name} (${size}) x2`, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cart, 3 items" })).toBeVisible();
});

test("the header's Products and the hero's Shop Now scroll to the products; Learn More and Requests open dialogs", async ({
  page,
}) => {
  // Smooth scrolling would let a click land mid-animation: Chromium drops a scroll to the top while
  // the main thread still reads 0, so the earlier scroll finishes instead (seen once on CI). With
  // reduced motion the shop scrolls instantly, and each step starts from where the last one ended.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await openStorefront(page);
  const heading = page.getByRole("heading", { name: "Our products" });
  await expect(heading).not.toBeInViewport();
  await page.getByRole("button", { name: "Shop Now" }).click();
  await expect(heading).toBeInViewport();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
  await expect(heading).not.toBeInViewport();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Products" }).click();
  await expect(heading).toBeInViewport();

  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  const learnMore = page.getByRole("button", { name: "Learn More" });
  await learnMore.click();
  const about = page.getByRole("dialog", { name: "About Snug & Dry" });
  await expect(about).toBeVisible();
  await expect(about.getByText("Free delivery from R500")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(about).toBeHidden();
  await expect(learnMore).toBeFocused();

  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Requests" }).click();
  const requests = page.getByRole("dialog", { name: "Product Requests" });
  await expect(requests).toBeVisible();
  const email = JSON.parse((await page.locator("#shop-config").textContent()) ?? "{}").email as string;
  await expect(requests.getByRole("link", { name: `E-mail ${email}` })).toHaveAttribute(
    "href",
    new RegExp(`^mailto:${email.replace(/[.+]/g, "\\$&")}\\?subject=`),
  );
  await requests.getByRole("button", { name: "Close" }).click();
  await expect(requests).toBeHidden();
});

test("the footer shows the shop's details from its config and its category shortcuts filter the products", async ({
  page,
}) => {
  const { products } = await openStorefront(page);
  const shop = JSON.parse((await page.locator("#shop-config").textContent()) ?? "{}") as Record<string, string>;
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: shop.email })).toHaveAttribute("href", `mailto:${shop.email}`);
  await expect(footer.getByRole("link", { name: shop.phone })).toBeVisible();
  await expect(footer.getByText(shop.address ?? "")).toBeVisible();
  await expect(footer.getByText(`Store hours: ${shop.hours}`)).toBeVisible();
  await expect(footer.getByText("Privacy Policy")).toBeVisible();

  for (const [label, category] of [
    ["Sanitary", "pads"],
    ["Adult", "adult"],
    ["Baby", "baby"],
    ["Extras", "extras"],
  ] as const) {
    await footer.getByRole("button", { name: label, exact: true }).click();
    const chip = category.charAt(0).toUpperCase() + category.slice(1);
    await expect(categoryChips(page).getByRole("button", { name: chip, exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    const expected = products.filter((product) => product.category === category).length;
    await expect(countLine(page)).toHaveText(`${expected} product(s) found`);
    await expect(page.getByRole("heading", { name: "Our products" })).toBeInViewport();
  }

  // From another page, a shortcut comes back to the storefront with the category chosen.
  await footer.getByRole("link", { name: "Return Policy" }).click();
  await expect(page).toHaveURL(/\/return-policy$/);
  await footer.getByRole("button", { name: "Baby", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(categoryChips(page).getByRole("button", { name: "Baby", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(page.getByRole("heading", { name: "Our products" })).toBeInViewport();
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 768, height: 1024 },
  { width: 375, height: 812 },
]) {
  test(`at ${viewport.width}px, a card not yet drawn stands in at about its own height, so the page keeps its length as cards are drawn`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await openStorefront(page);
    // The last card is far below the first screen: the browser has skipped its content (content-visibility).
    const last = productsRegion(page).getByRole("article").last();
    const drawn = () =>
      last.evaluate((card) => card.firstElementChild?.checkVisibility({ contentVisibilityAuto: true }) ?? false);
    expect(await drawn()).toBe(false);
    const standIn = (await last.boundingBox())?.height ?? 0;
    await last.scrollIntoViewIfNeeded();
    await expect.poll(drawn).toBe(true);
    const real = (await last.boundingBox())?.height ?? 0;
    // Before, an 18rem stand-in under a 550px card moved the footer by a screen or more while a
    // shopper scrolled to it, and a click on one of its links could land beside it.
    expect(standIn / real).toBeGreaterThan(0.8);
    expect(standIn / real).toBeLessThan(1.25);
  });
}

test("the return policy and the terms show their content and dates, with Back to Store", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await clickFooterLink(page, "Return Policy", /\/return-policy$/);
  await expect(page.getByRole("heading", { level: 1, name: "Return Policy" })).toBeVisible();
  await expect(page.getByText("Effective date: 2 December 2026 (version 1)")).toBeVisible();
  await expect(page.getByText(/Within 6 months from the day you receive the goods/).first()).toBeVisible();
  await expect(page.getByText(/within 7 days from the day you receive\s+the goods, for any reason/)).toBeVisible();
  await expect(page).toHaveTitle(/Return Policy/);
  await page.getByRole("link", { name: "Back to Store" }).first().click();
  await expect(page).toHaveURL(/\/$/);

  await clickFooterLink(page, "Terms and Conditions", /\/terms$/);
  await expect(page.getByRole("heading", { level: 1, name: "Terms and Conditions" })).toBeVisible();
  await expect(page.getByText("Effective date: 2 December 2026 (version 1)")).toBeVisible();
  // The e2e shop is not VAT-registered: its terms say so instead of "VAT included" (CPA s41).
  await expect(
    page.getByText("We are not registered for VAT, so no VAT is charged on the goods or on delivery."),
  ).toBeVisible();
  await page.getByRole("link", { name: "Back to Store" }).last().click();
  await expect(page).toHaveURL(/\/$/);

  // Opened directly, each answers 200; the terms' old address leads to the new one.
  for (const path of ["/return-policy", "/terms", "/terms-and-conditions"]) {
    expect((await page.goto(path))?.status()).toBe(200);
  }
  await expect(page).toHaveURL(/\/terms$/);
});

test("an unknown path shows the 404 page with a way back to the store", async ({ page }) => {
  const response = await page.goto(`/no-such-page-${randomBytes(3).toString("hex")}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
  await expect(page.getByRole("banner")).toBeVisible();
  await page.getByRole("link", { name: "Back to Store" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Our products" })).toBeVisible();
});

test.describe("at 375px wide", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the mobile menu opens, leads to each place, and closes with Escape", async ({ page }) => {
    await openStorefront(page);
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("banner").getByRole("link", { name: "Home", exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Cart, \d+ items?$/ })).toBeVisible();

    await toggle.click();
    const menu = page.getByRole("navigation", { name: "Main" });
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
    for (const name of ["Home", "Products"]) await expect(menu.getByRole("link", { name })).toBeVisible();
    for (const name of ["About Us", "Requests", "Login"])
      await expect(menu.getByRole("button", { name })).toBeVisible();
    const box = await menu.getByRole("link", { name: "Products" }).boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);

    await menu.getByRole("link", { name: "Products" }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole("heading", { name: "Our products" })).toBeInViewport();

    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "About Us" }).click();
    await expect(page.getByRole("dialog", { name: "About Snug & Dry" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);

    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();

    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("dialog", { name: "Account Required" })).toBeVisible();
  });

  test("the page does not scroll sideways", async ({ page }) => {
    await openStorefront(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test("the storefront loads no admin, checkout or account code", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await openStorefront(page);
  await page.waitForLoadState("networkidle");
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((path) => /admin|checkout|profile|login-dialog|cart-sheet/.test(path))).toEqual([]);
});

test("toasts show one at a time, and F8 moves focus to the notifications", async ({ page }) => {
  const { products } = await openStorefront(page);
  const region = page.getByRole("region", { name: "Notifications (F8)" });
  const focusInRegion = () => region.evaluate((element) => element.contains(document.activeElement));

  // F8 works before any toast has been shown, too.
  await page.keyboard.press("F8");
  await expect.poll(focusInRegion).toBe(true);
  const product = productWithSizeImagesAndAGap(products);
  await card(page, product.name).getByRole("link", { name: product.name }).click();
  const dialog = page.getByRole("dialog", { name: product.name });
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByText("Please select a size before adding to cart", { exact: true })).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  // A second toast replaces the first.
  await card(page, product.name).getByRole("link", { name: product.name }).click();
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Can't add to cart", { exact: true })).toHaveCount(1);

  await page.keyboard.press("F8");
  await expect.poll(focusInRegion).toBe(true);
});
