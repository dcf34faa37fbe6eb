import { readFileSync } from "node:fs";

/** The shop's version, from its package.json (three folders up from this file in src/ and in dist/ alike). */
function shopVersion(): string {
  try {
    const text = readFileSync(new URL("../../../package.json", import.meta.url), "utf8");
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}

const VERSION = shopVersion();

/**
 * What the shop calls itself to PayFast (the validate call and the API): the shop's name and
 * version and its address, so PayFast's support can tell whose requests they see ("node" before).
 */
export function payfastUserAgent(shopName: string, publicUrl: string): string {
  // "Snug & Dry" becomes "Snug-and-Dry": a product token holds no spaces.
  const product =
    shopName
      .replaceAll("&", " and ")
      .trim()
      .split(/\s+/)
      .join("-")
      .replace(/[^A-Za-z0-9!#$%'*+.^_`|~-]+/g, "") || "Shop";
  return `${product}/${VERSION} (+${publicUrl})`;
}
