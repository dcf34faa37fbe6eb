export { categoryBadge } from "#domain/catalog.js";

/** How a category's name reads on a filter chip: "pads" -> "Pads" (the badge's words are categoryBadge's). */
export function categoryLabel(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
export { formatRand, formatRandText } from "#domain/money.js";
export { orderNumber } from "#domain/order-number.js";

// Dates and times: #domain/sa-format.js, imported where used (kept out of the first load).
export function isValidDate(iso: string): boolean {
  return !Number.isNaN(Date.parse(iso));
}
