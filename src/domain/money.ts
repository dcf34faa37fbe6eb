/**
 * Money is integer cents inside the shop. The wire keeps the spec's formats:
 * prices as strings with two decimals ("249.99").
 */
export type Cents = number;

const DECIMAL_AMOUNT = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/** Parses "249.99", "249.9", "249" into cents; returns null for anything else. */
export function parseRandToCents(text: string): Cents | null {
  const match = DECIMAL_AMOUNT.exec(text.trim());
  if (!match) return null;
  const rand = Number(match[1]);
  const fraction = (match[2] ?? "").padEnd(2, "0");
  return rand * 100 + Number(fraction);
}

/** Converts a number of rand as a client sends it (249.99) into cents, or null when not a whole cent. */
export function randNumberToCents(value: number): Cents | null {
  if (!Number.isFinite(value) || value < 0) return null;
  const cents = Math.round(value * 100);
  return Math.abs(cents - value * 100) < 1e-6 ? cents : null;
}

/** "249.99": two decimals, dot, no thousands separator (the wire and PayFast's amount format). */
export function centsToDecimal(cents: Cents): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** "R1,299.00": the one place the shop formats rand for people. */
export function formatRand(cents: Cents): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  const rand = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}R${rand}.${String(abs % 100).padStart(2, "0")}`;
}

/** "R500" for a whole number of rand (a rule stated in words: free delivery from R500), else as formatRand. */
export function formatRandShort(cents: Cents): string {
  const text = formatRand(cents);
  return text.endsWith(".00") ? text.slice(0, -3) : text;
}

/** Formats a wire price string ("249.99") for people; falls back to R0.00 for junk. */
export function formatRandText(price: string | number): string {
  const cents = typeof price === "number" ? randNumberToCents(price) : parseRandToCents(price);
  return formatRand(cents ?? 0);
}
