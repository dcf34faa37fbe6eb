export { categoryBadge } from "#domain/catalog.js";

/** How a category's name reads on a filter chip: "pads" -> "Pads" (the badge's words are categoryBadge's). */
export function categoryLabel(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
export { formatRand, formatRandText } from "#domain/money.js";
export { orderNumber } from "#domain/order-number.js";

type DateLike = Date | string;
const toDate = (date: DateLike) => (typeof date === "string" ? new Date(date) : date);

/**
 * A date format in South African English, made on its first use: making an Intl format loads the
 * locale's data, which on a cheap phone costs more than the rest of the storefront's start together.
 */
function dateFormatter(options: Intl.DateTimeFormatOptions): (date: DateLike) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (date) => {
    format ??= new Intl.DateTimeFormat("en-ZA", options);
    return format.format(toDate(date));
  };
}

/** "3 March 2025" */
export const formatDate = dateFormatter({ day: "numeric", month: "long", year: "numeric" });
/** "Monday, 3 March 2025" */
export const formatDay = dateFormatter({ weekday: "long", day: "numeric", month: "long", year: "numeric" });
/** "3 Mar 2025, 14:05" */
export const formatDateTime = dateFormatter({
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
/** "3 Mar, 14:05": for the admin's lists of recent orders. */
export const formatRecentDateTime = dateFormatter({
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
});

export function isValidDate(iso: string): boolean {
  return !Number.isNaN(Date.parse(iso));
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2026-11-26" -> "26 November 2026": a calendar date, the same on the server and in every browser's time zone. */
export function formatCalendarDate(date: string): string {
  const [year, month, day] = date.split("-").map(Number);
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}
