/**
 * A day in South African time (UTC+2 all year, no daylight saving), written as a date input and
 * PayFast's API take it (YYYY-MM-DD). The browser's "today" for a date field and the server's
 * check of it use the same rule.
 */
export function southAfricanDay(when: Date = new Date()): string {
  return new Date(when.getTime() + 2 * 3_600_000).toISOString().slice(0, 10);
}
