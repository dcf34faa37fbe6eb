export { categoryBadge } from "../../domain/catalog";

/** How a category's name reads on a filter chip: "pads" -> "Pads" (the badge's words are categoryBadge's). */
export function categoryLabel(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
export { formatRand, formatRandText } from "../../domain/money";
export { orderNumber } from "../../domain/order-status";

// Every date the shop shows, in South African English.
const dateFormat = new Intl.DateTimeFormat("en-ZA", { day: "numeric", month: "long", year: "numeric" });
const dayFormat = new Intl.DateTimeFormat("en-ZA", { weekday: "long", day: "numeric", month: "long", year: "numeric" });
const dateTimeFormat = new Intl.DateTimeFormat("en-ZA", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
const recentDateTimeFormat = new Intl.DateTimeFormat("en-ZA", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
});

type DateLike = Date | string;
const toDate = (date: DateLike) => (typeof date === "string" ? new Date(date) : date);

/** "3 March 2025" */
export const formatDate = (date: DateLike) => dateFormat.format(toDate(date));
/** "Monday, 3 March 2025" */
export const formatDay = (date: DateLike) => dayFormat.format(toDate(date));
/** "3 Mar 2025, 14:05" */
export const formatDateTime = (date: DateLike) => dateTimeFormat.format(toDate(date));
/** "3 Mar, 14:05": for the admin's lists of recent orders. */
export const formatRecentDateTime = (date: DateLike) => recentDateTimeFormat.format(toDate(date));

export function isValidDate(iso: string): boolean {
  return !Number.isNaN(Date.parse(iso));
}
