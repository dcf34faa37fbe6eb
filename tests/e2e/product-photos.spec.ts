import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { logInAsNewAdmin, waitForHydration } from "./helpers";

const tag = randomBytes(3).toString("hex");
// Sorts after the seeded catalogue, so it never takes the first cards other specs look at.
const productName = `Zz Photo Pants ${tag}`;
const SHOTS = process.env.SCREENSHOT_DIR;

/**
 * A phone-like photo: a seeded drawing shot on a warm, grainy background, 2400 wide, with EXIF
 * naming the camera and where it was taken (the shop must strip both).
 */
async function phonePhoto(): Promise<Buffer> {
  const drawing = await readFile(path.resolve("src/web/public/images/products/adult-pants.svg"));
  const product = await sharp(drawing, { density: 400 }).resize({ width: 1500 }).png().toBuffer();
  const noise = Buffer.alloc(2400 * 1800 * 3);
  for (let at = 0; at < noise.length; at += 3) {
    const grain = Math.floor(Math.random() * 18);
    noise[at] = 214 + grain;
    noise[at + 1] = 196 + grain;
    noise[at + 2] = 170 + grain;
  }
  return sharp(noise, { raw: { width: 2400, height: 1800, channels: 3 } })
    .composite([{ input: product, top: 150, left: 450 }])
    .jpeg({ quality: 88 })
    .withExif({
      IFD0: { Make: "Phone Maker", Model: "Phone 15" },
      IFD3: {
        GPSLatitudeRef: "S",
        GPSLatitude: "33/1 55/1 30/1",
        GPSLongitudeRef: "E",
        GPSLongitude: "18/1 25/1 10/1",
      },
    })
    .toBuffer();
}

/** Screenshots at 390 and 1280 px wide, with `target` in the middle of the screen, when SCREENSHOT_DIR is set. */
async function shoot(page: Page, name: string, target?: Locator) {
  if (!SHOTS) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // Twice: cards render as they come near the screen (content-visibility), which moves the target.
    for (let pass = 0; pass < 2; pass++) {
      await target?.evaluate((element) => element.scrollIntoView({ block: "center" }));
      await page.waitForTimeout(800);
    }
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`) });
  }
}

test("an admin uploads a product photo and the storefront shows it as AVIF or WebP renditions", async ({ page }) => {
  test.setTimeout(120_000);
  await logInAsNewAdmin(page);
  await page.goto("/admin");
  await page.getByRole("tab", { name: "Products", exact: true }).click();
  await page.getByRole("button", { name: "Add Product" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Product" });
  await dialog.getByLabel("Name").fill(productName);
  await dialog.getByLabel("Category").selectOption("adult");
  await dialog.getByLabel("Price (R)", { exact: true }).fill("149.00");
  await dialog.getByLabel("Sizes", { exact: true }).fill("M");
  await dialog.getByLabel("Stock of M", { exact: true }).fill("12");

  // The file picker of "Upload product photo" (a drop on the same box sends the same request).
  const chooser = page.waitForEvent("filechooser");
  await dialog.getByRole("button", { name: "Upload product photo" }).click();
  await (await chooser).setFiles({ name: "IMG_2041.jpg", mimeType: "image/jpeg", buffer: await phonePhoto() });
  // Renditions take a second or two on a quiet machine; more on a busy shared one.
  await expect(dialog.getByText("Photo uploaded: save the product to show it.")).toBeVisible({ timeout: 60_000 });
  const image = dialog.getByLabel("Image URL", { exact: true });
  await expect(image).toHaveValue(/^\/media\/[0-9a-f]{32}-1600x1200-1200\.jpg$/);
  await shoot(page, "admin-photo-upload");

  // A file that is not a photo is refused with the server's words.
  const second = page.waitForEvent("filechooser");
  await dialog.getByRole("button", { name: "Upload product photo" }).click();
  await (await second).setFiles({
    name: "invoice.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from("%PDF-1.7 not a photo"),
  });
  await expect(dialog.getByRole("alert")).toHaveText(/not a photo the shop can read/);

  await dialog.getByRole("button", { name: "Create Product" }).click();
  await expect(dialog).toHaveCount(0);
  const url = await page.request.get("/api/products").then(async (response) => {
    const products = (await response.json()) as { name: string; slug: string; image: string }[];
    return products.find((product) => product.name === productName);
  });
  expect(url?.image).toMatch(/^\/media\//);

  // The storefront's card: a <picture> whose AVIF (or WebP) rendition the browser chose and drew.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/");
  await waitForHydration(page);
  const card = page.getByRole("article", { name: productName });
  await card.scrollIntoViewIfNeeded();
  const cardImage = card.getByRole("img", { name: productName });
  await expect(cardImage).toHaveAttribute("width", "400");
  await expect(cardImage).toHaveAttribute("loading", "lazy");
  await expect
    .poll(() => cardImage.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBeGreaterThan(0);
  expect(await cardImage.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\/media\/.+-\d+\.(avif|webp)$/);

  // Its own page: the picture is eager (the page's largest paint) and the link preview a JPEG.
  await page.goto(`/products/${url?.slug}`);
  await waitForHydration(page);
  const pageImage = page.getByRole("main").getByRole("img", { name: productName });
  await expect(pageImage).toHaveAttribute("loading", "eager");
  await expect
    .poll(() => pageImage.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBeGreaterThan(0);
  expect(await pageImage.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\.(avif|webp)$/);
  // Width and height set, in a square box: the photo arriving moves nothing. (The header's account
  // links do shift once for a signed-in visitor, as they render after hydration: not counted here.)
  const imageShifts = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        type Shift = PerformanceEntry & { value: number; sources: { node?: Node | null }[] };
        const movesAPicture = (node: Node | null | undefined) =>
          node instanceof Element && (node.matches("img, picture") || node.querySelector("img") !== null);
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Shift[]) {
            if (entry.sources.some((source) => movesAPicture(source.node))) total += entry.value;
          }
        }).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve(total), 500);
      }),
  );
  expect(imageShifts).toBe(0);
  const ogImage = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(ogImage).toMatch(/\/media\/[0-9a-f]{32}-1600x1200-1200\.jpg$/);
  const shared = await page.request.get(ogImage ?? "");
  expect(shared.headers()["content-type"]).toBe("image/jpeg");
  expect(shared.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  await shoot(page, "storefront-product-photo");
  if (SHOTS) {
    await page.goto("/");
    await waitForHydration(page);
    await shoot(page, "storefront-card-photo", page.getByRole("article", { name: productName }));
  }
});
