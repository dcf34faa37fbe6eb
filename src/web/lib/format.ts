export { categoryBadge } from "#domain/catalog.js";

/** How a category's name reads on a filter chip: "pads" -> "Pads" (the badge's words are categoryBadge's). */
export function categoryLabel(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
export { formatRand, formatRandText } from "#domain/money.js";
export { orderNumber } from "#domain/order-number.js";

// Every date and time in South African time, whatever the browser's zone (one home: domain/sa-format.ts).
export {
  formatCalendarDate,
  formatDate,
  formatDateTime,
  formatDay,
  formatRecentDateTime,
} from "#domain/sa-format.js";

export function isValidDate(iso: string): boolean {
  return !Number.isNaN(Date.parse(iso));
}
