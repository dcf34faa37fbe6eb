/**
 * Every date and time the shop writes, in South African time whatever the server's or the
 * browser's zone (Africa/Johannesburg, UTC+2 all year): the pages, the e-mails, the documents and
 * the admin read them here. Calendar days (YYYY-MM-DD) and their arithmetic are sa-calendar.ts's;
 * rand amounts are money.ts's (formatRand).
 */

export const SA_TIME_ZONE = "Africa/Johannesburg";

type DateLike = Date | string;
const toDate = (date: DateLike) => (typeof date === "string" ? new Date(date) : date);

/**
 * A format in South African time, made on its first use: making an Intl format loads the locale's
 * data, which on a cheap phone costs more than the rest of the storefront's start together.
 */
function saFormat(locale: string, options: Intl.DateTimeFormatOptions): (date: DateLike) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (date) => {
    format ??= new Intl.DateTimeFormat(locale, { ...options, timeZone: SA_TIME_ZONE });
    return format.format(toDate(date));
  };
}

/** "3 March 2025" */
export const formatDate = /* @__PURE__ */ saFormat("en-ZA", { day: "numeric", month: "long", year: "numeric" });
/** "Monday, 3 March 2025" */
export const formatDay = /* @__PURE__ */ saFormat("en-ZA", {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
});
/** "3 Mar 2025, 14:05" */
export const formatDateTime = /* @__PURE__ */ saFormat("en-ZA", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
/** "3 Mar, 14:05": for the admin's lists of recent orders. */
export const formatRecentDateTime = /* @__PURE__ */ saFormat("en-ZA", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
});
/** "26 Nov 2026": the day as the promo messages name it. */
export const formatShortDate = /* @__PURE__ */ saFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });
/** "25 November 2026": the day on the tax documents. */
export const formatDocumentDate = /* @__PURE__ */ saFormat("en-GB", { day: "numeric", month: "long", year: "numeric" });

let longDateTime: Intl.DateTimeFormat | undefined;
/** "25 November 2026, 14:05": the e-mails' moments (built from parts: ICU joins them in several ways); an unreadable instant is written as it came. */
export function formatLongDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  longDateTime ??= new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: SA_TIME_ZONE,
  });
  const parts = longDateTime.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? "";
  return `${part("day")} ${part("month")} ${part("year")}, ${part("hour")}:${part("minute")}`;
}

const monthFormat = /* @__PURE__ */ saFormat("en-CA", { year: "numeric", month: "2-digit" });
/** "2026-11": the South African month of an instant (the VAT report's periods). */
export const saMonth = (when: DateLike = new Date()) => monthFormat(when);
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

/** "2026-11-26" -> "26 November 2026": a calendar day, the same on the server and in every browser. */
export function formatCalendarDate(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  if (!year || !month || !date) return day;
  return `${date} ${MONTHS[month - 1]} ${year}`;
}
/** "2026-11" -> "November 2026". */
export function formatCalendarMonth(month: string): string {
  const [year, number] = month.split("-").map(Number);
  return `${MONTHS[(number ?? 1) - 1]} ${year}`;
}
