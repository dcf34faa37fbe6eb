import { categoryPath, categoryTitle, productPath } from "#domain/catalog.js";
import { mediaPath, mediaPhoto, SHARE_WIDTH } from "#domain/media.js";
import { parseRandToCents } from "#domain/money.js";
import { pricesDiffer, sizePrice } from "#domain/packs.js";
import type { PolicyVersion } from "#domain/policies.js";
import type { Category, Product } from "#domain/schemas/catalog.js";

/** What a rendered page says about itself in its <head> (docs/decisions/012-server-rendering.md). */
export interface PageHead {
  /** The whole <title>: "Overnight Pants | Snug & Dry". */
  title: string;
  description: string;
  /** The page's canonical path on PUBLIC_URL; none for a 404. */
  path: string | null;
  /** Open Graph type: "website", or "product" with its price. */
  type: "website" | "product";
  /** A raster image (JPEG or PNG) for link previews, with its size when known. */
  image?: { url: string; width?: number; height?: number };
  price?: { amount: string; currency: "ZAR" };
  /** Structured data, each object one <script type="application/ld+json">. */
  jsonLd?: readonly object[];
  /** 404s: kept out of search results. */
  noindex?: boolean;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for HTML text and double- or single-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] as string);
}

/**
 * JSON made safe inside a <script> element: `<`, `>` and `&` as \u escapes, so no value can close
 * the element or open a comment, and the line separators JavaScript once rejected.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A description of at most ~160 characters (what search results show), cut at a word. */
