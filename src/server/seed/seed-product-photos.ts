// The few base photos of the generated catalogue (`npm run seed:products`): one drawing per brand
// and pack shape, in the brand's colour. They ship as files under
// src/web/public/images/products/brands/ (a test keeps the files equal to these drawings:
// UPDATE_SEED_PHOTOS=1 rewrites them), so today a seeded product's image is the file's path, as
// the starter catalogue's are. Each is also a Buffer, ready for the upload pipeline.

import { BRANDS, type BrandKey, basePhotoKinds, type PhotoShape } from "./generated-catalog.js";

/** Where the base photos are served from (the storefront's public folder). */
export const BASE_PHOTO_PATH = "/images/products/brands";

export interface BasePhoto {
  brand: BrandKey;
  shape: PhotoShape;
  /** The file's name under BASE_PHOTO_PATH. */
  file: string;
  svg: Buffer;
}

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/'/g, "&#39;");

/** `a` moved `t` of the way to `b` (hex colours). */
function mix(a: string, b: string, t: number) {
  const channels = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const [pa, pb] = [channels(a), channels(b)];
  return `#${pa
    .map((v, i) =>
      Math.round(v + ((pb[i] ?? v) - v) * t)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

const WORDS: Record<PhotoShape, string> = { bag: "NAPPIES & PANTS", box: "PADS & CARE", pouch: "WIPES", tub: "CREAM" };

/** The pack's outline, standing on y = 340, and the white label panel's box on it. */
const OUTLINES: Record<PhotoShape, { body: string; panel: [x: number, y: number, w: number, h: number] }> = {
  bag: { body: '<rect x="82" y="92" width="236" height="248" rx="24"/>', panel: [104, 130, 192, 150] },
  box: { body: '<rect x="96" y="110" width="208" height="230" rx="6"/>', panel: [116, 134, 168, 140] },
  pouch: { body: '<rect x="58" y="126" width="284" height="214" rx="40"/>', panel: [92, 168, 216, 120] },
  tub: {
    body: '<path d="M110 150h180l-14 190H124Z"/><rect x="100" y="122" width="200" height="34" rx="8"/>',
    panel: [130, 178, 140, 110],
  },
};

/** One base photo: the pack in the brand's colour, its name on a white panel, the kind beneath. */
export function basePhotoSvg(brand: BrandKey, shape: PhotoShape): string {
  const { name, colour, deep } = BRANDS[brand];
  const { body, panel } = OUTLINES[shape];
  const [x, y, w, h] = panel;
  const fontSize = Math.min(34, Math.floor((w - 20) / (name.length * 0.6)));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400" font-family="system-ui, sans-serif">` +
    `<rect width="400" height="400" fill="${mix(colour, "#ffffff", 0.85)}"/>` +
    `<ellipse cx="200" cy="342" rx="150" ry="14" fill="#000" opacity=".12"/>` +
    `<g fill="${colour}">${body}</g>` +
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="12" fill="#fff"/>` +
    `<text x="200" y="${y + h / 2 + fontSize * 0.35}" text-anchor="middle" font-size="${fontSize}" font-weight="800" fill="${deep}">${esc(name)}</text>` +
    `<text x="200" y="376" text-anchor="middle" font-size="13" font-weight="700" letter-spacing="2" fill="${deep}">${esc(WORDS[shape])}</text>` +
    "</svg>\n"
  );
}

const fileOf = (brand: BrandKey, shape: PhotoShape) =>
  `${BRANDS[brand].name
    .toLowerCase()
    .replace(/'/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}-${shape}.svg`;

/** Every base photo the generated catalogue uses. */
export function basePhotos(): BasePhoto[] {
  return basePhotoKinds().map(({ brand, shape }) => ({
    brand,
    shape,
    file: fileOf(brand, shape),
    svg: Buffer.from(basePhotoSvg(brand, shape)),
  }));
}

/** The key a product's photo is found under in the map `seedProductPhotos` answers. */
export const photoKey = (photo: { brand: BrandKey; shape: PhotoShape }) => `${photo.brand}/${photo.shape}`;
