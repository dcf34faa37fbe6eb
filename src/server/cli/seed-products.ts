/**
 * npm run seed:products -- --products 5000
 *
 * Adds a large, realistic catalogue to the shop's database (DATABASE_URL, or the embedded
 * PostgreSQL in DATA_DIR, as `npm start`): the brands a South African nappy shop stocks (Pampers,
 * Huggies, Cuddlers, Molfix, TENA, Always, Lil-Lets, Kotex...), their lines in baby, pants, adult
 * and period sizes, packs from carry to monthly box and bundles of two or three, each size with its
 * price, its pack count and its stock, in the shop's own categories (src/server/seed/generated-catalog.ts).
 *
 * Idempotent: the generated catalogue is the same on every run and each of its products has a
 * fixed id, so the command makes sure its first N products are in the database and adds only the
 * ones missing (running it again adds nothing; a larger N adds the rest). Written in a few
 * multi-row INSERTs, so 5,000 products take a second or two.
 *
 * Photos are a step of their own (`seedProductPhotos`): a few base images stored once each through
 * the upload pipeline, shared by the products of their brand and pack shape.
 */
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";
import sharp from "sharp";
import { slugify, uniqueSlug } from "#domain/slug.js";
import { storePhoto } from "../media/photos.js";
import { type MediaStore, mediaStore } from "../media/store.js";
import { ConfigError, loadConfig, loadEnvFile } from "../platform/config.js";
import { DataDirInUseError } from "../platform/db/data-dir-lock.js";
import { NoClusterError } from "../platform/db/embedded.js";
import { openDatabase } from "../platform/db/open.js";
import { errWithoutValues } from "../platform/log-errors.js";
import { type GeneratedProduct, generatedProducts, MAX_GENERATED_PRODUCTS } from "../seed/generated-catalog.js";
import { seedCatalog } from "../seed/seed.js";
import { BASE_PHOTO_PATH, basePhotos, photoKey } from "../seed/seed-product-photos.js";
import { isEntryPoint } from "./entry-point.js";

export interface SeedProductsOptions {
  /** How many of the generated catalogue's products the database holds afterwards. */
  products: number;
}

/** Products per INSERT: a few MB of JSON each. */
const BATCH = 2_500;

/**
 * The photos of the generated catalogue, by photoKey (brand and pack shape): the URL each product
 * of that brand and shape shows.
 *
 * With a media store (the command's): each base photo is drawn at 1200 px and stored through the
 * upload pipeline (storePhoto), once per brand and shape, so the seeded products show stored
 * photos with their AVIF and WebP renditions, as uploaded ones do. Without one (tests of the data
 * alone): the base drawings shipped in the storefront's public folder (BASE_PHOTO_PATH).
 */
export async function seedProductPhotos(store?: MediaStore): Promise<Map<string, string>> {
  const photos = new Map<string, string>();
  for (const photo of basePhotos()) {
    if (!store) {
      photos.set(photoKey(photo), `${BASE_PHOTO_PATH}/${photo.file}`);
      continue;
    }
    const drawn = await sharp(photo.svg, { density: 300 }).resize({ width: 1200 }).png().toBuffer();
    photos.set(photoKey(photo), (await storePhoto(store, drawn)).url);
  }
  return photos;
}