export function shortDescription(text: string, fallback: string): string {
  const clean = text.replace(/\s+/g, " ").trim() || fallback;
  if (clean.length <= 160) return clean;
  const cut = clean.slice(0, 157);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 100))}...`;
}

export const absoluteUrl = (publicUrl: string, path: string) => new URL(path, `${publicUrl}/`).toString();

/** The tags of `head` (title and description included), escaped. */
export function headTags(head: PageHead, publicUrl: string, shopName: string): string {
  const meta = (attribute: "name" | "property", key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;
  const url = head.path === null ? null : absoluteUrl(publicUrl, head.path);
  const image = head.image ? absoluteUrl(publicUrl, head.image.url) : null;
  const tags = [`<title>${escapeHtml(head.title)}</title>`, meta("name", "description", head.description)];
  if (head.noindex) tags.push(meta("name", "robots", "noindex"));
  if (url) tags.push(`<link rel="canonical" href="${escapeHtml(url)}" />`);
  tags.push(
    meta("property", "og:type", head.type),
    meta("property", "og:site_name", shopName),
    meta("property", "og:locale", "en_ZA"),
    meta("property", "og:title", head.title),
    meta("property", "og:description", head.description),
  );
  if (url) tags.push(meta("property", "og:url", url));
  if (image) tags.push(meta("property", "og:image", image), meta("property", "og:image:alt", head.title));
  if (image && head.image?.width && head.image.height) {
    tags.push(
      meta("property", "og:image:width", String(head.image.width)),
      meta("property", "og:image:height", String(head.image.height)),
    );
  }
  if (head.price) {
    tags.push(
      meta("property", "product:price:amount", head.price.amount),
      meta("property", "product:price:currency", head.price.currency),
    );
  }
  tags.push(
    meta("name", "twitter:card", image ? "summary_large_image" : "summary"),
    meta("name", "twitter:title", head.title),
    meta("name", "twitter:description", head.description),
  );
  if (image) tags.push(meta("name", "twitter:image", image));
  for (const data of head.jsonLd ?? []) tags.push(`<script type="application/ld+json">${jsonForScript(data)}</script>`);
  return tags.join("");
}

const availability = (outOfStock: boolean) =>
  outOfStock ? "https://schema.org/OutOfStock" : "https://schema.org/InStock";

/**
 * One Offer when every size costs the same; when sizes differ, an AggregateOffer from the lowest to
 * the highest with one Offer per size (docs/decisions/022-prices-per-size.md).
 */
function productOffers(product: Product, url: string) {
  const offer = {
    "@type": "Offer",
    price: product.price,
    priceCurrency: "ZAR",
    availability: availability(product.outOfStock),
    itemCondition: "https://schema.org/NewCondition",
    url,
  };
  if (!pricesDiffer(product)) return offer;
  const prices = product.sizes.map((size) => sizePrice(product, size));
  const cents = prices.map((price) => parseRandToCents(price) ?? 0);
  return {
    "@type": "AggregateOffer",
    lowPrice: product.price,
    highPrice: prices[cents.indexOf(Math.max(...cents))],
    offerCount: product.sizes.length,
    priceCurrency: "ZAR",
    availability: availability(product.outOfStock),
    offers: product.sizes.map((size, index) => ({
      ...offer,
      name: size,
      price: prices[index],
      availability: availability(product.outOfStock || Boolean(product.sizeOutOfStock[size])),
    })),
  };
}

/**
 * The picture link previews and search results get for an image URL: WhatsApp and Facebook show no
 * SVG (nor AVIF or WebP), so an uploaded photo gives its 1200-wide JPEG, one of the shop's own
 * drawings its JPEG made by /media/share/, and a typed URL itself unless it is an SVG elsewhere.
 */
export function shareImage(url: string): PageHead["image"] | undefined {
  const photo = mediaPhoto(url);
  if (photo) {
    return {
      url: mediaPath(photo.id, SHARE_WIDTH, "jpg"),
      width: SHARE_WIDTH,
      height: Math.round((photo.height * SHARE_WIDTH) / photo.width),
    };
  }
  const svg = /^\/([a-z0-9][a-z0-9/_-]*)\.svg$/i.exec(url);
  if (svg) return { url: `/media/share/${svg[1]}.jpg` };
  if (/\.svg(\?|#|$)/i.test(url)) return undefined;
  return { url };
}

/** The product page's head: Product with its Offer, and where it sits (BreadcrumbList). */
export function productHead(product: Product, publicUrl: string, shopName: string): PageHead {
  const path = productPath(product.slug);
  const url = absoluteUrl(publicUrl, path);
  const image = shareImage(product.image);
  const title = `${product.name} | ${shopName}`;
  const description = shortDescription(product.description, `${product.name}, delivered across South Africa.`);
  return {
    title,
    description,
    path,
    type: "product",
    ...(image ? { image } : {}),
    price: { amount: product.price, currency: "ZAR" },
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Product",
        name: product.name,
        ...(image ? { image: [absoluteUrl(publicUrl, image.url)] } : {}),
        description: product.description || description,
        sku: product.id,
        brand: { "@type": "Brand", name: shopName },
        category: categoryTitle(product.category),
        offers: productOffers(product, url),
      },
      {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        itemListElement: [
          { "@type": "ListItem", position: 1, name: "Home", item: absoluteUrl(publicUrl, "/") },
          {
            "@type": "ListItem",
            position: 2,
            name: categoryTitle(product.category),
            item: absoluteUrl(publicUrl, categoryPath(product.category)),
          },
          { "@type": "ListItem", position: 3, name: product.name, item: url },
        ],
      },
    ],
  };
}

/** The storefront's head: the shop's default title and description. */
export function storefrontHead(title: string, description: string, publicUrl: string, shopName: string): PageHead {
  return {
    title,
    description,
    path: "/",
    type: "website",
    jsonLd: [
      { "@context": "https://schema.org", "@type": "WebSite", name: shopName, url: absoluteUrl(publicUrl, "/") },
    ],
  };
}

export function categoryHead(category: Category, shopName: string): PageHead {
  const heading = categoryTitle(category.name);
  return {
    title: `${heading} | ${shopName}`,
    description: shortDescription(category.description, `${heading} from ${shopName}, delivered across South Africa.`),
    path: categoryPath(category.name),
    type: "website",
  };
}

/** A policy's page: the latest at its plain address, or one version at its own. */
export function policyHead(policy: PolicyVersion, path: string, shopName: string): PageHead {
  const latest = policy.versions[0]?.version === policy.version && !path.includes("/v/");
  return {
    title: latest ? `${policy.title} | ${shopName}` : `${policy.title} (version ${policy.version}) | ${shopName}`,
    description: `${shopName}'s ${policy.title}, in effect from ${policy.effectiveDate}.`,
    path,
    type: "website",
  };
}

export function legalHead(shopName: string): PageHead {
  return {
    title: `Legal | ${shopName}`,
    description: `Who ${shopName} is and how it trades: the details the Electronic Communications and Transactions Act asks every online shop to show.`,
    path: "/legal",
    type: "website",
  };
}

export function notFoundHead(shopName: string): PageHead {
  return {
    title: `404 Page Not Found | ${shopName}`,
    description: "Sorry, we couldn't find that page.",
    path: null,
    type: "website",
    noindex: true,
  };
}
