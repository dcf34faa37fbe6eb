import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { type APIRequestContext, expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import { type CatalogFilter, DEFAULT_FILTER, filterAndSortProducts } from "#domain/catalog.js";
import type { Product } from "#domain/schemas/catalog.js";
import { baseURL } from "../../playwright.config";
import { logInAdminOn, waitForHydration } from "./helpers";

/**
 * A shopper on a catalogue of a few hundred products (docs/decisions/026-pages-that-stay-small.md):
 * the page brings its first 48, the grid loads more as the shopper scrolls, and search, category
 * and sort come from the server. Its own project, run after every other spec (playwright.config.ts):
 * the storefront specs expect today's catalogue on one page.
 */

const ADDED = 300;
const tag = randomBytes(3).toString("hex");
let admin: APIRequestContext;
const created: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  admin = await playwrightRequest.newContext({ baseURL });
  await logInAdminOn(admin);
  const categories = ["baby", "pads", "adult", "kids", "extras"];
  const images: Record<string, string> = {
    baby: "/images/products/baby-swim-nappies.svg",
    pads: "/images/products/kids-pull-up-pants.svg",
    adult: "/images/products/kids-pull-up-pants.svg",
    kids: "/images/products/kids-pull-up-pants.svg",
    extras: "/images/products/baby-swim-nappies.svg",
  };
  const words = ["Comfort", "Night", "Value", "Eco", "Soft"];
  for (let start = 0; start < ADDED; start += 10) {
    await Promise.all(
      Array.from({ length: 10 }, async (_, offset) => {
        const n = start + offset;
        const category = categories[n % categories.length] ?? "baby";
        const answer = await admin.post("/api/admin/products", {
          data: {
            name: `${words[n % words.length]} Pack ${tag} ${String(n).padStart(3, "0")}`,
            category,
            price: `${50 + ((n * 37) % 400)}.99`,
            image: images[category],
            sizes: ["Regular"],
            stock: { Regular: 20 },
          },
        });
        expect(answer.status(), await answer.text()).toBe(201);
        created.push(((await answer.json()) as { id: string }).id);
      }),
    );
  }
});

test.afterAll(async () => {
  test.setTimeout(180_000);
  for (const id of created) await admin.delete(`/api/admin/products/${id}`);
  await admin.dispose();
});

const countLine = (page: Page) => page.getByText(/^(\d+ product\(s\) found|Loading\.\.\.)$/);
const grid = (page: Page) => page.getByRole("region", { name: "Our products" }).getByRole("heading", { level: 3 });

async function catalogue(page: Page): Promise<Product[]> {
  return (await (await page.request.get("/api/products")).json()) as Product[];
}
const expectedNames = (all: Product[], filter: Partial<CatalogFilter>) =>
  filterAndSortProducts(all, { ...DEFAULT_FILTER, ...filter }).map((product) => product.name);

/** Scrolls to the end of the grid until `count` cards show. */
async function scrollUntil(page: Page, count: number) {
  await expect(async () => {
    // The last card to the screen, as a shopper scrolling down brings it.
    await grid(page).last().scrollIntoViewIfNeeded();
    expect(await grid(page).count()).toBeGreaterThanOrEqual(count);
  }).toPass({ timeout: 20_000 });
}

/** Records every request for the whole catalogue (GET /api/products) and every hydration error. */
function watch(page: Page) {
  const whole: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/products") whole.push(request.url());
  });
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return { whole, errors };
}

test("a shopper scrolls a large catalogue: 48 at first, more as the grid's end comes near, none twice", async ({
  page,
}) => {
  const seen = watch(page);
  await page.goto("/");
  await waitForHydration(page);
  const all = await catalogue(page);
  expect(all.length).toBeGreaterThanOrEqual(ADDED);
  const expected = expectedNames(all, {});
  await expect(countLine(page)).toHaveText(`${all.length} product(s) found`);
  await expect(grid(page)).toHaveCount(48);
  await expect(page.getByText(`Showing 48 of ${all.length}`)).toBeVisible();

  await scrollUntil(page, 96);
  await scrollUntil(page, 144);
  const names = await grid(page).allTextContents();
  expect(names).toEqual(expected.slice(0, names.length));
  expect(new Set(names).size).toBe(names.length);
  // The count line still counts every match, not the cards loaded.
  await expect(countLine(page)).toHaveText(`${all.length} product(s) found`);
  expect(seen.whole).toEqual([]);
  expect(seen.errors.filter((text) => /418|hydrat/i.test(text))).toEqual([]);
});

test("search and a category with a sort come from the server, with their own count and pages", async ({ page }) => {
  const seen = watch(page);
  await page.goto("/");
  await waitForHydration(page);
  const all = await catalogue(page);

  // A search of this run's products: more than one page of them.
  const term = `pack ${tag}`;
  await page.getByLabel("Search products").fill(term.toUpperCase());
  const found = expectedNames(all, { search: term });
  expect(found).toHaveLength(ADDED);
  await expect(countLine(page)).toHaveText(`${ADDED} product(s) found`);
  // Retried: the grid can still show the moment before the search's first page (seen once in CI).
  await expect(grid(page)).toHaveText(found.slice(0, 48));
  await scrollUntil(page, 96);
  const loaded = await grid(page).allTextContents();
  expect(loaded).toEqual(found.slice(0, loaded.length));

  // A narrower search: one product.
  await page.getByLabel("Search products").fill(`Pack ${tag} 123`);
  await expect(countLine(page)).toHaveText("1 product(s) found");
  await expect(grid(page)).toHaveText([expectedNames(all, { search: `Pack ${tag} 123` })[0] ?? ""]);

  // A category, by price high to low: the server's order is the shop's order.
  await page.getByLabel("Search products").fill("");
  await page.getByRole("group", { name: "Category" }).getByRole("button", { name: "Pads" }).click();
  await page.getByLabel("Sort by").selectOption("price");
  await page.getByLabel("Order").selectOption("desc");
  const periodByPrice = expectedNames(all, { category: "pads", sortBy: "price", order: "desc" });
  await expect(countLine(page)).toHaveText(`${periodByPrice.length} product(s) found`);
  await expect(grid(page).first()).toHaveText(periodByPrice[0] ?? "");
  await scrollUntil(page, Math.min(periodByPrice.length, 60));
  const shown = await grid(page).allTextContents();
  expect(shown).toEqual(periodByPrice.slice(0, shown.length));
  expect(seen.whole).toEqual([]);
});

test("screenshots of a large catalogue at 390 and 1280 px", async ({ page }) => {
  // SCREENSHOT_DIR keeps them where a person will look; otherwise they go with the test's output.
  const dir = process.env.SCREENSHOT_DIR ?? test.info().outputPath("screenshots");
  mkdirSync(dir, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    await waitForHydration(page);
    await page.locator("#products").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${dir}/storefront-${width}-top.png` });
    await scrollUntil(page, 96);
    await page.getByText(/^Showing \d+ of \d+$/).scrollIntoViewIfNeeded();
    // Cards are painted as they come near the screen (content-visibility): a frame or two after the jump.
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${dir}/storefront-${width}-scrolled.png` });
    await page.getByLabel("Search products").fill("night");
    await expect(countLine(page)).toHaveText(/^\d+ product\(s\) found$/);
    await page.locator("#products").scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${dir}/storefront-${width}-search.png` });
  }
});
