/**
 * How long the shop keeps an order's delivery details (POPIA s14, Tax Administration Act s29):
 * `years` full tax years after the end of the South African tax year the order falls in. The tax
 * year runs from 1 March to the last day of February (the 28th, or the 29th in a leap year), and
 * dates are South African ones (UTC+2 all year, no daylight saving).
 */

export const DEFAULT_RETENTION_YEARS = 5;

const SA_OFFSET_MS = 2 * 3_600_000;

/** 1 March of `year`, 00:00 in South Africa, as an instant. */
function taxYearStart(year: number): Date {
  return new Date(Date.UTC(year, 2, 1) - SA_OFFSET_MS);
}

/** The calendar year whose February ends the tax year `moment` falls in. */
export function taxYearEndingYear(moment: Date): number {
  const local = new Date(moment.getTime() + SA_OFFSET_MS);
  return local.getUTCMonth() >= 2 ? local.getUTCFullYear() + 1 : local.getUTCFullYear();
}

/** The last day of the tax year `moment` falls in, as "YYYY-MM-DD" (28 or 29 February). */
export function taxYearEnd(moment: Date): string {
  const year = taxYearEndingYear(moment);
  const lastDay = new Date(Date.UTC(year, 2, 0)).getUTCDate();
  return `${year}-02-${lastDay}`;
}

/**
 * The first moment an order placed at `placedAt` may lose its delivery details: 1 March (South
 * African time) `years` years after the end of its tax year, i.e. the day after that tax year's
 * end plus `years`, whatever February's length.
 */
export function retentionEndsAt(placedAt: Date, years: number): Date {
  return taxYearStart(taxYearEndingYear(placedAt) + years);
}

/**
 * The job's question turned around: at `now`, every order placed before this moment is past its
 * retention (retentionEndsAt(order) <= now exactly when order < retentionCutoff(now)).
 */
export function retentionCutoff(now: Date, years: number): Date {
  // The tax year `now` is in started on 1 March of (its ending year - 1); orders whose tax year
  // ended `years` or more years before that start are due.
  return taxYearStart(taxYearEndingYear(now) - 1 - years);
}
