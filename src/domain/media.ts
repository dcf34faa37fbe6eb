/**
 * Uploaded photos (docs/images.md, docs/decisions/025-product-photos.md). A photo's URL names its
 * content and its size, so any page can build its <picture> from the product's `image` field alone:
 *
 *   /media/{hash}-{width}x{height}-1200.jpg   the product's `image`: a 1200-wide JPEG (Open Graph, old clients)
 *   /media/{hash}-{width}x{height}-{w}.avif   and .webp, for each w of renditionWidths(width)
 *
 * {width}x{height} is the largest rendition's size (the photo, at most MAX_PHOTO_WIDTH wide).
 */

/** AVIF and WebP renditions are made at these widths, up to the photo's own width. */
export const RENDITION_WIDTHS = [320, 640, 960, 1280, 1600] as const;
export const MAX_PHOTO_WIDTH = 1600;
/** The JPEG that Open Graph, JSON-LD and old clients get: WhatsApp and Facebook show no SVG, AVIF or WebP. */
export const SHARE_WIDTH = 1200;
export const UPLOAD_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;

export const MEDIA_NAME = /^([0-9a-f]{32})-(\d{1,5})x(\d{1,5})-(\d{1,5})\.(avif|webp|jpg)$/;

export interface MediaPhoto {
  /** "{hash}-{width}x{height}": every rendition's name starts with it. */
  id: string;
  width: number;
  height: number;
  /** The widths the AVIF and WebP renditions exist at, smallest first. */
  widths: number[];
}

/** The widths a photo `width` wide has renditions at: the standard ones it covers, or its own when smaller. */
export function renditionWidths(width: number): number[] {
  const widths = RENDITION_WIDTHS.filter((candidate) => candidate <= width);
  return widths.length > 0 ? widths : [width];
}

export const mediaPath = (id: string, width: number, format: "avif" | "webp" | "jpg") =>
  `/media/${id}-${width}.${format}`;

/** The photo behind an uploaded image's URL; null for any other URL (a typed one, the seeded drawings). */
export function mediaPhoto(url: string): MediaPhoto | null {
  const match = url.startsWith("/media/") ? MEDIA_NAME.exec(url.slice("/media/".length)) : null;
  if (!match) return null;
  const [, hash, width, height] = match;
  const photo = { width: Number(width), height: Number(height) };
  if (photo.width < 1 || photo.height < 1) return null;
  return { id: `${hash}-${width}x${height}`, ...photo, widths: renditionWidths(photo.width) };
}

/** A `srcset` of a photo's renditions in one format. */
export const mediaSrcSet = (photo: MediaPhoto, format: "avif" | "webp") =>
  photo.widths.map((width) => `${mediaPath(photo.id, width, format)} ${width}w`).join(", ");
