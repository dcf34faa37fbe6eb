import { createHash } from "node:crypto";
import pLimit from "p-limit";
import { MAX_PHOTO_ASPECT, MAX_PHOTO_PIXELS, MAX_PHOTO_SIDE } from "#domain/limits.js";
import { MAX_PHOTO_WIDTH, type MediaPhoto, mediaPath, mediaPhoto, SHARE_WIDTH } from "#domain/media.js";
import { HttpError } from "../platform/errors.js";
import type { MediaStore } from "./store.js";

/**
 * sharp (libvips, about 28 MB resident) loads with the first photo, not at start: most instances
 * never take an upload, and the storefront's pages are served from the renditions on disk.
 */
let sharpModule: Promise<typeof import("sharp")> | null = null;
export async function loadSharp(): Promise<typeof import("sharp").default> {
  sharpModule ??= import("sharp");
  return (await sharpModule).default;
}

/** Bumped when the renditions change, so their content-hashed names change with them. */
const RENDITIONS_VERSION = "1";

const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp"]);
/** ISO-BMFF brands of HEIC/HEIF files (iPhones' default): HEVC inside, which the prebuilt libvips cannot decode. */
const HEIC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]);

export interface StoredPhoto extends MediaPhoto {
  /** The product's `image` URL: the 1200-wide JPEG, whose name says the photo's size. */
  url: string;
}

export const notAnImage = () =>
  new HttpError(415, "That file is not a photo the shop can read: upload a JPEG, PNG or WebP image.", "NOT_AN_IMAGE");

const heicRefused = () =>
  new HttpError(
    415,
    "HEIC photos (the iPhone's default) cannot be read yet: export the photo as JPEG (on an iPhone: Settings > Camera > Formats > Most Compatible, or share it by e-mail) and upload that.",
    "IMAGE_TYPE_UNSUPPORTED",
  );

function isHeic(input: Buffer): boolean {
  if (input.length < 16 || input.toString("latin1", 4, 8) !== "ftyp") return false;
  const boxSize = Math.min(input.readUInt32BE(0), input.length);
  for (let at = 8; at + 4 <= boxSize; at += 4) {
    if (at === 12) continue; // the minor version, not a brand
    if (HEIC_BRANDS.has(input.toString("latin1", at, at + 4))) return true;
  }
  return false;
}

// One photo at a time: decoding a 50 MP photo takes a few hundred MB, and the machine is shared.
const oneAtATime = pLimit(1);

/**
 * Stores a photo's renditions and answers its URL: checks that the bytes are a JPEG, PNG or WebP
 * image (whatever the file was called), turns it upright, drops its metadata (EXIF with the
 * phone's GPS position, XMP, ICC after conversion to sRGB), and writes AVIF and WebP at
 * renditionWidths and a 1200-wide JPEG for sharing. Other code (the seed command) calls it too.
 */
export function storePhoto(store: MediaStore, input: Buffer): Promise<StoredPhoto> {
  return oneAtATime(() => makeRenditions(store, input));
}

/**
 * Refuses, from the header's size alone (before a pixel is decoded), a photo too big or too thin:
 * more than MAX_PHOTO_SIDE on a side or MAX_PHOTO_PIXELS in all (413), or a strip (415).
 */
function assertPhotoShape(width: number, height: number): void {
  if (Math.max(width, height) > MAX_PHOTO_SIDE) {
    const side =
      height > width ? `${height.toLocaleString("en-ZA")} pixels tall` : `${width.toLocaleString("en-ZA")} pixels wide`;
    throw new HttpError(
      413,
      `That photo is ${side}: a photo may be at most ${MAX_PHOTO_SIDE.toLocaleString("en-ZA")} pixels on a side. Upload a smaller one.`,
      "PAYLOAD_TOO_LARGE",
    );
  }
  if (Math.max(width, height) > MAX_PHOTO_ASPECT * Math.min(width, height)) {
    throw new HttpError(
      415,
      `That photo is ${width} x ${height} pixels: one side may be at most ${MAX_PHOTO_ASPECT} times the other. Crop it and upload that.`,
      "IMAGE_SHAPE_UNSUPPORTED",
    );
  }
  if (width * height > MAX_PHOTO_PIXELS) {
    throw new HttpError(
      413,
      `That photo has more than ${MAX_PHOTO_PIXELS / 1_000_000} megapixels: upload a smaller one.`,
      "PAYLOAD_TOO_LARGE",
    );
  }
}

async function makeRenditions(store: MediaStore, input: Buffer): Promise<StoredPhoto> {
  if (isHeic(input)) throw heicRefused();
  const sharp = await loadSharp();
  const options = { failOn: "error", limitInputPixels: MAX_PHOTO_PIXELS } as const;
  const metadata = await sharp(input, options)
    .metadata()
    .catch(() => null);
  if (!metadata) throw notAnImage();
  if (metadata.format === "heif" && metadata.compression === "hevc") throw heicRefused();
  if (!ACCEPTED_FORMATS.has(metadata.format ?? "")) throw notAnImage();
  assertPhotoShape(metadata.width ?? 0, metadata.height ?? 0);

  // Raw pixels, upright and sRGB: nothing of the file's metadata can reach a rendition.
  const upright = await sharp(input, options)
    .rotate()
    .resize({ width: MAX_PHOTO_WIDTH, withoutEnlargement: true })
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw notAnImage();
    });
  const { width, height, channels } = upright.info;
  const pixels = () => sharp(upright.data, { raw: { width, height, channels } });
  const hash = createHash("sha256").update(RENDITIONS_VERSION).update(input).digest("hex").slice(0, 32);
  const photo = mediaPhoto(`/media/${hash}-${width}x${height}-${SHARE_WIDTH}.jpg`);
  if (!photo) throw notAnImage();
  const name = (path: string) => path.slice("/media/".length);

  for (const renditionWidth of photo.widths) {
    const resized = () => pixels().resize({ width: renditionWidth });
    const [avif, webp] = await Promise.all([
      resized().avif({ quality: 55, effort: 3 }).toBuffer(),
      resized().webp({ quality: 80 }).toBuffer(),
    ]);
    await store.put(name(mediaPath(photo.id, renditionWidth, "avif")), avif, "image/avif");
    await store.put(name(mediaPath(photo.id, renditionWidth, "webp")), webp, "image/webp");
  }
  // Open Graph and JSON-LD: a JPEG exactly SHARE_WIDTH wide, on white where the photo was transparent.
  const share = await pixels()
    .resize({ width: SHARE_WIDTH })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
  await store.put(name(mediaPath(photo.id, SHARE_WIDTH, "jpg")), share, "image/jpeg");
  return { ...photo, url: mediaPath(photo.id, SHARE_WIDTH, "jpg") };
}
