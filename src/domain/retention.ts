/**
 * How long the shop keeps an order's personal details (POPIA s14; docs/decisions/038):
 * `years` years after the end of the South African tax year the order falls in, plus the
 * LAST_RETURN_DUE_MONTHS until the last return for that year is due. The tax year runs from
 * 1 March to the last day of February (the 28th, or the 29th in a leap year), and dates are South
 * African ones (UTC+2 all year, no daylight saving).
 *
 * The defaults meet both laws: a company keeps its accounting records 7 years (Companies Act s24),
 * and the Tax Administration Act s29(3)(a) counts 5 years from the day the return for the period
 * was submitted. The last return that uses a tax year's records is the income tax return for that
 * year (a company's ITR14 is due 12 months after its financial year end; a sole trader's ITR12
 * earlier), so 5 years after its due date is at most `5 years + 12 months` after the year's end.
 * The VAT return of the year's last period is due within a month and ends sooner.
 */

/** Companies Act s24: seven years. */
export const DEFAULT_RETENTION_YEARS = 7;
/** Tax Administration Act s29(3)(a): five years from the return's submission; fewer is refused. */
export const MIN_RETENTION_YEARS = 5;
/** The income tax return for a tax year is due at most this many months after it ends (a company's ITR14). */
export const LAST_RETURN_DUE_MONTHS = 12;

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

/** Months kept after the end of the tax year: the years asked for and the months until the last return is due. */
export function retentionMonths(years: number): number {
  return years * 12 + LAST_RETURN_DUE_MONTHS;
}

/** 1 March of `year` plus `months`, 00:00 in South Africa (a 1st of a month plus months is never clipped). */
function monthsAfterTaxYearStart(year: number, months: number): Date {
  return new Date(Date.UTC(year, 2 + months, 1) - SA_OFFSET_MS);
}

/**
 * The first moment an order placed at `placedAt` may lose its personal details: the day after its
 * tax year ended (1 March, South African time), `years` years and LAST_RETURN_DUE_MONTHS later,
 * whatever February's length.
 */
export function retentionEndsAt(placedAt: Date, years: number): Date {
  return monthsAfterTaxYearStart(taxYearEndingYear(placedAt), retentionMonths(years));
}

/**
 * The job's question turned around: at `now`, every order placed before this moment is past its
 * retention (retentionEndsAt(order) <= now exactly when order < retentionCutoff(now)).
 */
export function retentionCutoff(now: Date, years: number): Date {
  // The latest tax year whose retention has ended is the one ending in February of the year of
  // `now` less the months kept, if that moment is in March or later, else the year before; every
  // order placed before the next tax year's start (1 March of that year) is due.
  const local = new Date(now.getTime() + SA_OFFSET_MS);
  const index = local.getUTCFullYear() * 12 + local.getUTCMonth() - retentionMonths(years);
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  return taxYearStart(month >= 2 ? year : year - 1);
}
