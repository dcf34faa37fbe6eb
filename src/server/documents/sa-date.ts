const SA_DATE = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Africa/Johannesburg",
  day: "numeric",
  month: "long",
  year: "numeric",
});

/** "25 November 2026": the day in South African time, whatever the server's zone. */
export function formatSaDate(when: Date): string {
  return SA_DATE.format(when);
}
