/**
 * South African calendar days ("YYYY-MM-DD", Africa/Johannesburg, UTC+2 all year), its public
 * holidays and business days: the one home of these rules, read by the returns' windows
 * (returns.ts) and the delivery dates (delivery.ts).
 */

const DAY_MS = 86_400_000;
const SA_OFFSET_MS = 2 * 3_600_000; // South Africa keeps UTC+2 all year

/**
 * The South African calendar day of an instant (now by default), written as a date input and
 * PayFast's API take it (YYYY-MM-DD): the browser's "today" for a date field and the server's check
 * of it use the same rule.
 */
export function saDay(instant: Date = new Date()): string {
  return new Date(instant.getTime() + SA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The last moment of a South African day (23:59:59.999 SA time). */
export function endOfSaDay(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS - SA_OFFSET_MS - 1);
}

function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}
function fromDayNumber(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return fromDayNumber(dayNumber(day) + days);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The same day `months` later; past the end of a shorter month, that month's last day (31 Aug + 6 months = 28/29 Feb). */
export function addMonths(day: string, months: number): string {
  const [year = 0, month = 1, date = 1] = day.split("-").map(Number);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index % 12;
  const lastDate = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  return new Date(Date.UTC(targetYear, targetMonth, Math.min(date, lastDate))).toISOString().slice(0, 10);
}

/** Easter Sunday (the anonymous Gregorian algorithm). */
function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const date = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, "0")}-${String(date).padStart(2, "0")}`;
}

/** The fixed public holidays of the Public Holidays Act 36 of 1994 (month-day). */
const FIXED_HOLIDAYS = ["01-01", "03-21", "04-27", "05-01", "06-16", "08-09", "09-24", "12-16", "12-25", "12-26"];

const holidayCache = new Map<number, Set<string>>();

/**
 * South Africa's public holidays in a year: the fixed ten, Good Friday and Family Day (the Monday
 * after Easter), and the Monday after any holiday that falls on a Sunday (the Act's s2(1)).
 * One-off days the President declares are not known here.
 */
export function saPublicHolidays(year: number): Set<string> {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  const easter = easterSunday(year);
  const days = [...FIXED_HOLIDAYS.map((md) => `${year}-${md}`), addDays(easter, -2), addDays(easter, 1)];
  const holidays = new Set(days);
  for (const day of days) {
    if (weekday(day) === 0) holidays.add(addDays(day, 1));
  }
  holidayCache.set(year, holidays);
  return holidays;
}

/** 0 Sunday ... 6 Saturday. */
export function weekday(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}

/** Monday to Friday, and not a South African public holiday. */
export function isBusinessDay(day: string): boolean {
  const dow = weekday(day);
  if (dow === 0 || dow === 6) return false;
  return !saPublicHolidays(Number(day.slice(0, 4))).has(day);
}

/** The `count`th business day after `day` (the day itself does not count). */
export function addBusinessDays(day: string, count: number): string {
  let current = day;
  for (let left = count; left > 0; ) {
    current = addDays(current, 1);
    if (isBusinessDay(current)) left -= 1;
  }
  return current;
}

/** Business days after `from` up to and including `to` (0 when `to` is not later). */
export function businessDaysBetween(from: string, to: string): number {
  let count = 0;
  for (let current = addDays(from, 1); daysBetween(current, to) >= 0; current = addDays(current, 1)) {
    if (isBusinessDay(current)) count += 1;
  }
  return count;
}