/** A fixed version 4 UUID for the generated product at `index`, so a second run finds it. */
export function generatedProductId(index: number): string {
  const hex = createHash("md5").update(`seed-products:${index}`).digest("hex");
  const variant = "89ab"[Number.parseInt(hex.charAt(16), 16) % 4];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Makes sure the first `products` products of the generated catalogue are in the database, adding
 * the missing ones with their stock in one transaction. Answers how many were added and how many
 * were there already.
 */
export async function seedProducts(
  client: pg.ClientBase,
  { products }: SeedProductsOptions,
  photos?: Map<string, string>,
): Promise<{ added: number; present: number; sizes: number }> {
  if (!Number.isInteger(products) || products < 1 || products > MAX_GENERATED_PRODUCTS)
    throw new RangeError(`products must be a whole number from 1 to ${MAX_GENERATED_PRODUCTS}`);
  const photoUrls = photos ?? (await seedProductPhotos());
  const generated = generatedProducts(products);
  await client.query("begin");
  try {
    // One seeder at a time (the shop's own seed takes the same lock).
    await client.query("select pg_advisory_xact_lock(hashtext('shop:seed'))");
    const { rows: categoryRows } = await client.query<{ id: string; name: string }>(
      "select id, lower(name) as name from categories",
    );
    const categoryIds = new Map(categoryRows.map((row) => [row.name, row.id]));
    const missingCategories = [...new Set(generated.map((product) => product.category))].filter(
      (name) => !categoryIds.has(name),
    );
    if (missingCategories.length > 0)
      throw new ConfigError(
        `The shop has no categor${missingCategories.length === 1 ? "y" : "ies"} ${missingCategories.join(", ")}: ` +
          "the generated products go into the starter catalogue's categories (baby, kids, adult, pads, extras).",
      );

    const ids = generated.map((product) => generatedProductId(product.index));
    const { rows: presentRows } = await client.query<{ id: string }>(
      "select id from products where id = any($1::uuid[])",
      [ids],
    );
    const present = new Set(presentRows.map((row) => row.id));
    const { rows: slugRows } = await client.query<{ slug: string }>("select slug from products");
    const slugs = new Set(slugRows.map((row) => row.slug));

    const rows = generated.flatMap((product, i) => {
      const id = ids[i] as string;
      if (present.has(id)) return [];
      const slug = uniqueSlug(slugify(product.name), slugs);
      slugs.add(slug);
      return [toRow(product, id, slug, categoryIds, photoUrls)];
    });

    let sizes = 0;
    for (let start = 0; start < rows.length; start += BATCH) {
      const { rowCount } = await client.query(
        `with input as (
           select * from jsonb_to_recordset($1::jsonb) as x(
             id uuid, name text, category_id uuid, price_cents int, image text, description text, sizes jsonb,
             size_prices jsonb, size_pack_counts jsonb, pack_unit text, promo_text text, slug text, vat_class text,
             absorbency smallint, stock jsonb)
         ), inserted as (
           insert into products (id, name, category_id, price_cents, image, description, sizes, size_prices,
             size_pack_counts, pack_unit, promo_text, slug, vat_class, absorbency)
           select id, name, category_id, price_cents, image, description, sizes, size_prices, size_pack_counts,
             pack_unit, promo_text, slug, vat_class, absorbency
           from input
           returning id
         )
         insert into product_stock (product_id, size, quantity)
         select input.id, stock.key, stock.value::int
         from inserted join input using (id) cross join lateral jsonb_each_text(input.stock) as stock`,
        [JSON.stringify(rows.slice(start, start + BATCH))],
      );
      sizes += rowCount ?? 0;
    }
    await client.query("commit");
    await client.query("analyze products; analyze product_stock");
    return { added: rows.length, present: present.size, sizes };
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  }
}

function toRow(
  product: GeneratedProduct,
  id: string,
  slug: string,
  categoryIds: Map<string, string>,
  photoUrls: Map<string, string>,
) {
  const image = photoUrls.get(photoKey(product.photo));
  if (!image) throw new Error(`No photo for ${photoKey(product.photo)}`);
  return {
    id,
    name: product.name,
    category_id: categoryIds.get(product.category),
    price_cents: product.priceCents,
    image,
    description: product.description,
    sizes: product.sizes,
    size_prices: product.sizePrices,
    size_pack_counts: product.sizePackCounts,
    pack_unit: product.packUnit,
    promo_text: product.promoText,
    slug,
    vat_class: product.vatClass,
    absorbency: product.absorbency,
    stock: product.stock,
  };
}

const USAGE = `Usage: npm run seed:products -- --products <count>
  Makes sure the first <count> products (1 to ${MAX_GENERATED_PRODUCTS.toLocaleString("en-US")}, default 1,000) of a generated,
  realistic catalogue are in DATABASE_URL or the embedded PostgreSQL in DATA_DIR, with their sizes,
  prices, packs, stock and photos. Running it again adds nothing; a larger count adds the rest.`;

export function parseSeedProductsArgs(argv: string[]): SeedProductsOptions {
  let values: { products?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { products: { type: "string", default: "1000" }, help: { type: "boolean", short: "h" } },
      strict: true,
    }));
  } catch (error) {
    throw new ConfigError(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
  if (values.help) throw new ConfigError(USAGE);
  const text = values.products ?? "";
  const products = /^\d+$/.test(text.replace(/[_,]/g, "")) ? Number(text.replace(/[_,]/g, "")) : Number.NaN;
  if (!Number.isInteger(products) || products < 1 || products > MAX_GENERATED_PRODUCTS)
    throw new ConfigError(
      `--products must be a whole number from 1 to ${MAX_GENERATED_PRODUCTS.toLocaleString("en-US")} (got "${text}")\n\n${USAGE}`,
    );
  return { products };
}

async function main() {
  const options = parseSeedProductsArgs(process.argv.slice(2));
  loadEnvFile();
  const config = loadConfig();
  const database = await openDatabase(config, { seed: seedCatalog, log: (line) => console.error(`[db] ${line}`) });
  const started = performance.now();
  // Its own connection: the pool's statement timeout is for requests, not for a bulk load.
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  try {
    const photos = await seedProductPhotos(mediaStore(config.media));
    const result = await seedProducts(client, options, photos);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `The first ${options.products.toLocaleString("en-US")} generated products are in the database: ` +
        `${result.added.toLocaleString("en-US")} added now (${result.sizes.toLocaleString("en-US")} size${result.sizes === 1 ? "" : "s"} stocked), ` +
        `${result.present.toLocaleString("en-US")} were there already, in ${seconds} s.`,
    );
  } finally {
    await client.end();
    await database.close();
  }
}

if (isEntryPoint(import.meta.url)) {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof NoClusterError)
      console.error(error.message);
    else console.error("Could not seed the products:", error instanceof Error ? errWithoutValues(error) : error);
    process.exit(1);
  });
}
