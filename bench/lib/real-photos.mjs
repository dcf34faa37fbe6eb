#!/usr/bin/env node
// Gives a fresh shop's products photos, as an owner who uploads real ones has them (issue 29:
// "Lighthouse mobile 100 on / and a product page with real photos"). The starter catalogue ships
// SVG drawings, which no real shop shows and which Chromium draws on the main thread: 33 of them
// cost a phone about 360 ms of style and layout, so a Lighthouse run on the drawings measures the
// demo, not the shop.
//
// Each product's drawing (and each per-size drawing) is drawn at 1200 px, given a photograph's
// grain (so it compresses as a photo does, not as a flat drawing: about 10x the bytes) and stored
// as a JPEG through the upload pipeline (storePhoto: the AVIF and WebP renditions an upload gets).
// Runs against DATA_DIR's embedded database (or DATABASE_URL) before the shop starts, from the
// production build:
//
//   DATA_DIR=/tmp/shop node bench/lib/real-photos.mjs
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "../..");
const dist = (file) => path.join(root, "dist/server", file);
const { loadConfig } = await import(dist("platform/config.js"));
const { openDatabase } = await import(dist("platform/db/open.js"));
const { loadSharp, storePhoto } = await import(dist("media/photos.js"));
const { mediaStore } = await import(dist("media/store.js"));
const { seedCatalog } = await import(dist("seed/seed.js"));

const WIDTH = 1200;
const config = loadConfig();
const database = await openDatabase(config, { seed: seedCatalog, createCluster: true });
const client = new pg.Client({ connectionString: database.databaseUrl });
await client.connect();
const sharp = await loadSharp();
const store = mediaStore(config.media);

/** A grey grain, the same every run, laid over a drawing with "soft-light": a photo's noise. */
const grain = await sharp({
  create: {
    width: WIDTH,
    height: WIDTH,
    channels: 3,
    background: "#808080",
    noise: { type: "gaussian", mean: 128, sigma: 28 },
  },
})
  .png()
  .toBuffer();

const stored = new Map();
async function photoOf(url) {
  if (!url.startsWith("/images/") || !url.endsWith(".svg")) return url;
  if (stored.has(url)) return stored.get(url);
  const svg = readFileSync(path.join(root, "dist/web", url));
  const drawn = await sharp(svg, { density: 300 })
    .resize({ width: WIDTH, height: WIDTH, fit: "cover" })
    .png()
    .toBuffer();
  const photo = await sharp(drawn)
    .composite([{ input: grain, blend: "soft-light" }])
    .jpeg({ quality: 88 })
    .toBuffer();
  const { url: photoUrl } = await storePhoto(store, photo);
  stored.set(url, photoUrl);
  return photoUrl;
}

try {
  const { rows } = await client.query("select id, image, size_images from products order by id");
  for (const row of rows) {
    const sizeImages = {};
    for (const [size, image] of Object.entries(row.size_images ?? {})) sizeImages[size] = await photoOf(image);
    await client.query("update products set image = $2, size_images = $3 where id = $1", [
      row.id,
      await photoOf(row.image),
      JSON.stringify(sizeImages),
    ]);
  }
  console.log(`${rows.length} products given ${stored.size} photos (JPEG, ${WIDTH} px, with AVIF and WebP renditions)`);
} finally {
  await client.end();
  await database.close();
}
