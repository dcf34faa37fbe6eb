import { mediaPhoto, mediaSrcSet } from "#domain/media.js";

interface ProductImageProps {
  /** The product's `image` (or a size's): an uploaded photo's URL, or any other image URL. */
  src: string;
  alt: string;
  /** The box's size in CSS pixels, set on the <img> so nothing moves when the picture arrives. */
  width: number;
  height: number;
  /** The `sizes` of the photo's srcset: how wide the box is drawn at each layout. */
  sizes: string;
  /** Above the fold (the first cards, the product page): fetched at once and first. */
  eager?: boolean;
  className?: string;
}

/**
 * A product's picture. An uploaded photo is a <picture> of its AVIF and WebP renditions with
 * `sizes`, so a phone fetches a 320 or 640 wide file; any other URL (the seeded drawings, a URL
 * typed by hand) is a plain <img>. Both have width and height, and lazy loading below the fold.
 */
export function ProductImage({ src, alt, width, height, sizes, eager = false, className }: ProductImageProps) {
  const photo = mediaPhoto(src);
  const img = (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? "eager" : "lazy"}
      fetchPriority={eager ? "high" : "auto"}
      decoding="async"
      className={className}
    />
  );
  if (!photo) return img;
  return (
    <picture className="contents">
      <source type="image/avif" srcSet={mediaSrcSet(photo, "avif")} sizes={sizes} />
      <source type="image/webp" srcSet={mediaSrcSet(photo, "webp")} sizes={sizes} />
      {img}
    </picture>
  );
}
